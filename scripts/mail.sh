#!/bin/bash
# Make the mail for reviewers: cover letter and patches as one mbox with
# "[PATCH vN i/n]" subjects, To/Cc from the tree's get_maintainer.pl and
# base-commit, then prove it applies: "git am" of the mbox onto a fresh
# worktree at base must give exactly the tree of the patched variant.
# Dry run unless SEND=1 (then git send-email is run on the files).
#
# The sender is whoever runs this: their git identity as seen from the
# top of this repository (git var GIT_AUTHOR_IDENT, i.e. user.name and
# user.email) is the From: of every mail and signs off every patch; the
# files under patches/ carry no identity of their own.  SEND=1 refuses an
# identity that identity_problem (lib.sh) rejects; the dry run uses it
# anyway, so that the mbox can be checked, and says why it would refuse.
#
# usage: mail.sh KVER TREE OUTDIR VERSION
#        mail.sh --gate     (the identity check alone: fails under SEND=1
#                            when the identity may not send)
set -eu
STEP=mail
. "$(dirname "$0")/lib.sh"

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

KVER=${1:?usage: mail.sh KVER TREE OUTDIR VERSION}
TREE=${2:?usage: mail.sh KVER TREE OUTDIR VERSION}
OUT=${3:?}
V=${4:-1}
check_kver "$KVER"
case "$V" in *[!0-9]* | "") die "VERSION must be a number, not '$V'" ;; esac
if [ -z "$ident" ]; then
	# Still make the mbox to check it, as nobody that could send it.
	IDENT_NAME="Unknown Sender" IDENT_EMAIL="unknown-sender@mail.invalid"
fi
[ -z "$why" ] || say "NOTE: the mails are from and signed off by '$IDENT_NAME <$IDENT_EMAIL>', which make mail SEND=1 refuses: $why; set yours: $howto"

# Maintainers and reviewers go to To:, lists to Cc:.
gm() {
	(cd "$TREE" && ./scripts/get_maintainer.pl --no-git --no-git-fallback \
		--no-rolestats --no-multiline --separator=, "$@" \
		$(git -C "$TREE" diff --name-only base..HEAD | sed 's/^/-f /'))
}
to=$(gm --no-l) || die "get_maintainer.pl failed"
cc=$(gm --no-m --no-r) || die "get_maintainer.pl failed"
set --
old_ifs=$IFS
IFS=,
for a in $to; do set -- "$@" "--to=$a"; done
for a in $cc; do set -- "$@" "--cc=$a"; done
IFS=$old_ifs

rm -rf "$OUT"
# A first posting carries no version in its subjects: "[PATCH i/n]".
vopt=
[ "$V" -le 1 ] || vopt="-v $V"
# shellcheck disable=SC2086
STEP=mail SENDER_NAME=$IDENT_NAME SENDER_EMAIL=$IDENT_EMAIL \
	COVER=$(series_dir "$KVER")/0000-cover-letter.patch \
	"$(dirname "$0")/format-series.sh" "$TREE" "$OUT/patches" $vopt --thread=shallow "$@"
MBOX=$OUT/series-v$V.mbox
cat "$OUT/patches"/*.patch >"$MBOX"
say "wrote $MBOX ($(grep -c '^Subject: ' "$MBOX") mails)"
say "From: $IDENT_NAME <$IDENT_EMAIL>"
say "To: $to"
say "Cc: $cc"

# Every patch is signed off by the sender, none names the pipeline.
for f in "$OUT/patches"/*.patch; do
	case "$f" in *0000-cover-letter.patch) continue ;; esac
	grep -q -x -F "Signed-off-by: $IDENT_NAME <$IDENT_EMAIL>" "$f" ||
		die "${f##*/} is not signed off by $IDENT_NAME <$IDENT_EMAIL>"
done
! grep -q -F "$PIPELINE_EMAIL" "$MBOX" || die "$MBOX names the pipeline identity ($PIPELINE_EMAIL)"

# The mbox must apply to the base tree and give the patched tree.
CHK=$OUT/am-test
git -C "$TREE" worktree prune
git -C "$TREE" worktree add -q --detach "$CHK" base
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
[ "$ok" = 1 ] || die "the mbox does not apply to base with git am"
say "git am of the mbox onto base: same tree as the patched variant"

if [ "${SEND:-0}" = 1 ]; then
	command -v git-send-email >/dev/null || git send-email --help >/dev/null 2>&1 ||
		die "git send-email missing (apt-get install git-email)"
	git -C "$TOP" send-email --confirm=always --from="$IDENT_NAME <$IDENT_EMAIL>" \
		"$OUT/patches"/*.patch
else
	echo "dry run; to send:  make mail SEND=1   (as $IDENT_NAME <$IDENT_EMAIL>${why:+; refused now: $why})"
fi
