#!/bin/sh
# Write the commits base..HEAD of TREE as "git format-patch" files into
# OUTDIR, with a cover letter whose subject, date and text come from the
# committed patches/0000-cover-letter.patch (format-patch fills in the
# shortlog, the diffstat and base-commit).  Shared by "make refresh" and
# "make mail"; extra arguments go to git format-patch (-v N, --to, --cc).
#
# usage: format-series.sh TREE OUTDIR [format-patch options]
set -eu
STEP=${STEP:-format}
. "$(dirname "$0")/lib.sh"

TREE=${1:?usage: format-series.sh TREE OUTDIR [options]}
OUTDIR=${2:?}
shift 2
TOP=$(cd "$(dirname "$0")/.." && pwd)
git -C "$TREE" rev-parse -q --verify refs/tags/base >/dev/null || die "$TREE has no base tag"
n=$(git -C "$TREE" rev-list --count base..HEAD)
[ "$n" -gt 0 ] || die "no commits on top of base in $TREE"

mkdir -p "$OUTDIR"
rm -f "$OUTDIR"/*.patch
# --zero-commit and --no-signature keep the files free of bytes that change
# with every export (commit ids, git's version).
# The cover letter is signed by the author of the first patch, whoever
# runs the export.
first=$(git -C "$TREE" rev-list --reverse base..HEAD | head -1)
git -C "$TREE" -c core.abbrev=12 \
	-c user.name="$(git -C "$TREE" log -1 --format=%an "$first")" \
	-c user.email="$(git -C "$TREE" log -1 --format=%ae "$first")" \
	format-patch -q --cover-letter --no-signature --zero-commit --base=base \
	-o "$OUTDIR" "$@" base..HEAD
gen=$(ls "$OUTDIR"/*0000-cover-letter.patch)
old=$TOP/patches/0000-cover-letter.patch
[ -f "$old" ] || exit 0

awk -v old="$old" '
BEGIN {
	# From the committed cover letter: subject text, date and the text
	# between the headers and the shortlog.
	hdr = 1
	while ((getline l < old) > 0) {
		if (hdr && l ~ /^Subject: /) { subj = l; sub(/^Subject: (\[[^]]*\] )?/, "", subj); continue }
		if (hdr && l ~ /^Date: /) { date = l; continue }
		if (hdr && l == "") { hdr = 0; continue }
		if (hdr) continue
		if (l ~ /^[^ ].* \([0-9]+\):$/) break
		blurb = blurb l "\n"
	}
}
inhdr == 0 && /^Subject: / { match($0, /^Subject: \[[^]]*\] /); print substr($0, 1, RLENGTH) subj; next }
inhdr == 0 && /^Date: / && date != "" { print date; next }
inhdr == 0 && /^$/ { inhdr = 1; print; printf "%s", blurb; skip = 1; next }
skip && /^[^ ].* \([0-9]+\):$/ { skip = 0 }
skip { next }
{ print }' "$gen" >"$gen.new"
mv "$gen.new" "$gen"
