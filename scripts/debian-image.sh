#!/bin/bash
# The Debian guest's root disk for one tree: the cached Debian rootfs
# (debian-rootfs.sh), a second copy of it as a container tree in
# /var/lib/machines/ct, the kselftests of the patched tree as CI systems
# take them (gen_tar of cgroupns, cgroup and pidfd), tests/debian's runner
# and client checks, and cgns-check.service, which runs them once systemd
# has booted (kernel command line cgns.mode=suite), writes the KTAP
# document to ttyS1 and reboots.  With cgns.mode=shell the service stays
# off and root is logged in on the console.  IMAGE.list names the programs
# the runner runs (for run-suite.sh); the image is made again only when
# one of its inputs changed.  With TEST_CORE_SRC=tree (the tree of the
# last series that adds cases to test_core.c, lib-series.sh:
# test_core_series) the
# tarball's cgroup/test_core is replaced by that tree's, built by its
# kselftest Makefile: the Debian guest runs the same test_core as the
# busybox suite.
#
# usage: [TEST_CORE_SRC=tree] debian-image.sh KVER PATCHED_TREE IMAGE CASES...
set -eu
STEP=debian-image
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-disk.sh"

KVER=${1:?usage: debian-image.sh KVER PATCHED_TREE IMAGE CASES...}
TREE=${2:?}
IMAGE=$(realpath -m "${3:?}")
shift 3
[ $# -gt 0 ] || die "no case list given"
check_kver "$KVER"
[ -d "$TREE/tools/testing/selftests/cgroupns" ] || die "$TREE has no cgroupns selftests (make prepare)"
CORE=${TEST_CORE_SRC:-}
[ -z "$CORE" ] || [ -f "$CORE/tools/testing/selftests/cgroup/test_core.c" ] ||
	die "TEST_CORE_SRC=$CORE has no tools/testing/selftests/cgroup/test_core.c (make prepare VARIANT=fixes)"
TARGETS="cgroupns cgroup pidfd"
D=$TOP/tests/debian

tarball=$("$TOP/scripts/debian-rootfs.sh")
# Which root file system the disk is made of (check-debian.sh gives its
# package versions with the results).
mkdir -p "$(dirname "$IMAGE")"
echo "$tarball" >"$IMAGE.rootfs"
list=$(guest_programs "$KVER" "$@")
want=$( {
	echo "$tarball $TARGETS $(git -C "$TREE" rev-parse HEAD)"
	cat "$tarball.sha256"
	[ -z "$CORE" ] || echo "test_core $(git -C "$CORE" rev-parse HEAD)"
	echo "$list"
	cat "$D/run" "$D/clients" "$TOP/initramfs/ktap.sh" "$0"
} | sha1sum | cut -d' ' -f1)
if [ -f "$IMAGE" ] && [ "$(cat "$IMAGE.stamp" 2>/dev/null)" = "$want" ]; then
	say "image up to date: $IMAGE"
	exit 0
fi
rm -f "$IMAGE" "$IMAGE.stamp" "$IMAGE.list"
mkdir -p "$(dirname "$IMAGE")"
need_space "$(dirname "$IMAGE")" "$(disk_mib debian)" "the Debian guest's disk"

ks=$(kselftest_tarball "$TREE" "$TARGETS" "$IMAGE.kselftest")
root=$IMAGE.root
rm -rf "$root"
mkdir -p "$root"
trap 'rm -rf "$root" "$IMAGE.tmp"' EXIT
say "unpacking $(basename "$tarball"), twice (the second: the container)"
tar -xf "$tarball" -C "$root"
mkdir -p "$root/var/lib/machines/ct"
tar -xf "$tarball" -C "$root/var/lib/machines/ct"

mkdir -p "$root/opt/cgns/kselftest" "$root/opt/cgns/bin" "$root/lib/cgns"
tar -xf "$ks" -C "$root/opt/cgns/kselftest"
if [ -n "$CORE" ]; then
	say "test_core from $CORE"
	[ -f "$root/opt/cgns/kselftest/cgroup/test_core" ] || die "the kselftest tarball has no cgroup/test_core ($IMAGE.kselftest.log)"
	rm -rf "$IMAGE.test_core"
	mkdir -p "$IMAGE.test_core"
	make -C "$CORE/tools/testing/selftests/cgroup" OUTPUT="$IMAGE.test_core" \
		"$IMAGE.test_core/test_core" >"$IMAGE.test_core.log" 2>&1 ||
		{ tail -20 "$IMAGE.test_core.log" >&2; die "building test_core of $CORE failed ($IMAGE.test_core.log)"; }
	cp "$IMAGE.test_core/test_core" "$root/opt/cgns/kselftest/cgroup/test_core"
fi
cp "$D/run" "$root/opt/cgns/run"
cp "$D/clients" "$root/opt/cgns/bin/clients"
cp "$TOP/initramfs/ktap.sh" "$root/lib/cgns/ktap.sh"
echo "$list" >"$root/opt/cgns/list"
echo cgns-debian >"$root/etc/hostname"
# No password for root: the guest is a throwaway snapshot.
sed -i 's/^root:[^:]*:/root::/' "$root/etc/shadow"

cat >"$root/etc/systemd/system/cgns-check.service" <<'UNIT'
[Unit]
Description=cgroup namespace checks (make check-debian)
ConditionKernelCommandLine=cgns.mode=suite
After=multi-user.target

[Service]
Type=oneshot
Delegate=yes
ExecStart=/bin/sh -c '/opt/cgns/run >/dev/ttyS1 2>&1; echo "CGNS-EXIT=$?" >/dev/ttyS1'
ExecStopPost=/bin/systemctl --no-block reboot

[Install]
WantedBy=multi-user.target
UNIT
mkdir -p "$root/etc/systemd/system/multi-user.target.wants"
ln -s ../cgns-check.service "$root/etc/systemd/system/multi-user.target.wants/cgns-check.service"
mkdir -p "$root/etc/systemd/system/serial-getty@ttyS0.service.d"
cat >"$root/etc/systemd/system/serial-getty@ttyS0.service.d/autologin.conf" <<'UNIT'
[Service]
ExecStart=
ExecStart=-/sbin/agetty --autologin root --keep-baud 115200,57600,38400,9600 %I $TERM
UNIT

say "mkfs.ext4 -d (the root file system)"
mkfs.ext4 -q -F -L cgns -d "$root" "$IMAGE.tmp" 3G >/dev/null || die "mkfs.ext4 failed"
mv "$IMAGE.tmp" "$IMAGE"
echo "$list" >"$IMAGE.list"
echo "$want" >"$IMAGE.stamp"
say "made $IMAGE"
