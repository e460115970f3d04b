# shellcheck shell=sh
# Helpers shared by the pipeline scripts: progress lines and failures that
# name the step.  Sourced, never run.

: "${STEP:=$(basename "$0" .sh)}"
_t0=$(date +%s)

say() {
	printf '[%s +%ss] %s\n' "$STEP" "$(($(date +%s) - _t0))" "$*" >&2
}

die() {
	printf 'ERROR [%s]: %s\n' "$STEP" "$*" >&2
	exit 1
}

# Reject a KVER we have no Debian source package for.
check_kver() {
	case "$1" in
	6.1 | 6.12) ;;
	*) die "unknown KVER '$1' (supported: 6.1 6.12)" ;;
	esac
}

# The patch file names listed in the series file $1, without comments
# and blank lines; nothing if there is no such file.
series_names() {
	[ -f "$1" ] || return 0
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$1"
}

# The series file for the format-patch output in directory $1: every
# patch but the cover letter, in order.
exported_series() {
	ls "$1" | grep -v '^0000-cover-letter'
}

check_variant() {
	case "$1" in
	stock | base | patched) ;;
	*) die "unknown VARIANT '$1' (supported: stock base patched)" ;;
	esac
}
