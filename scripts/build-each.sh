#!/bin/bash
# "make build-each": build KVER's tree after each patch of its series in
# order, the series' start alone first (the base tree, the stock tree for
# the fixes series, the fixes tree for the next series: lib-series.sh
# series_start), and name the first
# patch after which it does not build (a series must build at every patch,
# for git bisect).  Uses a worktree of its own, so the variants' trees are
# left alone.
#
# usage: [CGNS_SERIES=fixes|next] build-each.sh KVER TREE
set -eu
STEP=build-each
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"

KVER=${1:?usage: build-each.sh KVER TREE}
TREE=${2:?usage: build-each.sh KVER TREE}
check_kver "$KVER"

# The walk builds the start itself; every later state is built here (a
# build that fails stops the walk, which names the patch).
build_state() {
	[ "$1" -eq 0 ] || "$TOP/scripts/build-kernel.sh" "$TREE"
}

walk_series "$KVER" "$TREE" build_state
say "the tree builds after each of the $(printf '%s\n' "$WALK_SERIES" | wc -l) patches"
