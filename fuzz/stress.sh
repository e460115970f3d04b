#!/bin/sh
# make fuzz, in the guest: stress-ng's namespace stressors (unshare: every
# namespace type, cgroup included; clone) for a fixed time
# (cgns.seconds=: make fuzz FUZZ_SECONDS=), alongside the series' own race
# test (cgns_stress, which checks every /proc/<pid>/cgroup read exactly).
# Prints a KTAP subtest of two cases.
seconds=60
for a in $(cat /proc/cmdline); do
	case "$a" in
	cgns.seconds=*) seconds=${a#*=} ;;
	esac
done
echo "TAP version 13"
echo "1..2"
echo "# stress-ng --unshare 2 --clone 2 for ${seconds}s, with cgns_stress"
stress-ng --unshare 2 --clone 2 --clone-max 8 --timeout "${seconds}s" --metrics-brief -v \
	>/tmp/stress-ng.log 2>&1 &
sp=$!
CGNS_STRESS_SECONDS=$seconds /tests/bin/cgns_stress >/tmp/cgns_stress.log 2>&1
crc=$?
wait "$sp"
src=$?
sed 's/^/# /' /tmp/stress-ng.log
# Each stressor must have done work: "metrc: [pid] NAME BOGO-OPS ...".
idle=
for st in unshare clone; do
	ops=$(sed -n "s/.*metrc: \[[0-9]*\] $st  *\([0-9][0-9]*\) .*/\1/p" /tmp/stress-ng.log)
	[ "${ops:-0}" -gt 0 ] || idle="$idle $st"
done
if [ "$src" = 0 ] && [ -z "$idle" ]; then
	echo "ok 1 stress_ng"
else
	echo "not ok 1 stress_ng # exit status $src${idle:+, no bogo ops:$idle}"
fi
sed 's/^/# /' /tmp/cgns_stress.log
if [ "$crc" = 0 ]; then echo "ok 2 cgns_stress"; else echo "not ok 2 cgns_stress # exit status $crc"; fi
rm -f /tmp/stress-ng.log /tmp/cgns_stress.log
[ "$src" = 0 ] && [ -z "$idle" ] && [ "$crc" = 0 ]
