#!/bin/bash
# Run the test suite on a built kernel and judge it: an initramfs with the
# test binaries and their list (tests/cases), one boot, then the judge
# (scripts/judge.py) against tests/expect/KVER/VARIANT (what differs on
# this tree, if anything) and tests/expect/VARIANT.  Next to the console log
# it leaves, per variant: NAME.ktap (the guest's KTAP document), NAME.json
# (results), NAME.xml (JUnit), NAME.kunit (the KTAP parser's view) and
# NAME.summary.
#
# usage: run-suite.sh KVER VARIANT TREE TESTDIR RESULTDIR PARSER_TREE
#   PARSER_TREE: the kernel tree whose tools/testing/kunit parses the KTAP
# env: SUITE=dir   another suite's cases and expect/ (make fuzz: fuzz/)
#      PROGRAMS="p..."  host programs for the guest (mkinitramfs.sh -b)
#      PREFIX=name- before the result names; APPEND: boot.sh's
set -eu
STEP=suite
. "$(dirname "$0")/lib.sh"

KVER=${1:?usage: run-suite.sh KVER VARIANT TREE TESTDIR RESULTDIR PARSER_TREE}
VARIANT=${2:?}
TREE=${3:?}
TESTS=${4:?}
RES=${5:?}
PARSER=${6:?}
SUITE=${SUITE:-$TOP/tests}
CASES=$SUITE/cases
mkdir -p "$RES"
name=${PREFIX:-}$VARIANT${DEBUG_SUFFIX:-}
out=$RES/$name
rm -f "$out.ktap" "$out.console" "$out.json" "$out.xml" "$out.kunit" "$out.summary"

# The guest runs the binaries in the order of tests/cases, and reports
# one it does not find as "not ok ... # missing".
[ -f "$CASES" ] || die "no case list $CASES"
# A case that names trees runs on those only; each name must be a tree.
for k in $(series_names "$CASES" | awk 'NF > 1 { gsub(/,/, " ", $2); print $2 }' | sort -u); do
	check_kver "$k"
done
series_names "$CASES" | awk -v k="$KVER" 'NF < 2 || index("," $2 ",", "," k ",") {
	sub(/:.*/, "", $1); print $1 }' | uniq >"$out.list"
progs=
for p in ${PROGRAMS:-}; do progs="$progs -b $p"; done
# shellcheck disable=SC2086
"$TOP/scripts/mkinitramfs.sh" "$out.cpio.gz" -t "$TESTS" -l "$out.list" $progs
say "running the suite on $KVER/$name"
rc=0
"$TOP/scripts/boot.sh" "$TREE/arch/x86/boot/bzImage" "$out.cpio.gz" \
	"$out.console" suite >"$out.ktap" || rc=$?
[ "$rc" -eq 0 ] || say "guest failed (status $rc): what it printed is judged below"
# Show the guest's results as they came; the judgement follows.
grep -E '^(not ok|ok) |^    (not ok|ok .*# SKIP)' "$out.ktap" | sed 's/^/  | /' || true
debug=
[ -z "${DEBUG_SUFFIX:-}" ] || debug=--debug
# What differs on this tree comes first: the first rule that matches wins.
tree_expect=()
[ ! -f "$SUITE/expect/$KVER/$VARIANT" ] || tree_expect=(--expect "$SUITE/expect/$KVER/$VARIANT")
jrc=0
python3 "$TOP/scripts/judge.py" --variant "$name" --kver "$KVER" --ktap "$out.ktap" \
	--console "$out.console" --cases "$CASES" "${tree_expect[@]}" --expect "$SUITE/expect/$VARIANT" \
	--kunit "$PARSER/tools/testing/kunit" --json "$out.json" --junit "$out.xml" \
	--parser-log "$out.kunit" $debug >"$out.summary" || jrc=$?
cat "$out.summary"
say "results: $out.json (JUnit: $out.xml, KTAP: $out.ktap)"
[ "$jrc" -le 1 ] || die "the judge could not judge this run"
[ "$jrc" -eq 0 ] && [ "$rc" -eq 0 ]
