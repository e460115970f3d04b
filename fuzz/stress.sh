#!/bin/sh
# make fuzz, in the guest: stress-ng's namespace stressors (unshare: every
# namespace type, cgroup included; clone) and the series' own race test
# (cgns_stress, which checks every /proc/<pid>/cgroup read exactly), each
# phase for a fixed time (cgns.seconds=: make fuzz FUZZ_SECONDS=).
# Prints a KTAP subtest of two cases:
#   stress_ng    stress-ng alone: it must exit 0 and each stressor must
#                report work (bogo ops > 0), so a stressor that cannot
#                run here fails instead of passing idle;
#   cgns_stress  cgns_stress with the same stressors beside it: both must
#                exit 0.  Their bogo ops are printed, not judged: the race
#                migrates tasks all the time, and forks wait for each
#                migration (cgroup_threadgroup_rwsem), so the clone
#                stressor may do next to nothing in this phase.
seconds=60
read -r cmdline </proc/cmdline
for a in $cmdline; do
	case "$a" in
	cgns.seconds=*) seconds=${a#*=} ;;
	esac
done
log=/tmp/stress-ng.log

stress_ng() {
	stress-ng --unshare 2 --clone 2 --clone-max 8 --timeout "${seconds}s" \
		--metrics-brief -v >"$log" 2>&1
}

# bogo ops of stressor $1 in $log ("metrc: [pid] NAME BOGO-OPS ..."), 0 if none
bogo_ops() {
	ops=$(sed -n "s/.*metrc: \[[0-9]*\] $1  *\([0-9][0-9]*\) .*/\1/p" "$log")
	echo "${ops:-0}"
}

echo "TAP version 13"
echo "1..2"

echo "# stress-ng --unshare 2 --clone 2 for ${seconds}s"
src=0
stress_ng || src=$?
sed 's/^/# /' "$log"
idle=
for st in unshare clone; do
	[ "$(bogo_ops $st)" -gt 0 ] || idle="$idle $st"
done
rc=0
if [ "$src" = 0 ] && [ -z "$idle" ]; then
	echo "ok 1 stress_ng"
else
	echo "not ok 1 stress_ng # exit status $src${idle:+, no bogo ops:$idle}"
	rc=1
fi

echo "# cgns_stress for ${seconds}s, with the same stressors beside it"
stress_ng &
sp=$!
crc=0
CGNS_STRESS_SECONDS=$seconds /tests/bin/cgns_stress >/tmp/cgns_stress.log 2>&1 || crc=$?
src=0
wait "$sp" || src=$?
sed 's/^/# /' /tmp/cgns_stress.log
echo "# beside it, bogo ops: unshare $(bogo_ops unshare), clone $(bogo_ops clone)"
if [ "$crc" = 0 ] && [ "$src" = 0 ]; then
	echo "ok 2 cgns_stress"
else
	echo "not ok 2 cgns_stress # exit status $crc, stress-ng's $src"
	sed 's/^/# /' "$log"
	rc=1
fi
rm -f "$log" /tmp/cgns_stress.log
exit "$rc"
