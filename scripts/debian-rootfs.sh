#!/bin/bash
# The Debian guest's root filesystem as a tarball: mmdebstrap's minbase
# variant of bookworm with the packages of tests/debian/packages, cached
# outside the clone (CGNS_CACHE, default /var/cache/cgns) under a name keyed
# on that list, so a machine builds it once, with its checksum
# (TARBALL.sha256) and the versions of its packages (TARBALL.packages).
# Prints the tarball's path.
#
# usage: debian-rootfs.sh
set -eu
STEP=rootfs
. "$(dirname "$0")/lib.sh"

SUITE=bookworm
MIRROR=$(debian_mirror)
# shellcheck disable=SC2119 # the cache itself, no directory of it
CACHE=$(cache_dir)
pkgs=$(series_names "$TOP/tests/debian/packages" | tr '\n' ',' | sed 's/,$//')
[ -n "$pkgs" ] || die "no packages in tests/debian/packages"
key=$(printf '%s\n' "$SUITE" "$MIRROR" "$pkgs" | sha1sum | cut -c1-12)
tarball=$CACHE/debian-$SUITE-$key.tar

# One run at a time builds or checks it (two cold runs would otherwise
# build the same tarball twice).
hold_lock "$tarball.lock" "building $(basename "$tarball")"

# A cached tarball is used only whole: its checksum, written before it
# was published, must still match.  A damaged one is built again.
if [ -f "$tarball" ]; then
	if (cd "$CACHE" && sha256sum --status -c "$(basename "$tarball").sha256" 2>/dev/null); then
		say "cached: $tarball"
		echo "$tarball"
		exit 0
	fi
	say "$tarball does not match its checksum: building it again"
	rm -f "$tarball" "$tarball.sha256" "$tarball.packages"
fi

command -v mmdebstrap >/dev/null || "$TOP/scripts/setup.sh" mmdebstrap
say "mmdebstrap $SUITE minbase + $pkgs (about a minute)"
log=$CACHE/debian-$SUITE-$key.log
# Written under a name of this run's (mmdebstrap picks the format from
# its ending) and published by a rename after its checksum: an
# interrupted run leaves no tarball a later one would take for whole.
tmp=$(mktemp -u --suffix=.tar "${tarball%.tar}.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
if ! mmdebstrap --variant=minbase --include="$pkgs" "$SUITE" "$tmp" "$MIRROR" >"$log" 2>&1; then
	tail -5 "$log" >&2
	die "mmdebstrap failed: is $MIRROR reachable? (log: $log)"
fi
# The versions of what the guest runs (runc, systemd, criu, ...), for the
# results of every run made with it (check-debian.sh).
tar -xOf "$tmp" ./var/lib/dpkg/status |
	awk '/^Package: / { p = $2 } /^Version: / { print p, $2 }' | sort >"$tarball.packages"
[ -s "$tarball.packages" ] || die "no package list in the root file system ($log)"
(cd "$CACHE" && sha256sum "$(basename "$tmp")" | sed "s| .*|  $(basename "$tarball")|") >"$tarball.sha256"
mv "$tmp" "$tarball"
say "built $tarball ($(du -m "$tarball" | cut -f1) MiB)"
echo "$tarball"
