#!/bin/bash
# Build the tree after each patch of KVER's series in order (the base alone
# first) and name the first patch after which it does not build.  Uses its
# own worktree, so the variants' trees are left alone.
#
# With a command after TREE (gates.sh's per-patch checks), the walk is the
# same but the command replaces the build after each patch: "CMD [ARG...] N"
# runs in the tree's state after patch N, 0 being the base (built once in
# either case), with the series' patch files in $BISECT_SERIES, one a line;
# the walk stops where the command fails.  SERIES_DIR=dir walks the series
# that dir/series lists, files in dir (a scratch copy), instead of KVER's.
#
# usage: bisect.sh KVER BISECT_TREE [CMD [ARG...]]
set -eu
STEP=bisect
# A walk for another script fails under that script's name.
[ $# -le 2 ] || STEP=$(basename "$3" .sh)
. "$(dirname "$0")/lib.sh"

KVER=${1:?usage: bisect.sh KVER TREE [CMD [ARG...]]}
TREE=${2:?}
shift 2
check_kver "$KVER"
S=$TOP/scripts
if [ -n "${SERIES_DIR:-}" ]; then
	SERIES_DIR=$(cd "$SERIES_DIR" 2>/dev/null && pwd) || die "no directory $SERIES_DIR"
	[ -f "$SERIES_DIR/series" ] || die "no series file in $SERIES_DIR"
	patches=$(for p in $(series_names "$SERIES_DIR/series"); do
		[ -f "$SERIES_DIR/$p" ] || die "$SERIES_DIR/series names $p, which is not there"
		echo "$SERIES_DIR/$p"
	done)
else
	patches=$(series_patches "$KVER")
fi
[ -n "$patches" ] || die "the series is empty"

"$S/prepare-variant.sh" "$KVER" base "$TREE"
"$S/config-kernel.sh" "$TREE" 0
say "building the base tree"
"$S/build-kernel.sh" "$TREE"
# The same commits as prepare-variant.sh makes: pipeline identity, file dates.
pipeline_env
# The tree is about to be no variant at all: make prepare-variant start over.
rm -f "$TREE/.variant-stamp"
export BISECT_SERIES="$patches"
[ $# -eq 0 ] || "$@" 0 || die "stopped at the base tree"
i=0
total=$(echo "$patches" | wc -l)
for f in $patches; do
	i=$((i + 1))
	p=${f##*/}
	am_patch "$TREE" "$f" ||
		{ git -C "$TREE" am --abort; die "patch $i/$total ($p) does not apply"; }
	say "patch $i/$total: $p"
	if [ $# -eq 0 ]; then
		"$S/build-kernel.sh" "$TREE" || die "the tree does not build after patch $i/$total ($p)"
	else
		"$@" "$i" || die "stopped after patch $i/$total ($p)"
	fi
done
if [ $# -eq 0 ]; then
	say "all $total patches build one by one"
else
	say "walked all $total patches"
fi
