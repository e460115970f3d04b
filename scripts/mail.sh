#!/bin/sh
# Make the mail for reviewers: cover letter and patches as one mbox with
# "[PATCH vN i/n]" subjects, To/Cc from the tree's get_maintainer.pl and
# base-commit, then prove it applies: "git am" of the mbox onto a fresh
# worktree at base must give exactly the tree of the patched variant.
# Dry run unless SEND=1 (then git send-email is run on the files).
#
# usage: mail.sh TREE OUTDIR VERSION
set -eu
STEP=mail
. "$(dirname "$0")/lib.sh"

TREE=${1:?usage: mail.sh TREE OUTDIR VERSION}
OUT=${2:?}
V=${3:-1}
case "$V" in *[!0-9]* | "") die "VERSION must be a number, not '$V'" ;; esac

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
STEP=mail "$(dirname "$0")/format-series.sh" "$TREE" "$OUT/patches" $vopt --thread=shallow "$@"
MBOX=$OUT/series-v$V.mbox
cat "$OUT/patches"/*.patch >"$MBOX"
say "wrote $MBOX ($(grep -c '^Subject: ' "$MBOX") mails)"
say "To: $to"
say "Cc: $cc"

# The mbox must apply to the base tree and give the patched tree.
CHK=$OUT/am-test
git -C "$TREE" worktree prune
git -C "$TREE" worktree add -q --detach "$CHK" base
ok=1
# The cover letter has no diff: git am drops it as reviewers' tools do.
if ! git -C "$CHK" -c user.name=am -c user.email=am@example.org am -q --empty=drop "$MBOX" >"$OUT/am.log" 2>&1; then
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
	git -C "$TREE" send-email --confirm=always "$OUT/patches"/*.patch
else
	echo "dry run; to send:  git send-email $OUT/patches/*.patch   (or make mail SEND=1)"
fi
