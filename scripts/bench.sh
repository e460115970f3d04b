#!/bin/bash
# "make bench": what cgroup namespaces cost, patched against stock, and
# what the fixes series and the next series cost, fixes and next against
# stock, where the tree has them (lib-series.sh: series_variants).
# Boots the built kernels of KVER alternately (stock, patched, [fixes,]
# [next,] base, then stock, patched[, fixes][, next] again, PAIRS pairs
# in all) under QEMU
# TCG with one vCPU
# and "-icount shift=0,sleep=off", so that the guest clock counts
# instructions and never follows the host's, and without address space
# randomization (norandmaps): the guest runs the same instructions on every
# boot, whatever the host does.  "tsc=nowatchdog": upstream computes a
# 1 MB path (the long-path figures) with interrupts off, some 50 ms of
# guest time at a time, the periodic tick loses those ticks, and the
# clocksource watchdog, which checks the TSC against jiffies, would then
# mark it unstable and leave the guest a 4 ms clock.  Runs bench/cgns-bench
# in each guest; hands the outputs to bench-report.py (tables, verdict,
# JSON, plot data) and plots with gnuplot the /proc/self/cgroup read cost
# against depth and the long-path read costs against the path's length.
#
# usage: bench.sh KVER KDIR OUTDIR
#   KDIR: build/<KVER>, holding stock/, patched/, base/ (and fixes/, next/
#         where KVER has those series) with bzImage built
# env:   PAIRS=stock/patched pairs (default 2, at least 2)  TIMEOUT=per boot
# out:   OUTDIR/runs/NN-VARIANT.txt (guest output), .console (kernel log),
#        OUTDIR/bench.txt (the tables, also on stdout), bench.json,
#        cgroup-read.dat, cgroup-read.svg, long-path.dat, long-path.svg
set -euo pipefail
STEP=bench
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"

KVER=${1:?usage: bench.sh KVER KDIR OUTDIR}
KDIR=${2:?usage: bench.sh KVER KDIR OUTDIR}
OUT=${3:?usage: bench.sh KVER KDIR OUTDIR}
check_kver "$KVER"
PAIRS=${PAIRS:-2}
S=$TOP/scripts
# The fixes and next kernels boot right after patched in every pair,
# where the tree has those series (series_variants lists patched first).
more=$(series_variants "$KVER" | sed 1d | paste -sd ' ')

case "$PAIRS" in
'' | *[!0-9]*) die "PAIRS=$PAIRS is not a number" ;;
esac
[ "$PAIRS" -ge 2 ] || die "PAIRS=$PAIRS: at least 2 pairs, or there is no spread to show"
for v in stock patched base $more; do
	[ -f "$KDIR/$v/arch/x86/boot/bzImage" ] || die "no $v kernel in $KDIR (make kernel KVER=$KVER VARIANT=$v)"
done
command -v gnuplot >/dev/null || die "gnuplot missing (make setup: gnuplot-nox)"

mkdir -p "$OUT/guest"
make -s -C "$TOP/bench" OUT="$OUT/guest" || die "building bench/cgns-bench failed"
"$S/mkinitramfs.sh" "$OUT/bench.cpio.gz" -e "$OUT/guest" -c /extra/cgns-bench

order="stock patched${more:+ $more} base"
for _ in $(seq 2 "$PAIRS"); do
	order="$order stock patched${more:+ $more}"
done
total=$(echo "$order" | wc -w)
rm -rf "$OUT/runs.new"
mkdir -p "$OUT/runs.new"
n=0
for v in $order; do
	n=$((n + 1))
	f=$(printf '%s/runs.new/%02d-%s' "$OUT" "$n" "$v")
	say "boot $n/$total: $v"
	SMP=1 ICOUNT=0,sleep=off APPEND="norandmaps tsc=nowatchdog ${APPEND:-}" "$S/boot.sh" "$KDIR/$v/arch/x86/boot/bzImage" "$OUT/bench.cpio.gz" \
		"$f.console" cmd >"$f.txt" ||
		die "the $v guest failed (output: $f.txt, console: $f.console)"
	grep -qx 'bench: done' "$f.txt" || die "the $v guest did not finish the benchmark ($f.txt)"
	if grep -q '^bench: .* error ' "$f.txt"; then
		grep '^bench: .* error ' "$f.txt" >&2
		die "a figure failed on $v ($f.txt)"
	fi
done
rm -rf "$OUT/runs"
mv "$OUT/runs.new" "$OUT/runs"

python3 "$S/bench-report.py" "$OUT/runs" "$OUT" | tee "$OUT/bench.txt"
for plot in cgroup-read long-path; do
	gnuplot -e "dat='$OUT/$plot.dat'; out='$OUT/$plot.svg'" "$TOP/bench/$plot.gp" ||
		die "gnuplot failed on bench/$plot.gp"
done
say "$total boots; tables $OUT/bench.txt, JSON $OUT/bench.json, plots $OUT/cgroup-read.svg, $OUT/long-path.svg"
