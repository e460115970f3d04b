#!/bin/sh
# Regenerate patches/ and series from the commits of the patched tree, after
# a developer edited them there (git commit --amend, git rebase -i base).
# An unchanged tree gives byte-identical files; "make check" relies on that.
#
# usage: refresh.sh TREE
set -eu
STEP=refresh
. "$(dirname "$0")/lib.sh"

TREE=${1:?usage: refresh.sh TREE}
TOP=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
"$(dirname "$0")/format-series.sh" "$TREE" "$TMP"

# Replace the old series files (not the base fixtures) by the new ones.
for p in $(series_names "$TOP/series"); do
	rm -f "$TOP/patches/$p"
done
cp "$TMP"/*.patch "$TOP/patches/"
exported_series "$TMP" >"$TOP/series"
say "wrote $(wc -l <"$TOP/series") patches and the cover letter; review with git diff"
