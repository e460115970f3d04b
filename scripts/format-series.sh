#!/bin/bash
# Write the commits START..HEAD of TREE as "git format-patch" files into
# OUTDIR, each commit's git note (refs/notes/commits) below its "---" line
# for reviewers, with a cover letter whose subject, date and text come from
# the committed cover letter that COVER names (/dev/null: none);
# format-patch fills in the diffstat and base-commit, and the shortlog is
# made here.  Shared by "make refresh", "make roundtrip" and "make mail";
# extra arguments go to git format-patch (-v N, --to, --cc, --thread).
# START is where the series starts (lib-series.sh: series_start, from
# CGNS_SERIES): the tag "base" for the cgroup namespace series, "stock" for
# the fixes series, "fixes" for the next series.  The base-commit is
# series_base: START, but the stock commit for the next series, whose
# mail then lists the fixes commits (stock..fixes) as
# prerequisite-patch-id: lines, as git format-patch --base does.
#
# Identity: the commits of the build trees carry the pipeline identity
# (lib-identity.sh), and none of it is written out.  By default the files carry no
# identity at all: no From: header, no sign-off, and the shortlog heading
# is "$SHORTLOG_HEADING (N):".  With SENDER_NAME and SENDER_EMAIL set
# (mail.sh, after checking them), every mail is from the sender, every
# patch ends its message with the sender's Signed-off-by: and the shortlog
# heading is the sender's name.
#
# The committed cover letter's b4 change-id (lib-series.sh:
# cover_change_id), if it has one, is carried over as b4 writes it: a
# "change-id:" line right after the "base-commit:" line that format-patch
# writes.
#
# usage: [SENDER_NAME=.. SENDER_EMAIL=..] COVER=file format-series.sh TREE OUTDIR [format-patch options]
set -eu
STEP=${STEP:-format}
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"

TREE=${1:?usage: format-series.sh TREE OUTDIR [options]}
OUTDIR=${2:?}
shift 2
COVER=${COVER:?COVER names the committed cover letter (lib-series.sh: series_dir)}
START=$(series_start)
BASE=$(series_base)
for _t in "$START" "$BASE"; do
	git -C "$TREE" rev-parse -q --verify "refs/tags/$_t" >/dev/null || die "$TREE has no $_t tag"
done
# A tag that another tree moved (a fixes series changed since this tree
# was made) would export more than the series, or not start on it.
git -C "$TREE" merge-base --is-ancestor "$START" HEAD ||
	die "the tag $START is not below HEAD in $TREE: make the tree again (make prepare), or rebase it onto $START"
n=$(git -C "$TREE" rev-list --count "$START..HEAD")
[ "$n" -gt 0 ] || die "no commits on top of $START in $TREE"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# Nothing from the caller's environment may change the output.
unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_AUTHOR_DATE GIT_COMMITTER_NAME \
	GIT_COMMITTER_EMAIL GIT_COMMITTER_DATE GIT_NOTES_REF GIT_NOTES_DISPLAY_REF
if [ -n "${SENDER_NAME:-}" ]; then
	name=$SENDER_NAME email=${SENDER_EMAIL:?SENDER_NAME without SENDER_EMAIL}
	heading=$SENDER_NAME
	# --from: the From: header of every mail is the committer identity
	# (user.*, properly encoded by git), and --signoff signs with it.
	set -- --from --signoff "$@"
else
	name=$PIPELINE_NAME email=$PIPELINE_EMAIL
	heading=$SHORTLOG_HEADING
fi

# --notes=commits: the notes of the default notes ref only, whatever
# notes.displayRef says, headed "Notes:" (git warns when there is none).
notes=--no-notes
git -C "$TREE" rev-parse -q --verify refs/notes/commits >/dev/null && notes=--notes=commits

