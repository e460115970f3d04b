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

# The programs a guest runs on tree $1, in order, from the case lists
# $2...: each binary once, without those only other trees have.  Each tree
# a case names must be one we know.
guest_programs() {
	_gp_k=$1
	shift
	for _gp_f; do
		[ -f "$_gp_f" ] || die "no case list $_gp_f"
		for _gp_t in $(series_names "$_gp_f" | awk 'NF > 1 { gsub(/,/, " ", $2); print $2 }' | sort -u); do
			check_kver "$_gp_t"
		done
	done
	for _gp_f; do series_names "$_gp_f"; done |
		awk -v k="$_gp_k" 'NF < 2 || index("," $2 ",", "," k ",") {
			sub(/:.*/, "", $1); if (!seen[$1]++) print $1 }'
}

# Add a result line "NAME: N passed, N failed[, N skipped]" to the
# totals P, F and S; 1 if $1 is no such line.
add_counts() {
	# shellcheck disable=SC2046 # the numbers become $1 $2 $3
	set -- $(echo "$1" | sed -n 's/.*: \([0-9]*\) passed, \([0-9]*\) failed\(, \([0-9]*\) skipped\)\{0,1\}$/\1 \2 \4/p')
	[ $# -ge 2 ] || return 1
	P=$((P + $1)) F=$((F + $2)) S=$((S + ${3:-0}))
}

# The entries of a list file $1 (the series file, tests/cases), without
# comments and blank lines; nothing if there is no such file.
series_names() {
	[ -f "$1" ] || return 0
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$1"
}

# Reject a VARIANT the pipeline does not make.  fixes exists only on a
# tree with a fixes series (lib-series.sh: check_series).
check_variant() {
	case "$1" in
	stock | base | patched | fixes) ;;
	*) die "unknown VARIANT '$1' (supported: stock base patched fixes)" ;;
	esac
}

# The kselftest tarball of TARGETS $2 (e.g. "cgroupns cgroup") of tree $1,
# built under $3 as CI systems build it ("make gen_tar"); prints its path.
kselftest_tarball() {
	_kt_st=$1/tools/testing/selftests
	say "make -C tools/testing/selftests TARGETS='$2' gen_tar"
	make -C "$_kt_st" TARGETS="$2" O="$3" FORCE_TARGETS=1 gen_tar >"$3.log" 2>&1 ||
		{ tail -20 "$3.log" >&2; die "gen_tar failed ($3.log)"; }
	for _kt_t in "$3"/kselftest/kselftest_install/kselftest-packages/kselftest.tar*; do
		[ -f "$_kt_t" ] && echo "$_kt_t" && return 0
	done
	die "gen_tar made no tarball ($3.log)"
}
