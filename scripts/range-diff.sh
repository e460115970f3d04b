#!/bin/bash
# "git range-diff" of two versions of the series, patch by patch, notes
# included (they explain what differs):
#
#   range-diff.sh FROM KVER        FROM's series against KVER's (two trees)
#   range-diff.sh -r REV KVER      KVER's series as committed at git revision
#                                  REV of this repository against the files
#                                  as they are now (two versions, one tree)
#
# Each side is applied with "git am" to a scratch repository whose base
# commit holds only the files that the series and the patches of its
# start touch, taken from the tree's stock commit, with those patches
# applied (lib-series.sh: series_start, start_patches; the base fixture,
# none for the fixes series, which starts on stock, the side's fixes
# series for the next series): the patches apply there exactly as in the
# full tree, without a checkout of either tree.  Extra arguments go to
# git range-diff (--no-color, -s, ...).  BUILD: where the extracted trees
# are (build/).  CGNS_SERIES=fixes or next: that series of both sides.
#
# usage: [CGNS_SERIES=fixes|next] range-diff.sh FROM KVER [git range-diff options]
#        [CGNS_SERIES=fixes|next] range-diff.sh -r REV KVER [git range-diff options]
set -eu
STEP=range-diff
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"

if [ "${1:-}" = -r ]; then
	REV=${2:?usage: range-diff.sh -r REV KVER}
	FROM=${3:?usage: range-diff.sh -r REV KVER}
	KVER=$FROM
	shift 3
else
	REV=
	FROM=${1:?usage: range-diff.sh FROM KVER | -r REV KVER}
	KVER=${2:?usage: range-diff.sh FROM KVER | -r REV KVER}
	shift 2
fi
check_kver "$FROM"
check_kver "$KVER"
# With -r, KVER's series as REV has it is checked where it is read.
check_series "$KVER"
[ -n "$REV" ] || check_series "$FROM"
[ -n "$REV" ] || [ "$FROM" != "$KVER" ] ||
	die "FROM and KVER are both $KVER: compare two versions of its series with OLD=<git revision>"
BUILD=${BUILD:-$TOP/build}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
R=$TMP/repo
git init -q "$R"
pipeline_env

# side NAME KVER PATCH_TOP: the series of KVER as PATCH_TOP holds it (a
# checkout of this repository) on a root commit of its own, tagged NAME-base;
# the branch NAME ends at its last patch.
side() {
	_name=$1 _kver=$2 _stock=$BUILD/$2/stock
	git -C "$_stock" rev-parse -q --verify refs/tags/stock >/dev/null ||
		die "$_stock is not extracted (make extract KVER=$_kver)"
	_base=$(TOP=$3 start_patches "$_kver") || exit 1
	_series=$(TOP=$3 series_patches "$_kver") || exit 1
	[ -n "$_series" ] || die "$(series_title "$_kver") is empty"
	git -C "$R" checkout -q --orphan "$_name"
	git -C "$R" rm -q -r -f --ignore-unmatch . >/dev/null
	# shellcheck disable=SC2086 # the patch files, one path a word
	mapfile -t _paths < <(sed -n 's|^diff --git a/\([^ ]*\) b/\([^ ]*\)$|\1\n\2|p' $_base $_series | sort -u)
	for _p in "${_paths[@]}"; do
		git -C "$_stock" cat-file -e "stock:$_p" 2>/dev/null || continue
		mkdir -p "$R/$(dirname "$_p")"
		git -C "$_stock" show "stock:$_p" >"$R/$_p"
	done
	git -C "$R" add -A
	git -C "$R" commit -q -m "stock $_kver (the files the series touches)"
	for _p in $_base; do
		am_patch "$R" "$_p" >"$TMP/am.log" 2>&1 ||
			{ cat "$TMP/am.log" >&2; die "${_p#"$3"/} (the $(series_start) tree of $_kver) does not apply"; }
	done
	git -C "$R" tag "$_name-base"
	for _p in $_series; do
		apply_patch "$R" "$_p" >"$TMP/am.log" 2>&1 ||
			{ cat "$TMP/am.log" >&2; die "${_p#"$3"/} does not apply to $_kver"; }
	done
}

if [ -n "$REV" ]; then
	git -C "$TOP" rev-parse -q --verify "$REV^{commit}" >/dev/null ||
		die "no revision '$REV' in this repository"
	mkdir "$TMP/old"
	git -C "$TOP" archive "$REV" patches | tar -x -C "$TMP/old"
	side old "$KVER" "$TMP/old"
	side new "$KVER" "$TOP"
	say "$(series_title "$KVER") at $REV (left) against the working copy (right)"
else
	side old "$FROM" "$TOP"
	side new "$KVER" "$TOP"
	say "$(series_title "$FROM") (left) against $(series_title "$KVER") (right)"
fi
# The two sides hold the same patches in the same order: pair them even
# where a tree's API changed much of one (--creation-factor=100).
git -C "$R" range-diff --notes=commits --creation-factor=100 "$@" old-base..old new-base..new
