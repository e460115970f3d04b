#!/bin/bash
# Check that KVER's series (lib.sh: series_dir, series_file) is exactly what
# the applied tree exports:
# apply (done by the caller: make prepare), format-patch again into a
# scratch directory, compare byte for byte.  Touches nothing in patches/.
#
# usage: roundtrip.sh KVER TREE
set -eu
STEP=roundtrip
. "$(dirname "$0")/lib.sh"

KVER=${1:?usage: roundtrip.sh KVER TREE}
TREE=${2:?usage: roundtrip.sh KVER TREE}
check_kver "$KVER"
DIR=$(series_dir "$KVER")
SERIES=$(series_file "$KVER")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
COVER=$DIR/0000-cover-letter.patch "$(dirname "$0")/format-series.sh" "$TREE" "$TMP/out"

exported_series "$TMP/out" >"$TMP/series"
bad=0
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
[ "$bad" = 0 ] || die "format-patch of the applied series differs from ${DIR#"$TOP"/}/ (make refresh KVER=$KVER?)"
echo "roundtrip: ${SERIES#"$TOP"/} and its patches are what the applied $KVER tree exports"
