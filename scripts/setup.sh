#!/bin/bash
# Install the Debian packages the pipeline needs, or print the exact command
# when we are not root.  Safe to run again: it only acts on what is missing.
# Package names given as arguments are added: those only one target needs
# (make gates: sparse coccinelle; make lint: shellcheck pyflakes3),
# installed the same way.
#
# usage: setup.sh [PACKAGE...]
set -eu
STEP=setup
. "$(dirname "$0")/lib.sh"

# The kernel sources of the trees that come from the host's apt sources
# (./trees; the others are fetched by make extract: fetch-source.sh).
HOST_SOURCES=
for k in $(known_trees); do
	suite=$(tree_field "$k" suite)
	[ "$suite" != host ] || HOST_SOURCES="$HOST_SOURCES $(tree_field "$k" package)"
done
PKGS="$HOST_SOURCES build-essential gcc make bc flex bison
libelf-dev libssl-dev qemu-system-x86 busybox-static cpio ccache util-linux
kmod xz-utils git perl python3 gawk gnuplot-nox rsync debian-archive-keyring $*"

installed() {
	case "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true)" in
	*" installed") return 0 ;;
	esac
	return 1
}

missing=
for p in $PKGS; do
	installed "$p" || missing="$missing $p"
done
if [ -z "$missing" ]; then
	say "all packages present"
	exit 0
fi

cmd="apt-get install -y --no-install-recommends$missing"
if [ "$(id -u)" -ne 0 ]; then
	die "missing packages:$missing
run as root:  apt-get update && $cmd"
fi
say "installing:$missing"
export DEBIAN_FRONTEND=noninteractive
# An old or empty package list makes apt fail to find linux-source-*.
apt-get update -q >/dev/null || die "apt-get update failed"
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing >/dev/null ||
	die "apt-get install failed:$missing"
for p in $missing; do
	installed "$p" || die "$p is still not installed after apt-get install"
done
say "installed"
