#!/bin/bash
# Build a gzipped cpio initramfs: busybox-static, initramfs/init and
# run-tests, util-linux's unshare/nsenter/lsns with their shared libraries,
# the test binaries, and optionally host programs (with their libraries),
# the caller's files and command.
#
# usage: mkinitramfs.sh OUT.cpio.gz [-t TESTDIR] [-l LIST] [-b PROGRAM]... [-e EXTRADIR] [-c CMD]
#   LIST: the binaries the suite runs, in order (/tests/list)
#   PROGRAM: a host program, copied to /usr/bin (make fuzz: trinity, ...)
set -eu
STEP=initramfs
. "$(dirname "$0")/lib.sh"

OUT=${1:?usage: mkinitramfs.sh OUT.cpio.gz [-t TESTDIR] [-l LIST] [-e EXTRADIR] [-c CMD]}
shift
TESTS='' LIST='' EXTRA='' CMD='' PROGRAMS=''
while getopts t:l:b:e:c: o; do
	case "$o" in
	b) PROGRAMS="$PROGRAMS $OPTARG" ;;
	t) TESTS=$OPTARG ;;
	l) LIST=$OPTARG ;;
	e) EXTRA=$OPTARG ;;
	c) CMD=$OPTARG ;;
	*) die "bad option" ;;
	esac
done
BUSYBOX=/bin/busybox
dpkg-query -W -f='${Status}' busybox-static 2>/dev/null | grep -q ' installed' ||
	die "busybox-static is not installed (make setup)"

ROOT=$(mktemp -d "${TMPDIR:-/tmp}/cgns-initramfs.XXXXXX")
trap 'rm -rf "$ROOT"' EXIT
# mktemp made it 0700: as the guest's "/" that would lock out every
# unprivileged test process.
chmod 755 "$ROOT"
mkdir -p "$ROOT/bin" "$ROOT/usr/bin" "$ROOT/proc" "$ROOT/sys" "$ROOT/dev" \
	"$ROOT/tmp" "$ROOT/etc" "$ROOT/tests/bin" "$ROOT/root"
cp "$BUSYBOX" "$ROOT/bin/busybox"
cp "$TOP/initramfs/init" "$ROOT/init"
cp "$TOP/initramfs/run-tests" "$ROOT/bin/run-tests"
mkdir -p "$ROOT/lib/cgns"
cp "$TOP/initramfs/ktap.sh" "$ROOT/lib/cgns/ktap.sh"
printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/sh\n' >"$ROOT/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' >"$ROOT/etc/group"
# busybox sh runs its own applets before $PATH: make the shells of
# "make shell" and "make run" reach util-linux's tools, which know -C.
cat >"$ROOT/etc/profile" <<'PROFILE'
# util-linux's unshare, nsenter and lsns (cgroup namespaces: -C, -t cgroup)
# instead of busybox's applets of the same names.
unshare() { /usr/bin/unshare "$@"; }
nsenter() { /usr/bin/nsenter "$@"; }
lsns() { /usr/bin/lsns "$@"; }
PROFILE

# util-linux's tools know the cgroup namespace; busybox's applets do not.
# Copy them (and the programs asked for) with the libraries the dynamic
# loader needs.
for tool in unshare nsenter lsns setpriv $PROGRAMS; do
	path=$(command -v "$tool") || die "$tool not found (make setup installs it)"
	cp "$path" "$ROOT/usr/bin/${tool##*/}"
	ldd "$path" | sed -n 's/.*=> \(\/[^ ]*\).*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) (.*/\1/p' |
		while read -r lib; do
			mkdir -p "$ROOT$(dirname "$lib")"
			cp -L "$lib" "$ROOT$lib"
		done
done
[ -d "$TESTS" ] && cp -a "$TESTS"/. "$ROOT/tests/bin/"
[ -z "$LIST" ] || cp "$LIST" "$ROOT/tests/list"
if [ -n "$EXTRA" ]; then
	[ -d "$EXTRA" ] || die "EXTRA=$EXTRA is not a directory"
	mkdir -p "$ROOT/extra"
	cp -a "$EXTRA"/. "$ROOT/extra/"
fi
[ -z "$CMD" ] || printf '%s\n' "$CMD" >"$ROOT/cmd"

(cd "$ROOT" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) | gzip -1 >"$OUT.tmp"
mv "$OUT.tmp" "$OUT"
say "wrote $OUT ($(du -k "$OUT" | cut -f1) KiB)"
