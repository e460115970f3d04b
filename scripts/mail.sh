#!/bin/bash
# Make the mail for reviewers: cover letter and patches as one mbox with
# "[PATCH vN i/n]" subjects, To/Cc headers (below), base-commit and b4's
# change-id (lib-series.sh: cover_change_id), then prove it applies: "git am" of
# the mbox onto a fresh worktree at the series' start (lib-series.sh:
# series_start, base, stock or fixes) must give exactly the tree of its
# variant (patched, fixes or next).  Dry run unless SEND=1 (then git
# send-email is run on the files, which takes the recipients from their
# To/Cc headers).  The series is KVER's (lib-series.sh), its fixes or
# next series with CGNS_SERIES=fixes or next (make sets it from VARIANT):
# all go to the same people, found the same way in the tree mailed.  The
# next series' base-commit is the stock commit, its mail lists the fixes
# as prerequisite-patch-id: lines (lib-series.sh: series_base).
#
# Recipients, as a cgroup maintainer expects them (and as
# "b4 prep --auto-to-cc" finds them, per patch):
#  - To: of every mail: the M: people of the MAINTAINERS entry
#    "CONTROL GROUP (CGROUP)" (CGROUP_ENTRY), Cc: its L: lists;
#  - each patch also Cc:s what scripts/get_maintainer.pl --no-rolestats
#    --no-git --no-git-fallback --no-fixes gives for that patch
#    (maintainers, reviewers and lists of the files it touches, K: matches
#    of its text), and the Cc: trailers of its message;
#  - the cover letter Cc:s all of them (the union).
# --no-fixes: the build trees have no upstream history, so the signers of
# the commit a "Fixes:" tag names cannot be looked up there (git fails on
# the unknown id); a patch that should go to them names them in Cc:
# trailers.
# get_maintainer.pl runs on each patch, not with "-f FILE" on the files
# the series changes: with -f it matches every K: regex against the whole
# file, and tools/testing/selftests/Makefile, which lists every selftest,
# would match PSTORE FILESYSTEM, LANDLOCK and PIDFD API; on a patch, K:
# matches only the message, the notes and the diff's +/- lines.  And the
# people of a file that one patch touches (include/uapi/linux/sched.h,
# kernel/events/core.c) get that patch, not every mail.
#
# The sender is whoever runs this: their git identity as seen from the
# top of this repository (git var GIT_AUTHOR_IDENT, i.e. user.name and
# user.email) is the From: of every mail and signs off every patch; the
# files under patches/ carry no identity of their own.  SEND=1 refuses an
# identity that identity_problem (lib-identity.sh) rejects; the dry run uses it
# anyway, so that the mbox can be checked, and says why it would refuse.
#
# usage: [CGNS_SERIES=fixes|next] mail.sh KVER TREE OUTDIR [VERSION]
#        (VERSION: the N of "[PATCH vN i/n]", by default the series' own,
#        lib-series.sh series_version: one more than the newest
#        "Changes since vN:" of its cover letter, 1 ("[PATCH i/n]") without)
#        mail.sh --gate     (the identity check alone: fails under SEND=1
#                            when the identity may not send)
set -eu
STEP=mail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"

# The sender's identity: IDENT_NAME, IDENT_EMAIL, and why it may not send
# (empty when it may).
ident=$(git -C "$TOP" var GIT_AUTHOR_IDENT 2>/dev/null) || ident=
split_identity "$ident"
if [ -z "$ident" ]; then
	why="git has no identity for you"
else
	why=$(identity_problem "$IDENT_NAME" "$IDENT_EMAIL") && why=
fi
howto='git config user.name "Your Name"; git config user.email you@yourdomain'
if [ -n "$why" ] && [ "${SEND:-0}" = 1 ]; then
	die "refusing to send as '$IDENT_NAME <$IDENT_EMAIL>': $why; set your own identity first: $howto"
fi
[ "${1:-}" != --gate ] || exit 0

KVER=${1:?usage: mail.sh KVER TREE OUTDIR [VERSION]}
TREE=${2:?usage: mail.sh KVER TREE OUTDIR [VERSION]}
OUT=${3:?}
check_kver "$KVER"
check_series "$KVER"
V=${4:-$(series_version "$KVER")}
START=$(series_start)
case "$V" in *[!0-9]* | "") die "VERSION must be a number, not '$V'" ;; esac
if [ -z "$ident" ]; then
	# Still make the mbox to check it, as nobody that could send it.
	IDENT_NAME="Unknown Sender" IDENT_EMAIL="unknown-sender@mail.invalid"
