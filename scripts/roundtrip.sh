#!/bin/sh
# Check that patches/ and series are exactly what the applied tree exports:
# apply (done by the caller: make prepare), format-patch again into a
# scratch directory, compare byte for byte.  Touches nothing in patches/.
#
# usage: roundtrip.sh TREE
set -eu
STEP=roundtrip
. "$(dirname "$0")/lib.sh"

TREE=${1:?usage: roundtrip.sh TREE}
TOP=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
"$(dirname "$0")/format-series.sh" "$TREE" "$TMP/out"

exported_series "$TMP/out" >"$TMP/series"
bad=0
if ! cmp -s "$TMP/series" "$TOP/series"; then
	diff -u "$TOP/series" "$TMP/series" >&2 || true
	bad=1
fi
for f in "$TMP"/out/*.patch; do
	if ! cmp -s "$f" "$TOP/patches/${f##*/}"; then
		diff -u "$TOP/patches/${f##*/}" "$f" | head -20 >&2 || true
		bad=1
	fi
done
[ "$bad" = 0 ] || die "format-patch of the applied series differs from patches/ (make refresh?)"
echo "roundtrip: patches/ and series are what the applied tree exports"
