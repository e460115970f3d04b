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

# The top of this repository (every script lives in scripts/), from this
# file's own path ($0 where a shell has no BASH_SOURCE).
# shellcheck disable=SC2034,SC2128 # used by the scripts that source this file
TOP=$(cd "$(dirname "${BASH_SOURCE:-$0}")/.." && pwd)

# ---- the cache outside the clone (CGNS_CACHE) ----------------------------
# Directory $1 of the cache (the cache itself without $1), made if need be:
# CGNS_CACHE, by default /var/cache/cgns.
cache_dir() {
	_cd=${CGNS_CACHE:-/var/cache/cgns}${1:+/$1}
	mkdir -p "$_cd" 2>/dev/null || die "cannot create $_cd (CGNS_CACHE=dir for another place)"
	echo "$_cd"
}

# Hold lock file $1 of the cache on descriptor 9 until the script ends;
# while another run holds it, say so ($2: what that run is doing) and wait.
hold_lock() {
	{ exec 9>"$1"; } 2>/dev/null || die "cannot write $1 (CGNS_CACHE=dir for another place)"
	flock -n 9 || { say "waiting for another run $2 ($1)"; flock 9; }
}

# ---- the trees (./trees: one row each) --------------------------------
# CGNS_TREES names another file of rows (test-tooling's fixtures).
trees_file() {
	echo "${CGNS_TREES:-$TOP/trees}"
}

# The KVERs of ./trees, one a line, in its order.
known_trees() {
	awk '!/^#/ && NF { print $1 }' "$(trees_file)"
}

# Field $2 of tree $1's row: package, suite or config (./trees says what
# each holds).  KVERs are compared as strings: 6.1 is not 6.10.
tree_field() {
	awk -v k="$1" -v f="$2" '!/^#/ && NF && $1 "" == k "" {
		i = f == "package" ? 2 : f == "suite" ? 3 : f == "config" ? 4 : 0
		if (!i || NF != 4 || n++) { bad = 1; exit }
		v = $i }
		END { if (bad || !n) exit 1; print v }' "$(trees_file)" ||
		die "trees: no single row '$1' with a field '$2' (KVER PACKAGE SUITE CONFIG)"
}

# Reject a KVER that ./trees does not list.
check_kver() {
	known_trees | grep -qxF -- "$1" ||
		die "unknown KVER '$1' (supported: $(known_trees | tr '\n' ' ' | sed 's/ $//'); see ./trees)"
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

# Reject a VARIANT the pipeline does not make.  fixes and next exist only
# on a tree with such a series (lib-series.sh: check_series).
check_variant() {
	case "$1" in
	stock | base | patched | fixes | next) ;;
	*) die "unknown VARIANT '$1' (supported: stock base patched fixes next)" ;;
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

# The URI of the host's Debian archive: the first of its apt sources that
# serves the host's own suite (VERSION_CODENAME in /etc/os-release).  Other
# suites of the same archive are fetched from there (fetch-source.sh,
# debian-rootfs.sh); CGNS_MIRROR, when set, is used instead.
debian_mirror() {
	if [ -n "${CGNS_MIRROR:-}" ]; then
		echo "$CGNS_MIRROR"
		return 0
	fi
	_dm_suite=$(sed -n 's/^VERSION_CODENAME=//p' /etc/os-release 2>/dev/null | tr -d '"')
	[ -n "$_dm_suite" ] || die "no VERSION_CODENAME in /etc/os-release: set CGNS_MIRROR to a Debian archive"
	# deb822 stanzas (a blank line or a new file ends one); an
	# "Enabled: no" one does not count.
	# shellcheck disable=SC2016 # an awk program
	_dm=$(for _f in /etc/apt/sources.list.d/*.sources; do [ ! -r "$_f" ] || echo "$_f"; done |
		xargs -r awk -v s="$_dm_suite" '
		function end() { if (!done && uri != "" && ok && deb && on) { print uri; done = 1; exit }
			uri = ""; ok = deb = 0; on = 1 }
		BEGIN { on = 1 }
		FNR == 1 || /^[ \t]*$/ { end() }
		tolower($1) == "types:" { for (i = 2; i <= NF; i++) if ($i == "deb") deb = 1 }
		tolower($1) == "uris:" { uri = $2 }
		tolower($1) == "suites:" { for (i = 2; i <= NF; i++) if ($i == s) ok = 1 }
		tolower($1) == "enabled:" && tolower($2) == "no" { on = 0 }
		END { end() }')
	[ -n "$_dm" ] || _dm=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
		sed -e 's/\[[^]]*\]//' | awk -v s="$_dm_suite" '$1 == "deb" && $3 == s { print $2; exit }')
	[ -n "$_dm" ] || die "no apt source of the host serves $_dm_suite: set CGNS_MIRROR to a Debian archive"
	echo "${_dm%/}"
}