fi
[ -z "$why" ] || say "NOTE: the mails are from and signed off by '$IDENT_NAME <$IDENT_EMAIL>', which make mail SEND=1 refuses: $why; set yours: $howto"

TREE=$(cd "$TREE" && pwd) || die "no tree $TREE"
CGROUP_ENTRY="CONTROL GROUP (CGROUP)"

# The lines "FIELD: value" ($1: M or L) of the entry CGROUP_ENTRY in the
# tree's MAINTAINERS, as addresses: a name with more than letters, digits,
# blanks and dashes quoted (as get_maintainer.pl does), a list's remark
# "(moderated for non-subscribers)" dropped.
entry_field() {
	git -C "$TREE" show HEAD:MAINTAINERS | awk -v e="$CGROUP_ENTRY" -v f="$1" '
	$0 == e { p = 1; next }
	p && /^$/ { exit }
	p && index($0, f ":") == 1 {
		v = substr($0, 3); sub(/^[ \t]+/, "", v); sub(/[ \t]+\(.*\)$/, "", v)
		if (match(v, / *<[^<>]*>$/)) {
			n = substr(v, 1, RSTART - 1)
			if (n ~ /[^A-Za-z0-9 -]/ && n !~ /^".*"$/) v = "\"" n "\"" substr(v, RSTART)
		}
		print v
	}'
}
# The addresses on stdin, one a line, each once (compared by the address
# in <>, case-insensitively), without those of file $1.
addr_key='function key(a) { if (match(a, /<[^<>]*>/)) a = substr(a, RSTART + 1, RLENGTH - 2); return tolower(a) }'
uniq_addrs() {
	awk "$addr_key"'
	FILENAME == ARGV[1] { seen[key($0)] = 1; next }
	$0 != "" && !seen[key($0)]++' "$1" -
}
# The bare addresses of file $1, comma-separated: the dry run's summary.
bare_addrs() {
	awk "$addr_key"'{ printf "%s%s", (NR > 1 ? ", " : ""), key($0) }' "$1"
}
# Put "To:" (file $2) and "Cc:" (file $3) headers, folded as git
# format-patch does, after the Subject: of mail file $1.
put_recipients() {
	awk -v tofile="$2" -v ccfile="$3" '
	function hdr(name, file,   l, n, s) {
		while ((getline l < file) > 0) s = s (n++ ? ",\n    " : name ": ") l
		if (n) print s
	}
	!done && subj && !/^[ \t]/ { hdr("To", tofile); hdr("Cc", ccfile); done = 1 }
	!done && /^Subject: / { subj = 1 }
	{ print }' "$1" >"$1.new" && mv "$1.new" "$1"
}

TO=$OUT/recipients/to
rm -rf "$OUT"
mkdir -p "$OUT/recipients"
entry_field M >"$TO"
entry_field L >"$OUT/recipients/lists"
if [ ! -s "$TO" ] || [ ! -s "$OUT/recipients/lists" ]; then
	die "no M: or L: lines in the entry \"$CGROUP_ENTRY\" of $TREE/MAINTAINERS"
fi

# A first posting carries no version in its subjects: "[PATCH i/n]".
vopt=
[ "$V" -le 1 ] || vopt="-v $V"
# The cover letter must carry its b4 change-id (format-series.sh keeps it).
series_change_id "$KVER" >/dev/null
# shellcheck disable=SC2086
STEP=mail SENDER_NAME=$IDENT_NAME SENDER_EMAIL=$IDENT_EMAIL \
	COVER=$(series_dir "$KVER")/0000-cover-letter.patch \
	"$(dirname "$0")/format-series.sh" "$TREE" "$OUT/patches" $vopt --thread=shallow

