#!/bin/bash
# The fast one of make gates' per-patch checks, for make check: for each
# patch of the series (the commits START..HEAD of TREE, START its start:
# lib-series.sh series_start, base, stock or fixes), scripts/kernel-doc
# -none (and -Wall where the tree's kernel-doc has it) on the .c and .h
# files the patch touches, before and after it, read from git (no build,
# no checkout): nothing new.  New as in make gates (lib-check.sh: new_lines):
# line numbers do not count; kernel/fork.c, cpuset.c and cgroup.h carry
# upstream's warnings, and 0-day reports only what a patch adds.
# One line per patch, "ok   NN subject" or "FAIL NN subject: ..." with the
# new warnings indented, then "kdoc: N passed, N failed".
#
# usage: [CGNS_SERIES=fixes|next] kdoc.sh KVER TREE   (TREE: the series'
#        tree, patched, fixes or next, make prepare)
set -eu
STEP=kdoc
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-check.sh"
. "$(dirname "$0")/lib-series.sh"

KVER=${1:?usage: kdoc.sh KVER TREE}
TREE=${2:?usage: kdoc.sh KVER TREE}
check_kver "$KVER"
check_series "$KVER"
START=$(series_start)
TREE=$(cd "$TREE" 2>/dev/null && pwd) || die "no tree $2 (make prepare KVER=$KVER)"
git -C "$TREE" rev-parse -q --verify "$START" >/dev/null 2>&1 || die "$TREE has no $START ref (make prepare KVER=$KVER)"
[ -x "$TREE/scripts/kernel-doc" ] || die "no $TREE/scripts/kernel-doc"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
opts=$(kdoc_opts "$TREE")

# kernel-doc's warnings on file $2 at commit $1, named as in the tree;
# nothing if the file is not there.
kdoc_at() {
	git -C "$TREE" cat-file -e "$1:$2" 2>/dev/null || return 0
	rm -rf "$TMP/t"
	mkdir -p "$TMP/t/$(dirname "$2")"
	git -C "$TREE" show "$1:$2" >"$TMP/t/$2"
	kdoc_warnings "$TREE/scripts/kernel-doc" "$opts" "$TMP/t" "$2"
}

passed=0 failed=0 n=0
for c in $(git -C "$TREE" rev-list --reverse "$START..HEAD"); do
	n=$((n + 1))
	: >"$TMP/before"
	: >"$TMP/after"
	for f in $(git -C "$TREE" diff-tree --no-commit-id --name-only -r "$c" -- '*.c' '*.h'); do
		kdoc_at "$c^" "$f" >>"$TMP/before"
		kdoc_at "$c" "$f" >>"$TMP/after"
	done
	new_lines "$TMP/before" "$TMP/after" >"$TMP/new"
	subj=$(git -C "$TREE" log -1 --format=%s "$c")
	nn=$(printf '%02d' "$n")
	if [ -s "$TMP/new" ]; then
		echo "FAIL $nn $subj: $(grep -c . "$TMP/new") new kernel-doc warnings"
		sed 's/^/    /' "$TMP/new"
		failed=$((failed + 1))
	else
		echo "ok   $nn $subj"
		passed=$((passed + 1))
	fi
done
[ "$n" -gt 0 ] || die "no commit in $START..HEAD of $TREE"
echo "kdoc: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
