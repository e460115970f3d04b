#!/bin/bash
# "make refresh": write KVER's series (lib-series.sh: series_dir,
# series_file; the fixes or next series with CGNS_SERIES=fixes or next,
# which make sets for VARIANT=fixes and next) from the commits of a tree,
# after a developer edited them there (git commit --amend, git rebase -i
# base, stock or fixes, git notes edit).  The
# files carry no identity (README: working on the series): an author or
# sign-off that came into the tree some other way than the pipeline's is
# removed here, and named.
#
# "make roundtrip" is its check mode (--check): the series written to a
# scratch directory instead and compared byte for byte with patches/,
# which it leaves alone.  Run on the patched tree that make prepare
# applied from patches/, it proves that applying and exporting give the
# files back: what make refresh writes after an edit is the edit alone.
#
# usage: [CGNS_SERIES=fixes|next] refresh.sh [--check] KVER TREE
set -eu
STEP=refresh
CHECK=0
if [ "${1:-}" = --check ]; then
	CHECK=1 STEP=roundtrip
	shift
fi
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"

KVER=${1:?usage: refresh.sh [--check] KVER TREE}
TREE=${2:?usage: refresh.sh [--check] KVER TREE}
check_kver "$KVER"
check_series "$KVER"
DIR=$(series_dir "$KVER")
SERIES=$(series_file "$KVER")
ARGS=$(series_args "$KVER")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
COVER=$DIR/0000-cover-letter.patch "$TOP/scripts/format-series.sh" "$TREE" "$TMP/out"
"$TOP/scripts/strip-identity.sh" "$TMP"/out/*.patch >"$TMP/stripped"
exported_series "$TMP/out" >"$TMP/series"

if [ "$CHECK" = 1 ]; then
	bad=0
	while read -r l; do
		echo "identity in the tree: $l" >&2
		bad=1
	done <"$TMP/stripped"
	if ! cmp -s "$TMP/series" "$SERIES"; then
		diff -u "$SERIES" "$TMP/series" >&2 || true
		bad=1
	fi
	for f in "$TMP"/out/*.patch; do
		if ! cmp -s "$f" "$DIR/${f##*/}"; then
			diff -u "$DIR/${f##*/}" "$f" | head -20 >&2 || true
			bad=1
		fi
	done
	[ "$bad" = 0 ] ||
		die "the series exported from $TREE differs from ${DIR#"$TOP"/}/ (make refresh $ARGS?)"
	echo "roundtrip: ${SERIES#"$TOP"/} and its patches are what $TREE exports"
	exit 0
fi

while read -r l; do
	say "not kept: $l"
done <"$TMP/stripped"
# Replace the old series files (not the base fixtures) by the new ones.
mkdir -p "$DIR"
for p in $(series_names "$SERIES"); do
	rm -f "$DIR/$p"
done
cp "$TMP"/out/*.patch "$DIR/"
cp "$TMP/series" "$SERIES"
say "wrote ${SERIES#"$TOP"/}: $(wc -l <"$SERIES") patches and the cover letter; review with git diff"
