#!/bin/bash
# The Debian guest's root filesystem as a tarball: mmdebstrap's minbase
# variant of bookworm with the packages of tests/debian/packages, cached
# outside the clone (CGNS_CACHE, default /var/cache/cgns) under a name keyed
# on that list, so a machine builds it once.  Prints the tarball's path.
#
# usage: debian-rootfs.sh
set -eu
STEP=rootfs
. "$(dirname "$0")/lib.sh"

SUITE=bookworm
MIRROR=$(debian_mirror)
CACHE=${CGNS_CACHE:-/var/cache/cgns}
pkgs=$(series_names "$TOP/tests/debian/packages" | tr '\n' ',' | sed 's/,$//')
[ -n "$pkgs" ] || die "no packages in tests/debian/packages"
key=$(printf '%s\n' "$SUITE" "$MIRROR" "$pkgs" | sha1sum | cut -c1-12)
tarball=$CACHE/debian-$SUITE-$key.tar
if [ -f "$tarball" ]; then
	say "cached: $tarball"
	echo "$tarball"
	exit 0
fi

command -v mmdebstrap >/dev/null || "$TOP/scripts/setup.sh" mmdebstrap
mkdir -p "$CACHE"
say "mmdebstrap $SUITE minbase + $pkgs (about a minute)"
log=$CACHE/debian-$SUITE-$key.log
# Written under a temporary name (mmdebstrap picks the format from its
# ending): an interrupted run leaves no tarball a later one would take for
# complete.
tmp=${tarball%.tar}.tmp.tar
if ! mmdebstrap --variant=minbase --include="$pkgs" "$SUITE" "$tmp" "$MIRROR" >"$log" 2>&1; then
	rm -rf "$tmp"
	tail -5 "$log" >&2
	die "mmdebstrap failed: is $MIRROR reachable? (log: $log)"
fi
mv "$tmp" "$tarball"
say "built $tarball ($(du -m "$tarball" | cut -f1) MiB)"
echo "$tarball"
