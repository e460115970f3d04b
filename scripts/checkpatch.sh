#!/bin/bash
# Run the tree's scripts/checkpatch.pl --strict over every patch of KVER's series,
# each as it will be mailed: with a From: header and a Signed-off-by: line
# (mail.sh adds the sender's; the files carry none).  A patch passes when
# checkpatch reports no ERROR, and each WARNING/CHECK type it reports is
# justified in the patch's notes for reviewers, between its "---" line and
# the diffstat (a git note in the patched tree, README: "For maintainers"),
# by a line "checkpatch: TYPE: why" (or "checkpatch: TYPE1, TYPE2: why").
#
# The identity of the mailed form is the sender's when it may send mail
# (mail.sh), else the pipeline's: it only lives in a temporary directory.
#
# usage: checkpatch.sh KVER TREE
set -eu
STEP=checkpatch
. "$(dirname "$0")/lib.sh"

KVER=${1:?usage: checkpatch.sh KVER TREE}
TREE=${2:?usage: checkpatch.sh KVER TREE}
check_kver "$KVER"
[ -x "$TREE/scripts/checkpatch.pl" ] || die "no checkpatch.pl in $TREE (make extract)"
patches=$(series_patches "$KVER")
P=0 F=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
OUT=$TMP/checkpatch.out

split_identity "$(git -C "$TOP" var GIT_AUTHOR_IDENT 2>/dev/null || true)"
if [ -z "$IDENT_NAME" ] || ! identity_problem "$IDENT_NAME" "$IDENT_EMAIL" >/dev/null; then
	IDENT_NAME=$PIPELINE_NAME IDENT_EMAIL=$PIPELINE_EMAIL
fi
say "checking each patch as mailed and signed off by $IDENT_NAME <$IDENT_EMAIL>"

for f in $patches; do
	p=${f##*/}
	mailed_form "$f" "$IDENT_NAME" "$IDENT_EMAIL" >"$TMP/$p"
	# UNKNOWN_COMMIT_ID is ignored: the Debian tree carries no git
	# history, so checkpatch cannot look up the upstream commits that
	# the logs cite (their ids are checked by the people citing them).
	(cd "$TREE" && ./scripts/checkpatch.pl --strict --show-types --no-tree \
		--ignore UNKNOWN_COMMIT_ID --no-summary --terse "$TMP/$p") >"$OUT" 2>&1 || true
	sed -i "s|$TMP/||" "$OUT"
	# The types justified in the notes: "checkpatch: TYPE[, TYPE]: why".
	ok=$(patch_notes "$f" | sed -n 's/^checkpatch: *\([A-Z0-9_][A-Z0-9_, ]*\): *[^ ].*/\1/p' |
		tr -s ', ' '\n' | sed '/^$/d' | sort -u)
	bad=
	for t in $(sed -n 's/.*: \(ERROR\|WARNING\|CHECK\):\([A-Z0-9_]*\):.*/\1:\2/p' "$OUT" | sort -u); do
		case "$t" in
		ERROR:*) bad="$bad $t" ;;
		*) echo "$ok" | grep -qx "${t#*:}" || bad="$bad $t" ;;
		esac
	done
	if [ -z "$bad" ]; then
		P=$((P + 1))
		echo "ok   $p$( [ -s "$OUT" ] && echo " (justified: $(sed -n 's/.*: [A-Z]*:\([A-Z0-9_]*\):.*/\1/p' "$OUT" | sort -u | tr '\n' ' '))")"
	else
		F=$((F + 1))
		echo "FAIL $p:$bad (an ERROR always fails; justify a WARNING/CHECK in the notes: checkpatch: TYPE: why)"
		sed 's/^/    /' "$OUT"
	fi
done
echo "checkpatch: $P passed, $F failed"
[ "$F" -eq 0 ]
