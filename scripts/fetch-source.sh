#!/bin/bash
# Make the kernel source of tree KVER available and print where it is:
# "TARBALL DEBIAN-VERSION" on one line.  ./trees names the tree's package
# and where it comes from (lib.sh: tree_field):
#   host   the host's apt sources: make setup installed it, the tarball
#          is /usr/src/PACKAGE.tar.xz;
#   SUITE  another suite of the host's Debian archive: this package alone
#          is downloaded with an apt state of its own (its own sources
#          list and package lists under the cache, the host's archive
#          keyring, none of the host's preferences or update hooks), which
#          verifies it as apt-get install would, and unpacked with
#          dpkg-deb into the cache (CGNS_CACHE, default /var/cache/cgns).
#          The host's apt configuration (proxy, validity checks) still
#          applies; none of it is changed and nothing is installed.  The
#          download runs as root, as apt-get download does for root.
# A lock per package keeps two runs from downloading it at once; the
# unpacked package is published by a rename, so a cached one is always
# whole.  A cached package is not fetched again: its version is the one
# the tree's stock commit was made from (extract-tree.sh).
#
# usage: fetch-source.sh KVER
set -eu
STEP=${STEP:-fetch}
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-disk.sh"

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

SRC=$(cache_dir src)
dir=$SRC/$PKG
hold_lock "$SRC/.$PKG.lock" "fetching $PKG"
if [ ! -f "$dir/version" ]; then
	mirror=$(debian_mirror)
	keyring=/usr/share/keyrings/debian-archive-keyring.gpg
	[ -r "$keyring" ] || die "no $keyring (Debian package debian-archive-keyring)"
	# The .deb and the tarball unpacked from it, twice over.
	need_space "$SRC" 500 "fetching $PKG"
	apt=$dir.apt
	# Whatever happens, nothing half-made stays behind.
	trap 'rm -rf "$apt" "$dir.tmp"' EXIT
	rm -rf "$apt" "$dir.tmp"
	mkdir -p "$apt/lists/partial" "$apt/archives/partial" "$dir.tmp"
	echo "deb [signed-by=$keyring] $mirror $SUITE main" >"$apt/sources.list"
	cat >"$apt/apt.conf" <<-EOF
	#clear APT::Update::Pre-Invoke;
	#clear APT::Update::Post-Invoke;
	#clear APT::Update::Post-Invoke-Success;
	Dir::Etc::Preferences "/dev/null";
	Dir::Etc::PreferencesParts "/nonexistent";
	Acquire::Languages "none";
	EOF
	opts=(-c "$apt/apt.conf" -o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/nonexistent
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
