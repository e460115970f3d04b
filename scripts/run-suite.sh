#!/bin/bash
# Run the test suite on a built kernel and judge it: an initramfs with the
# test binaries and their list (tests/cases), one boot, then the judge
# (scripts/judge.py) against tests/expect/KVER/VARIANT (what differs on
# this tree, if anything) and tests/expect/VARIANT; a variant with neither
# (fixes, say) has no expected difference: every case must pass.  Next to
# the console log
# it leaves, per variant: NAME.ktap (the guest's KTAP document), NAME.json
# (results), NAME.xml (JUnit), NAME.kunit (the KTAP parser's view) and
# NAME.summary.
#
# usage: run-suite.sh KVER VARIANT TREE TESTDIR RESULTDIR PARSER_TREE
#   PARSER_TREE: the kernel tree whose tools/testing/kunit parses the KTAP
# env: SUITE=dir   another suite's cases and expect/ (make fuzz: fuzz/)
#      CASES="file..."  the case lists, read in order (default: SUITE/cases)
#      EXPECT_DIRS="dir..."  where expectations are, first match wins
#                      (default: SUITE/expect)
#      DISK=image  boot this root disk (with the programs of the case
#                  lists, debian-image.sh) instead of an initramfs
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
CASES=${CASES:-$SUITE/cases}
EXPECT_DIRS=${EXPECT_DIRS:-$SUITE/expect}
mkdir -p "$RES"
name=${PREFIX:-}$VARIANT${DEBUG_SUFFIX:-}
out=$RES/$name
rm -f "$out.ktap" "$out.console" "$out.json" "$out.xml" "$out.kunit" "$out.summary"

# The guest runs the binaries in the order of the case lists, and reports
# one it does not find as "not ok ... # missing".
# shellcheck disable=SC2086 # CASES: file names
guest_programs "$KVER" $CASES >"$out.list"
if [ -n "${DISK:-}" ]; then
	cmp -s "$out.list" "$DISK.list" ||
		die "$DISK does not run the programs of $CASES (debian-image.sh makes it again)"
	boot=(env DISK="$DISK" "$TOP/scripts/boot.sh" "$TREE/arch/x86/boot/bzImage" -)
else
	progs=
	for p in ${PROGRAMS:-}; do progs="$progs -b $p"; done
	# shellcheck disable=SC2086
	"$TOP/scripts/mkinitramfs.sh" "$out.cpio.gz" -t "$TESTS" -l "$out.list" $progs
	boot=("$TOP/scripts/boot.sh" "$TREE/arch/x86/boot/bzImage" "$out.cpio.gz")
fi
say "running the suite on $KVER/$name"
rc=0
"${boot[@]}" "$out.console" suite >"$out.ktap" || rc=$?
[ "$rc" -eq 0 ] || say "guest failed (status $rc): what it printed is judged below"
# Show the guest's results as they came; the judgement follows.
grep -E '^(not ok|ok) |^    (not ok|ok .*# SKIP)' "$out.ktap" | sed 's/^/  | /' || true
debug=
[ -z "${DEBUG_SUFFIX:-}" ] || debug=--debug
# What differs on this tree comes first, the first rule that matches
# wins; per directory of EXPECT_DIRS.
expect=()
for d in $EXPECT_DIRS; do
	for f in "$d/$KVER/$VARIANT" "$d/$VARIANT"; do
		[ ! -f "$f" ] || expect+=(--expect "$f")
	done
done
# No file: no rule, and the judge's default for every case is "pass".
[ ${#expect[@]} -gt 0 ] || say "no expectations for $VARIANT in $EXPECT_DIRS: every case must pass"
cases=()
for f in $CASES; do cases+=(--cases "$f"); done
jrc=0
python3 "$TOP/scripts/judge.py" --variant "$name" --kver "$KVER" --ktap "$out.ktap" \
	--console "$out.console" "${cases[@]}" ${expect[@]+"${expect[@]}"} \
	--kunit "$PARSER/tools/testing/kunit" --json "$out.json" --junit "$out.xml" \
	--parser-log "$out.kunit" $debug >"$out.summary" || jrc=$?
cat "$out.summary"
say "results: $out.json (JUnit: $out.xml, KTAP: $out.ktap)"
[ "$jrc" -le 1 ] || die "the judge could not judge this run"
[ "$jrc" -eq 0 ] && [ "$rc" -eq 0 ]
