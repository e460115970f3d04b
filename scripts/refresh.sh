#!/bin/sh
# Regenerate patches/ and series from the commits of the patched tree, after
# a developer edited them there (git commit --amend, git rebase -i base).
# An unchanged tree gives byte-identical files; "make check" relies on that.
# The files carry no identity (README: "For maintainers"): an author or
# sign-off that came into the tree some other way than the pipeline's is
# removed here, and named.
#
# usage: refresh.sh TREE
set -eu
STEP=refresh
. "$(dirname "$0")/lib.sh"

TREE=${1:?usage: refresh.sh TREE}
TOP=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
"$(dirname "$0")/format-series.sh" "$TREE" "$TMP/out"
"$(dirname "$0")/strip-identity.sh" "$TMP"/out/*.patch >"$TMP/stripped"
while read -r l; do
	say "not kept: $l"
done <"$TMP/stripped"

# Replace the old series files (not the base fixtures) by the new ones.
for p in $(series_names "$TOP/series"); do
	rm -f "$TOP/patches/$p"
done
cp "$TMP"/out/*.patch "$TOP/patches/"
exported_series "$TMP/out" >"$TOP/series"
say "wrote $(wc -l <"$TOP/series") patches and the cover letter; review with git diff"
