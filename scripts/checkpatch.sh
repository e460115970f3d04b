#!/bin/sh
# Run the tree's scripts/checkpatch.pl --strict over every patch in ./series.
# A patch passes when checkpatch reports nothing, or when each message type
# it reports (WARNING/CHECK; never ERROR) is named in the patch's commit
# message, which is where a justification belongs for a reviewer to read.
#
# usage: checkpatch.sh TREE
set -eu
STEP=checkpatch
. "$(dirname "$0")/lib.sh"

TREE=${1:?usage: checkpatch.sh TREE}
TOP=$(cd "$(dirname "$0")/.." && pwd)
[ -x "$TREE/scripts/checkpatch.pl" ] || die "no checkpatch.pl in $TREE (make extract)"
[ -f "$TOP/series" ] || die "no series file"
P=0 F=0
OUT=$(mktemp)
trap 'rm -f "$OUT"' EXIT
for p in $(series_names "$TOP/series"); do
	f=$TOP/patches/$p
	[ -f "$f" ] || die "series names patches/$p, which does not exist"
	(cd "$TREE" && ./scripts/checkpatch.pl --strict --show-types --no-tree \
		--no-summary --terse "$f") >"$OUT" 2>&1 || true
	# The commit message: everything before the first "---" line.
	msg=$(sed '/^---$/q' "$f")
	bad=
	for t in $(sed -n 's/.*: \(ERROR\|WARNING\|CHECK\):\([A-Z0-9_]*\):.*/\1:\2/p' "$OUT" | sort -u); do
		case "$t" in
		ERROR:*) bad="$bad $t" ;;
		*) echo "$msg" | grep -q "${t#*:}" || bad="$bad $t" ;;
		esac
	done
	if [ -z "$bad" ]; then
		P=$((P + 1))
		echo "ok   $p$( [ -s "$OUT" ] && echo " (justified: $(sed -n 's/.*: [A-Z]*:\([A-Z0-9_]*\):.*/\1/p' "$OUT" | sort -u | tr '\n' ' '))")"
	else
		F=$((F + 1))
		echo "FAIL $p:$bad"
		sed 's/^/    /' "$OUT"
	fi
done
echo "checkpatch: $P passed, $F failed"
[ "$F" -eq 0 ]
