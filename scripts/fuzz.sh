#!/bin/bash
# "make fuzz": bounded fuzzing and stress of the DEBUG=1 kernels (lockdep,
# KASAN, kmemleak, UBSAN, PREEMPT, fault injection) of stock and patched,
# judged like the suite (scripts/judge.py against fuzz/cases and
# fuzz/expect/VARIANT): every case passes, no kernel report on the console,
# taint 0, kmemleak 0, the guest ends within its timeout.  In the guest:
#   cgns_failnth  every allocation failure point of unshare, clone, clone3,
#                 setns, cgroup2/v1 mounts and /proc reads in a namespace,
#                 one at a time (fail-nth), leaking nothing;
#   fuzz_stress   stress-ng's unshare and clone stressors for SECONDS
#                 (each must do work), then the series' race test
#                 cgns_stress for SECONDS with them beside it;
#   fuzz_trinity  trinity as nobody, OPS calls from SEED.
# A failure keeps the console log and prints the command that replays it.
#
# usage: fuzz.sh KVER KDIR SEED OPS SECONDS
#   KDIR: build/KVER, with stock-debug and patched-debug built, tests/
#   holding the suite's binaries (cgns_stress) and patched/ the tree
set -eu
STEP=fuzz
. "$(dirname "$0")/lib.sh"

KVER=${1:?usage: fuzz.sh KVER KDIR SEED OPS SECONDS}
KDIR=${2:?}
SEED=${3:?}
OPS=${4:?}
SECONDS_=${5:?}
check_kver "$KVER"
for n in "$SEED" "$OPS" "$SECONDS_"; do
	case "$n" in "" | *[!0-9]*) die "SEED, FUZZ_OPS and FUZZ_SECONDS must be numbers, not '$n'" ;; esac
done
for p in trinity stress-ng; do
	command -v "$p" >/dev/null || die "$p is missing (make fuzz installs it: scripts/setup.sh)"
done
BIN=$KDIR/fuzz/bin
RES=$KDIR/fuzz
[ -x "$KDIR/tests/cgns_stress" ] || die "no $KDIR/tests/cgns_stress (make tests)"
say "building the fuzz programs from $KDIR/patched"
rm -rf "$BIN"
make -s -C "$TOP/fuzz" KSRC="$KDIR/patched" OUT="$BIN" >"$RES.build.log" 2>&1 ||
	{ cat "$RES.build.log" >&2; die "building the fuzz programs failed"; }
cp "$KDIR/tests/cgns_stress" "$BIN/"

P=0 F=0
for v in stock patched; do
	tree=$KDIR/$v-debug
	[ -f "$tree/arch/x86/boot/bzImage" ] || die "no DEBUG=1 kernel in $tree (make kernel VARIANT=$v DEBUG=1)"
	say "=== $v (DEBUG=1): seed $SEED, $OPS trinity calls, ${SECONDS_}s of stress"
	rc=0
	# The runner's per-program timeout and QEMU's: the debug kernel under
	# TCG is slow, and a hang must still end.
	SUITE=$TOP/fuzz PREFIX=fuzz- DEBUG_SUFFIX=-debug PROGRAMS="trinity stress-ng" \
		TIMEOUT=${FUZZ_TIMEOUT:-3600} \
		APPEND="cgns.seed=$SEED cgns.ops=$OPS cgns.seconds=$SECONDS_ CGNS_TEST_TIMEOUT=1500" \
		"$TOP/scripts/run-suite.sh" "$KVER" "$v" "$tree" "$BIN" "$RES" "$KDIR/patched" \
		>"$RES/fuzz-$v.log" 2>&1 || rc=$?
	cat "$RES/fuzz-$v.log"
	last=$(grep -E '^fuzz-[a-z-]+: [0-9]+ passed, [0-9]+ failed' "$RES/fuzz-$v.log" | tail -1 || true)
	if [ "$rc" -eq 0 ] && [ -n "$last" ]; then
		P=$((P + 1))
	else
		F=$((F + 1))
		say "FAILED on $v: console $RES/fuzz-$v-debug.console, KTAP $RES/fuzz-$v-debug.ktap"
		say "replay: make fuzz KVER=$KVER SEED=$SEED FUZZ_OPS=$OPS FUZZ_SECONDS=$SECONDS_"
	fi
done
echo "fuzz: $P passed, $F failed"
[ "$F" -eq 0 ]
