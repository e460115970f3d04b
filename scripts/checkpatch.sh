#!/bin/bash
# Run the tree's scripts/checkpatch.pl --strict over every patch of KVER's
# series (lib-series.sh; the fixes or next series with CGNS_SERIES),
# each as it will be mailed: with a From: header and a Signed-off-by: line
# (mail.sh adds the sender's; the files carry none).  A patch passes when
# checkpatch reports no ERROR, and each WARNING/CHECK type it reports is
# justified in the patch's notes for reviewers, between its "---" line and
# the diffstat (a git note in the patched tree, docs/maintainers.md),
# by a line "checkpatch: TYPE: why" (or "checkpatch: TYPE1, TYPE2: why").
#
# The identity of the mailed form is the sender's when it may send mail
# (mail.sh), else the pipeline's: it only lives in a temporary directory.
#
# The ERROR/WARNING/CHECK lines name the series file and its line (the
# mailed form has a From: header and a sign-off more).
#
# usage: [CGNS_SERIES=fixes|next] checkpatch.sh KVER TREE [PATCH...]
#        (PATCH...: these files instead of KVER's series; test-tooling)
set -eu
STEP=checkpatch
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"

KVER=${1:?usage: checkpatch.sh KVER TREE}
TREE=${2:?usage: checkpatch.sh KVER TREE}
check_kver "$KVER"
check_series "$KVER"
[ -x "$TREE/scripts/checkpatch.pl" ] || die "no checkpatch.pl in $TREE (make extract)"
shift 2
if [ $# -gt 0 ]; then patches=$*; else patches=$(series_patches "$KVER"); fi
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
	# Commit citations: checkpatch's GIT_COMMIT_ID check (the form
	# 'commit <12+ hex> ("<subject>")') runs only when it can either look
	# the id up or not try at all.  It looks ids up with git whenever its
	# $GIT_DIR (default ".git" in the current directory) exists: in the
	# extracted tree, a git repository without upstream history, every
	# lookup fails, and a failed lookup skips the check, so a malformed
	# citation passed here and failed for a maintainer who runs checkpatch
	# outside a git tree (or in one with the history).  GIT_DIR names a
	# path that does not exist: checkpatch then runs no git at all and
	# checks every citation's form.  It then cannot tell a known id from
	# an unknown one either, and reports every cited id as
	# UNKNOWN_COMMIT_ID: that is ignored (the ids are checked by the
	# people citing them; a maintainer's tree with the history checks them).
	# --root=.: without git, CamelCase names are seeded from the tree's
	# include/ with find (with git: git ls-files), which needs the root.
	# spelling.txt and const_structs.checkpatch are read from the
	# directory of checkpatch.pl itself, whatever the cwd.
	(cd "$TREE" && GIT_DIR=$TMP/no-git-dir ./scripts/checkpatch.pl --strict --show-types \
		--no-tree --root=. --ignore UNKNOWN_COMMIT_ID --no-summary --terse "$TMP/$p") >"$OUT" 2>&1 || true
	# "NAME:N:" of the mailed form becomes the series file's "PATH:M:": the
	# mailed form is the file with lines inserted, matched line by line.
	awk -v name="$TMP/$p:" -v path="${f#"$TOP"/}" '
	FILENAME == ARGV[1] { s[++ns] = $0; next }
	FILENAME == ARGV[2] { if ($0 == s[j + 1]) map[FNR] = ++j; next }
	index($0, name) == 1 {
		rest = substr($0, length(name) + 1)
		if (match(rest, /^[0-9]+:/)) {
			n = substr(rest, 1, RLENGTH - 1)
			rest = (map[n] ? map[n] : n " (mailed form)") substr(rest, RLENGTH)
		}
		$0 = path ":" rest
	}
	{ print }' "$f" "$TMP/$p" "$OUT" >"$OUT.src"
	mv "$OUT.src" "$OUT"
	# The types justified in the notes: "checkpatch: TYPE[, TYPE]: why".
	ok=$(patch_notes "$f" | sed -n 's/^checkpatch: *\([A-Z0-9_][A-Z0-9_, ]*\): *[^ ].*/\1/p' |
		tr -s ', ' '\n' | sed '/^$/d' | sort -u)
	bad=
	mapfile -t types < <(sed -n 's/.*: \(ERROR\|WARNING\|CHECK\):\([A-Z0-9_]*\):.*/\1:\2/p' "$OUT" | sort -u)
	for t in "${types[@]}"; do
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
