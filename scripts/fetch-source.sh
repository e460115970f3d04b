#!/bin/bash
# Make the kernel source of tree KVER available and print where it is:
# "TARBALL DEBIAN-VERSION" on one line.  ./trees names the tree's package
# and where it comes from (lib.sh: tree_field):
#   host   the host's apt sources: make setup installed it, the tarball
#          is /usr/src/PACKAGE.tar.xz;
#   SUITE  another suite of the host's Debian archive: this package alone
#          is downloaded with a private apt state (its own sources list
#          and package lists under the cache, the archive keyring of the
#          host), which verifies it as apt-get install would, and
#          unpacked with dpkg-deb into the cache (CGNS_CACHE, default
#          /var/cache/cgns).  Nothing of the host's apt configuration is
#          changed and nothing is installed.
# A lock keeps two runs from downloading at once; the unpacked package
# is published by a rename, so a cached one is always whole.
#
# usage: fetch-source.sh KVER
set -eu
STEP=${STEP:-fetch}
. "$(dirname "$0")/lib.sh"

KVER=${1:?usage: fetch-source.sh KVER}
check_kver "$KVER"
PKG=$(tree_field "$KVER" package)
SUITE=$(tree_field "$KVER" suite)

if [ "$SUITE" = host ]; then
	ver=$(dpkg-query -W -f='${Version}' "$PKG" 2>/dev/null) ||
		die "$PKG is not installed (make setup)"
	[ -r "/usr/src/$PKG.tar.xz" ] || die "/usr/src/$PKG.tar.xz missing: reinstall $PKG (make setup)"
	echo "/usr/src/$PKG.tar.xz $ver"
	exit 0
fi

CACHE=${CGNS_CACHE:-/var/cache/cgns}
dir=$CACHE/src/$PKG
mkdir -p "$CACHE/src" 2>/dev/null || die "cannot create $CACHE/src (CGNS_CACHE=dir for another place)"
exec 9>"$CACHE/src/.$PKG.lock"
flock 9
if [ ! -f "$dir/version" ]; then
	mirror=$(debian_mirror)
	keyring=/usr/share/keyrings/debian-archive-keyring.gpg
	[ -r "$keyring" ] || die "no $keyring (Debian package debian-archive-keyring)"
	apt=$CACHE/src/.apt-$SUITE
	# Whatever happens, nothing half-made stays behind.
	trap 'rm -rf "$apt" "$dir.tmp"' EXIT
	rm -rf "$apt" "$dir.tmp"
	mkdir -p "$apt/lists/partial" "$apt/archives/partial" "$dir.tmp"
	echo "deb [signed-by=$keyring] $mirror $SUITE main" >"$apt/sources.list"
	opts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/nonexistent
		-o "Dir::State::Lists=$apt/lists" -o "Dir::Cache::Archives=$apt/archives"
		-o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache= -o APT::Sandbox::User=root)
	say "downloading $PKG from $SUITE ($mirror)"
	apt-get -q "${opts[@]}" --error-on=any update >"$apt/log" 2>&1 ||
		{ tail -3 "$apt/log" >&2; die "apt-get update of $SUITE failed: is $mirror reachable?"; }
	(cd "$apt" && apt-get -q "${opts[@]}" download "$PKG") >>"$apt/log" 2>&1 ||
		{ tail -3 "$apt/log" >&2; die "apt-get download $PKG from $SUITE failed"; }
	deb=$(ls "$apt/${PKG}_"*.deb)
	dpkg-deb -x "$deb" "$dir.tmp/root" || die "dpkg-deb -x $deb failed"
	[ -r "$dir.tmp/root/usr/src/$PKG.tar.xz" ] || die "$deb has no /usr/src/$PKG.tar.xz"
	mv "$dir.tmp/root/usr/src/$PKG.tar.xz" "$dir.tmp/"
	dpkg-deb -f "$deb" Version >"$dir.tmp/version"
	rm -rf "$dir.tmp/root" "$dir"
	mv "$dir.tmp" "$dir"
	say "cached $PKG $(cat "$dir/version") in $dir"
fi
echo "$dir/$PKG.tar.xz $(cat "$dir/version")"
