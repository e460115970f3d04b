#!/bin/bash
# Regenerate KVER's series (lib.sh: series_dir, series_file) from the commits
# of the patched tree, after
# a developer edited them there (git commit --amend, git rebase -i base).
# An unchanged tree gives byte-identical files; "make check" relies on that.
# The files carry no identity (README: "For maintainers"): an author or
# sign-off that came into the tree some other way than the pipeline's is
# removed here, and named.
#
# usage: refresh.sh KVER TREE
set -eu
STEP=refresh
. "$(dirname "$0")/lib.sh"

KVER=${1:?usage: refresh.sh KVER TREE}
TREE=${2:?usage: refresh.sh KVER TREE}
check_kver "$KVER"
DIR=$(series_dir "$KVER")
SERIES=$(series_file "$KVER")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
COVER=$DIR/0000-cover-letter.patch "$(dirname "$0")/format-series.sh" "$TREE" "$TMP/out"
"$(dirname "$0")/strip-identity.sh" "$TMP"/out/*.patch >"$TMP/stripped"
while read -r l; do
	say "not kept: $l"
done <"$TMP/stripped"

# Replace the old series files (not the base fixtures) by the new ones.
mkdir -p "$DIR"
for p in $(series_names "$SERIES"); do
	rm -f "$DIR/$p"
done
cp "$TMP"/out/*.patch "$DIR/"
exported_series "$TMP/out" >"$SERIES"
say "wrote ${SERIES#"$TOP"/}: $(wc -l <"$SERIES") patches and the cover letter; review with git diff"
