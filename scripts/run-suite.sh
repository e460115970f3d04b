#!/bin/sh
# Run the test suite on a built kernel and judge it: initramfs with the
# test binaries, boot, summary against tests/expect/VARIANT.
#
# usage: run-suite.sh KVER VARIANT TREE TESTDIR RESULTDIR
set -eu
STEP=suite
. "$(dirname "$0")/lib.sh"

KVER=${1:?usage: run-suite.sh KVER VARIANT TREE TESTDIR RESULTDIR}
VARIANT=${2:?}
TREE=${3:?}
TESTS=${4:?}
RES=${5:?}
TOP=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$RES"
name=$VARIANT${DEBUG_SUFFIX:-}

"$TOP/scripts/mkinitramfs.sh" "$RES/$name.cpio.gz" -t "$TESTS"
say "running the suite on $KVER/$name"
rc=0
"$TOP/scripts/boot.sh" "$TREE/arch/x86/boot/bzImage" "$RES/$name.cpio.gz" \
	"$RES/$name.console" suite >"$RES/$name.out" || rc=$?
# Show the guest output as it was; the judgement follows.
grep -v '^# cgns: kernel' "$RES/$name.out" | sed 's/^/  | /' | grep -E '^  \| (# cgns: (BEGIN|END)|not ok|ok .*# SKIP)' || true
[ "$rc" -eq 0 ] || say "guest failed (status $rc): results so far are judged below"
"$TOP/scripts/summarize.sh" "$name" "$RES/$name.out" "$RES/$name.console" \
	"$TOP/tests/expect/$VARIANT" | tee "$RES/$name.summary"
# tee hides summarize's status; the summary's last line carries it.
tail -1 "$RES/$name.summary" | grep -q ' 0 failed' && [ "$rc" -eq 0 ]
