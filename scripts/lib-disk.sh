# shellcheck shell=bash
# The disk budget of the steps that write large trees.  Sourced after lib.sh.

# Stop before a step that writes about $2 MiB under directory $1 (which
# need not exist yet) when its file system has less free, naming step $3:
# a full disk otherwise surfaces as some git or compiler error deep inside
# the step, or as a run that ends without its summary.  What the steps
# write, in MiB, rounded up from the largest tree (7.3): an extracted tree
# with its git repository and checkout, a variant's worktree with its
# kernel built, a DEBUG=1 one built, the Debian guest's disk (with the
# unpacked tree it is made from).  The environment may set them
# (test-tooling does, to see make check stop).
: "${DISK_TREE_MIB:=2800}" "${DISK_VARIANT_MIB:=2300}" "${DISK_DEBUG_MIB:=2700}"
: "${DISK_DEBIAN_MIB:=1600}"
need_space() {
	_d=$1
	until [ -d "$_d" ]; do _d=$(dirname "$_d"); done
	_free=$(free_mib "$_d")
	[ "$_free" -ge "$2" ] ||
		die "$3 needs about $2 MiB free under $1, its file system has $_free MiB: free some space (make clean, old clones) or build elsewhere (O=dir)"
}

# The MiB free on the file system of directory $1.
free_mib() {
	df -Pm "$1" | awk 'NR == 2 { print $4 }'
}

# The MiB the tree directory $1 of build/KVER/ takes, made and built:
# stock is the extracted tree, NAME-debug a DEBUG=1 variant, debian the
# Debian guest's disk.
disk_mib() {
	case "$1" in
	stock) echo "$DISK_TREE_MIB" ;;
	debian) echo "$DISK_DEBIAN_MIB" ;;
	*-debug) echo "$DISK_DEBUG_MIB" ;;
	*) echo "$DISK_VARIANT_MIB" ;;
	esac
}
