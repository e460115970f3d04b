#!/bin/sh
# make fuzz, in the guest: trinity as nobody on the system calls that reach
# cgroup namespaces, for a fixed number of calls from a fixed seed
# (cgns.seed= and cgns.ops= on the kernel command line: make fuzz SEED=
# FUZZ_OPS=), so that a failure replays.  Trinity itself stops at the
# first taint; the runner and the host judge the console, taint and
# kmemleak.  Prints a KTAP subtest of one case.
seed=1 ops=20000
read -r cmdline </proc/cmdline
for a in $cmdline; do
	case "$a" in
	cgns.seed=*) seed=${a#*=} ;;
	cgns.ops=*) ops=${a#*=} ;;
	esac
done
echo "TAP version 13"
echo "1..1"
echo "# trinity: seed $seed, $ops calls as nobody (replay: make fuzz SEED=$seed FUZZ_OPS=$ops)"
dir=/tmp/trinity.$$
if ! { mkdir -p "$dir" && chown 65534:65534 "$dir" && cd "$dir"; }; then
	echo "not ok 1 trinity # no working directory"
	exit 1
fi
# The calls of the issue: namespaces, clone, mounts old and new, and the
# files of /proc/<pid>/ns, /proc/<pid>/cgroup and cgroupfs (trinity's file
# list walks /proc, /sys and /dev).
set --
for c in unshare setns clone clone3 mount umount fsopen fsconfig fsmount \
	fspick move_mount open_tree open openat read pread64 write getdents64 \
	mkdir rmdir; do
	set -- "$@" -c "$c"
done
# util-linux's setpriv (busybox sh would run its applet of that name).
/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
	trinity -q -l off -C 2 --disable-fds=sockets -s "$seed" -N "$ops" "$@" >"$dir.log" 2>&1
rc=$?
grep -v '^$' "$dir.log" | tail -40 | sed 's/^/# /'
# Trinity must have run its calls, not stopped at its start.
ran=$(sed -n 's/.*Ran \([0-9][0-9]*\) syscalls.*/\1/p' "$dir.log" | tail -1)
tainted=$(cat /proc/sys/kernel/tainted)
cd / && rm -rf "$dir" "$dir.log"
if [ "$rc" = 0 ] && [ "${ran:-0}" -ge "$ops" ] && [ "$tainted" = 0 ]; then
	echo "ok 1 trinity"
else
	echo "not ok 1 trinity # exit status $rc, ${ran:-no} calls run, taint $tainted: replay with make fuzz SEED=$seed FUZZ_OPS=$ops"
	exit 1
fi
