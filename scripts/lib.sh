# shellcheck shell=bash
# Helpers every pipeline script sources: progress lines and failures that
# name the step, the repository's top, the checks of KVER and VARIANT.
# The other concerns have files of their own, sourced where they are used:
# lib-disk.sh (disk budget), lib-series.sh (which series is for which
# tree, applying it), lib-identity.sh (the pipeline identity and who may
# send mail), lib-patch.sh (reading and rewriting patch files),
# lib-check.sh (the warning comparisons of kdoc and gates).

: "${STEP:=$(basename "$0" .sh)}"
_t0=$(date +%s)

say() {
	printf '[%s +%ss] %s\n' "$STEP" "$(($(date +%s) - _t0))" "$*" >&2
}

die() {
	printf 'ERROR [%s]: %s\n' "$STEP" "$*" >&2
	exit 1
}

# The top of this repository (every script lives in scripts/).
# shellcheck disable=SC2034 # used by the scripts that source this file
TOP=$(cd "$(dirname "$0")/.." && pwd)

# Reject a KVER there is no Debian source package for.
check_kver() {
	case "$1" in
	6.1 | 6.12) ;;
	*) die "unknown KVER '$1' (supported: 6.1 6.12)" ;;
	esac
}

# The entries of a list file $1 (the series file, tests/cases), without
# comments and blank lines; nothing if there is no such file.
series_names() {
	[ -f "$1" ] || return 0
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$1"
}

# Reject a VARIANT the pipeline does not make.
check_variant() {
	case "$1" in
	stock | base | patched) ;;
	*) die "unknown VARIANT '$1' (supported: stock base patched)" ;;
	esac
}