mkdir -p "$OUTDIR"
rm -f "$OUTDIR"/*.patch
# --zero-commit and --no-signature keep the files free of bytes that change
# with every export (commit ids, git's version).
git -C "$TREE" -c core.abbrev=12 -c user.name="$name" -c user.email="$email" \
	format-patch -q --cover-letter --no-signature --zero-commit --base="$BASE" \
	"$notes" -o "$OUTDIR" "$@" "$START..HEAD"
# The pipeline identity never leaves the build tree: its From: headers
# (and the in-body From: lines that --from adds for it), and its sign-off
# should someone have used "git commit -s" there.
for f in "$OUTDIR"/*.patch; do
	strip_identity "$f" "$(pipeline_identity)" >/dev/null
done

# The shortlog: git's own (wrapped at 72, indented 2/4), one group under
# $heading whoever authored the commits, in series order.  Run outside any
# repository so that no .mailmap changes the heading.
mkdir "$TMP/empty"
git -C "$TREE" log --format=%s "$START..HEAD" |
	awk -v a="$heading" '{ printf "Author: %s <x>\n\n    %s\n\n", a, $0 }' >"$TMP/log"
(cd "$TMP/empty" && GIT_CEILING_DIRECTORIES=$TMP git shortlog -w72,2,4 <"$TMP/log") >"$TMP/shortlog"

gen=$(ls "$OUTDIR"/*0000-cover-letter.patch)
[ -f "$COVER" ] || COVER=/dev/null
CHANGE_ID=$(cover_change_id "$COVER")
awk -v old="$COVER" -v shortlog="$TMP/shortlog" '
BEGIN {
	while ((getline l < shortlog) > 0) sl = sl l "\n"
	# From the committed cover letter: subject text (with its folded
	# lines), date, and the text between the headers and the shortlog.
	m = 0
	while ((getline l < old) > 0) a[++m] = l
	for (h = 1; h <= m && a[h] != ""; h++) {
		if (a[h] ~ /^Subject: /) {
			subj = a[h]; sub(/^Subject: (\[[^]]*\] )?/, "", subj)
			while (h < m && a[h + 1] ~ /^[ \t]/) subj = subj "\n" a[++h]
		} else if (a[h] ~ /^Date: /)
			date = a[h]
	}
	# the diffstat ends with " N files changed"; the shortlog, a
	# "Name (N):" line and indented subjects, is right before it
	for (d = m; d > h && a[d] !~ /^ [0-9]+ files? changed/; d--) ;
	while (d > h + 1 && a[d - 1] ~ /^ .*\|/) d--
	for (start = d - 1; start > h && (a[start] == "" || a[start] ~ /^  /); start--) ;
	if (start <= h || a[start] !~ /^[^ ].* \([0-9]+\):$/) start = d
	for (i = h + 1; i < start; i++) blurb = blurb a[i] "\n"
	if (m == 0) blurb = "*** BLURB HERE ***\n\n"
}
hdr == 0 && /^Subject: / && subj != "" {
	match($0, /^Subject: \[[^]]*\] /); print substr($0, 1, RLENGTH) subj
	insubj = 1; next
}
hdr == 0 && insubj && /^[ \t]/ { next }
hdr == 0 { insubj = 0 }
hdr == 0 && /^Date: / && date != "" { print date; next }
hdr == 0 && /^$/ { hdr = 1; skip = 1; printf "\n%s%s", blurb, sl; next }
# what format-patch wrote there: "*** BLURB HERE ***" and its shortlog
skip && /^ [^ ]/ { skip = 0 }
skip { next }
{ print }' "$gen" >"$gen.new"
mv "$gen.new" "$gen"

# The cover letter is from the sender too, with the From: header git
# encoded for the patches (git writes the cover letter's unencoded).
if [ -n "${SENDER_NAME:-}" ]; then
	for first in "$OUTDIR"/*.patch; do
		case "$first" in *0000-cover-letter.patch) ;; *) break ;; esac
	done
	awk -v first="$first" '
	BEGIN { while ((getline l < first) > 0) { if (l == "") break
		if (l ~ /^From: /) { from = l; f = 1 } else if (f && l ~ /^[ \t]/) from = from "\n" l; else f = 0 } }
	!hdr && /^$/ { hdr = 1 }
	!hdr && /^From: / { print from; skip = 1; next }
	!hdr && skip && /^[ \t]/ { next }
	{ skip = 0; print }' "$gen" >"$gen.new"
	mv "$gen.new" "$gen"
fi

# b4's change-id, after the last "base-commit:" line (the one git wrote;
# the cover letter's text could start a line with those words too).
if [ -n "${CHANGE_ID:-}" ]; then
	printf '%s\n' "$CHANGE_ID" | grep -qE '^[0-9]{8}-[a-z0-9-]+-[0-9a-f]{12}$' ||
		die "CHANGE_ID '$CHANGE_ID' is not in b4's form YYYYMMDD-<slug>-<12 hex digits>"
	last=$(grep -n '^base-commit: ' "$gen" | tail -1 | cut -d: -f1)
	[ -n "$last" ] || die "${gen##*/} has no base-commit line to put the change-id after"
	awk -v n="$last" -v id="$CHANGE_ID" '{ print } NR == n { print "change-id: " id }' "$gen" >"$gen.new"
	mv "$gen.new" "$gen"
fi

# A cover letter with non-ASCII text (a name, say) says how it is encoded,
# as git does for the patches.
if LC_ALL=C grep -q "$(printf '[\200-\377]')" "$gen" &&
	! sed '/^$/q' "$gen" | grep -qi '^Content-Type:'; then
	awk '!done && /^$/ { print "MIME-Version: 1.0"
		print "Content-Type: text/plain; charset=UTF-8"
		print "Content-Transfer-Encoding: 8bit"; done = 1 } { print }' "$gen" >"$gen.new"
	mv "$gen.new" "$gen"
fi
