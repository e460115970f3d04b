#!/bin/sh
# Build the tree after each patch of KVER's series in order (the base alone
# first) and name the first patch after which it does not build.  Uses its
# own worktree, so the variants' trees are left alone.
#
# usage: bisect.sh KVER BISECT_TREE
set -eu
STEP=bisect
. "$(dirname "$0")/lib.sh"

KVER=${1:?usage: bisect.sh KVER TREE}
TREE=${2:?}
check_kver "$KVER"
S=$TOP/scripts
patches=$(series_patches "$KVER")

"$S/prepare-variant.sh" "$KVER" base "$TREE"
"$S/config-kernel.sh" "$TREE" 0
say "building the base tree"
"$S/build-kernel.sh" "$TREE"
# The same commits as prepare-variant.sh makes: pipeline identity, file dates.
pipeline_env
# The tree is about to be no variant at all: make prepare-variant start over.
rm -f "$TREE/.variant-stamp"
i=0
total=$(echo "$patches" | wc -l)
for f in $patches; do
	i=$((i + 1))
	p=${f##*/}
	am_patch "$TREE" "$f" ||
		{ git -C "$TREE" am --abort; die "patch $i/$total ($p) does not apply"; }
	say "patch $i/$total: $p"
	"$S/build-kernel.sh" "$TREE" || die "the tree does not build after patch $i/$total ($p)"
done
say "all $total patches build one by one"