# Each patch's Cc: what get_maintainer.pl gives for it (run in the tree
# mailed, patched, fixes or next, so with its MAINTAINERS), the Cc: trailers of
# its message, the entry's lists; never the To: people again.  The cover
# letter: all of them.
printf '%s\n' "$IDENT_EMAIL" >"$OUT/recipients/sender"
: >"$OUT/recipients/all"
for f in "$OUT/patches"/*.patch; do
	case "$f" in *0000-cover-letter.patch) cover=$f; continue ;; esac
	if ! (cd "$TREE" && ./scripts/get_maintainer.pl --no-rolestats --no-git \
		--no-git-fallback --no-fixes "$f") >"$OUT/recipients/gm" 2>"$OUT/recipients/gm.err" ||
		grep -q "appear to be a patch" "$OUT/recipients/gm.err" || [ ! -s "$OUT/recipients/gm" ]; then
		cat "$OUT/recipients/gm.err" >&2
		die "get_maintainer.pl found nobody for ${f##*/}"
	fi
	cat "$OUT/recipients/gm.err" >&2
	{
		cat "$OUT/recipients/lists" "$OUT/recipients/gm"
		# a trailer's "# 5.7+" is for the stable tooling, not an address
		awk 'h && $0 == "---" { exit }
			h && /^Cc: / { a = substr($0, 5); sub(/[ \t]*#.*$/, "", a); print a }
			/^$/ { h = 1 }' "$f"
	} | uniq_addrs "$TO" | uniq_addrs "$OUT/recipients/sender" >"$f.cc"
	cat "$f.cc" >>"$OUT/recipients/all"
done
uniq_addrs /dev/null <"$OUT/recipients/all" >"$cover.cc"
say "To: of every mail, the $CGROUP_ENTRY maintainers: $(bare_addrs "$TO")"
for f in "$OUT/patches"/*.patch; do
	put_recipients "$f" "$TO" "$f.cc"
	n=${f##*/}
	n=${n#v"$V"-}
	say "  ${n%%-*}  Cc ($(wc -l <"$f.cc")): $(bare_addrs "$f.cc")"
	rm "$f.cc"
done

MBOX=$OUT/series-v$V.mbox
cat "$OUT/patches"/*.patch >"$MBOX"
say "wrote $MBOX ($(grep -c '^Subject: ' "$MBOX") mails of $(series_title "$KVER"), subjects [$(sed -n 's/^Subject: \[\([^]]*\) [0-9]*\/[0-9]*\].*/\1/p' "$MBOX" | head -1)]), from $IDENT_NAME <$IDENT_EMAIL>"

# Every patch is signed off by the sender, none names the pipeline.
for f in "$OUT/patches"/*.patch; do
	case "$f" in *0000-cover-letter.patch) continue ;; esac
	grep -q -x -F "Signed-off-by: $IDENT_NAME <$IDENT_EMAIL>" "$f" ||
		die "${f##*/} is not signed off by $IDENT_NAME <$IDENT_EMAIL>"
done
! grep -q -F "$PIPELINE_EMAIL" "$MBOX" || die "$MBOX names the pipeline identity ($PIPELINE_EMAIL)"

# The mbox must apply to the series' start and give the tree mailed.
CHK=$OUT/am-test
git -C "$TREE" worktree prune
git -C "$TREE" worktree add -q --detach "$CHK" "$START"
ok=1
# The cover letter has no diff: git am drops it as reviewers' tools do.
if ! (pipeline_env && git -C "$CHK" am -q --empty=drop "$MBOX") >"$OUT/am.log" 2>&1; then
	ok=0
	cat "$OUT/am.log" >&2
elif [ "$(git -C "$CHK" rev-parse 'HEAD^{tree}')" != "$(git -C "$TREE" rev-parse 'HEAD^{tree}')" ]; then
	ok=0
	say "git am gave a different tree than $TREE"
fi
git -C "$TREE" worktree remove --force "$CHK"
[ "$ok" = 1 ] || die "the mbox does not apply to $START with git am"
say "git am of the mbox onto $START: same tree as $TREE"

if [ "${SEND:-0}" = 1 ]; then
	command -v git-send-email >/dev/null || git send-email --help >/dev/null 2>&1 ||
		die "git send-email missing (apt-get install git-email)"
	# The recipients are in the files' To:/Cc: headers.  --to-cmd (of no
	# one) keeps send-email from asking "To whom should the emails be
	# sent?", which it does whenever no --to is given.
	git -C "$TOP" send-email --confirm=always --from="$IDENT_NAME <$IDENT_EMAIL>" \
		--to-cmd=true "$OUT/patches"/*.patch
else
	echo "dry run; to send:  make mail $(series_args "$KVER") V=$V SEND=1   (as $IDENT_NAME <$IDENT_EMAIL>${why:+; refused now: $why})"
fi
