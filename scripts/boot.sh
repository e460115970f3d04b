#!/bin/bash
# Boot KERNEL with INITRD in QEMU and carry the guest's exit status out.
# The console (ttyS0, kernel messages) goes to CONSOLE_LOG; the guest's
# output (ttyS1) goes to stdout.  QEMU always runs under a hard timeout.
#
# usage: boot.sh KERNEL INITRD|- CONSOLE_LOG MODE
#   MODE: suite | cmd | shell (shell: console on this terminal, no ttyS1)
#   INITRD "-": none; DISK=image is the root file system (/dev/vda),
#   booted as a snapshot that leaves the image as it was
# env:  ACCEL=tcg|kvm  TIMEOUT=seconds  MEM=MiB  APPEND="extra cmdline"
#       SMP=vCPUs (default 2)  ICOUNT=N[,suboptions] (tcg only: "-icount
#       shift=N[,...]", the guest clock counts instructions; unset: none)
set -euo pipefail
STEP=boot
. "$(dirname "$0")/lib.sh"

KERNEL=${1:?usage: boot.sh KERNEL INITRD CONSOLE_LOG MODE}
INITRD=${2:?}
CONSOLE_LOG=${3:?}
MODE=${4:-suite}
ACCEL=${ACCEL:-tcg}
TIMEOUT=${TIMEOUT:-1200}
MEM=${MEM:-1024}
SMP=${SMP:-2}
ICOUNT=${ICOUNT:-}

[ -f "$KERNEL" ] || die "no kernel at $KERNEL (make kernel)"
root=(-initrd "$INITRD")
if [ "$INITRD" = - ]; then
	[ -f "${DISK:-}" ] || die "no root disk (DISK=${DISK:-})"
	root=(-drive "file=$DISK,if=virtio,format=raw,snapshot=on")
	APPEND="root=/dev/vda rw ${APPEND:-}"
else
	[ -f "$INITRD" ] || die "no initramfs at $INITRD"
fi
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 missing (make setup)"
# 4-level paging: with TCG's la57, a KASAN kernel of 6.1 now and then
# reports a wild-memory-access in handle_edge_irq() early in boot, before
# any cgroup code runs (2 boots in 8 with la57, none in 11 without).
case "$ACCEL" in
tcg) cpu=max,la57=off ;;
kvm) cpu=host ;;
*) die "unknown ACCEL '$ACCEL' (tcg or kvm)" ;;
esac
icount=()
if [ -n "$ICOUNT" ]; then
	[ "$ACCEL" = tcg ] || die "ICOUNT needs ACCEL=tcg"
	icount=(-icount "shift=$ICOUNT")
fi

# panic=-1 and -no-reboot: a panic or "reboot -f" ends QEMU at once.
append="console=ttyS0 panic=-1 oops=panic loglevel=6 cgns.mode=$MODE ${APPEND:-}"
# A guest has no /boot/config-<release>.  One default of the kernel's
# configuration must be known to the tests and cannot be read from the
# kernel: whether a new cgroup2 fs_context favors dynamic modifications
# (test_core's root-flag case skips unless it knows).  Where the kernel
# takes cgroup_favordynmods=, it is given its own configuration's value,
# so it behaves as it would without.
tree=$(dirname "$KERNEL")/../../..
if [ -f "$tree/.config" ] && [[ " $append " != *" cgroup_favordynmods="* ]] &&
	grep -qs '__setup("cgroup_favordynmods="' "$tree/kernel/cgroup/cgroup.c"; then
	favor=0
	! grep -qx 'CONFIG_CGROUP_FAVOR_DYNMODS=y' "$tree/.config" || favor=1
	append="$append cgroup_favordynmods=$favor"
fi
# Under TCG without icount the guest's TSC counts at the host's TSC rate.
# The guest measures that rate against the PIT, which fails when the host
# is busy, and then, with no HPET or PM timer (no ACPI), it keeps a clock
# of the tick's resolution (4 ms): what a guest measures would depend on
# the host's load.  Where the host knows its TSC rate and reports it as
# its CPU frequency (tsc_known_freq, no APERF/MPERF), the guest is told it
# and trusts it.
if [ "$ACCEL" = tcg ] && [ -z "$ICOUNT" ]; then
	khz=$(awk '/^cpu MHz/ { mhz = $4 }
		/^flags/ { if (mhz && / tsc_known_freq( |$)/ && !/ aperfmperf( |$)/) printf "%d", mhz * 1000; exit }' /proc/cpuinfo)
	[ -z "$khz" ] || append="$append tsc_early_khz=$khz tsc=nowatchdog"
fi
qemu=(qemu-system-x86_64 -accel "$ACCEL" -cpu "$cpu" -smp "$SMP" "${icount[@]}" -m "$MEM"
	-kernel "$KERNEL" "${root[@]}" -append "$append"
	-display none -no-reboot -nodefaults)

if [ "$MODE" = shell ]; then
	say "interactive shell; 'reboot -f' leaves (timeout ${TIMEOUT}s)"
	exec timeout --foreground "$TIMEOUT" "${qemu[@]}" -serial mon:stdio
fi

OUT=$(mktemp)
trap 'rm -f "$OUT"' EXIT
say "booting $KERNEL ($ACCEL, timeout ${TIMEOUT}s, console: $CONSOLE_LOG)"
set +e
timeout -k 10 "$TIMEOUT" "${qemu[@]}" -serial "file:$CONSOLE_LOG" \
	-chardev "file,id=out,path=/dev/stdout" -serial chardev:out </dev/null |
	tr -d '\r' | tee "$OUT" | grep -v '^CGNS-EXIT='
qrc=${PIPESTATUS[0]}
set -e

rc=$(sed -n 's/^CGNS-EXIT=\([0-9]*\)$/\1/p' "$OUT" | tail -1)
if [ -z "$rc" ]; then
	tail -25 "$CONSOLE_LOG" >&2 || true
	if [ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ]; then
		die "guest did not finish within ${TIMEOUT}s (console: $CONSOLE_LOG)"
	fi
	grep -q 'Kernel panic' "$CONSOLE_LOG" && die "guest kernel panicked (console: $CONSOLE_LOG)"
	die "guest ended without an exit status (qemu rc=$qrc, console: $CONSOLE_LOG)"
fi
say "guest exited with status $rc"
exit "$rc"
