#!/bin/bash
# Build bzImage in TREE with ccache, printing progress instead of the whole
# compiler log.  On failure the end of the log is shown.
#
# usage: build-kernel.sh TREE
set -eu
STEP=build
. "$(dirname "$0")/lib.sh"

TREE=${1:?usage: build-kernel.sh TREE}
JOBS=${JOBS:-$(nproc)}
LOG=$TREE/.build.log

# The variants live side by side under one directory and build in-tree,
# so compiler command lines are relative and ccache hits across them.
export CCACHE_BASEDIR
CCACHE_BASEDIR=$(cd "$TREE/.." && pwd)
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
CC="gcc"
command -v ccache >/dev/null && CC="ccache gcc"

say "building $TREE (-j$JOBS, log: $LOG)"
# Not the caller's "make -s" (no CC lines to count) nor its jobserver.
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
	make -C "$TREE" -j"$JOBS" CC="$CC" bzImage >"$LOG" 2>&1 &
pid=$!
# A line every 30 s keeps a CI log alive and shows where the build is.
next=30
while kill -0 "$pid" 2>/dev/null; do
	sleep 5
	if [ $(($(date +%s) - _t0)) -ge "$next" ]; then
		say "... $(grep -c '^  CC' "$LOG" || true) objects compiled"
		next=$((next + 30))
	fi
done
if ! wait "$pid"; then
	grep -E 'error|Error' "$LOG" | head -20 >&2 || true
	tail -5 "$LOG" >&2
	die "kernel build failed in $TREE (full log: $LOG)"
fi
grep -E '(^|/)[^ ]*\.[ch]:[0-9]+:[0-9]+: warning:' "$LOG" >"$TREE/.build.warnings" || true
nw=$(wc -l <"$TREE/.build.warnings")
[ "$nw" -eq 0 ] || say "$nw compiler warning(s), see $TREE/.build.warnings"
say "built $TREE/arch/x86/boot/bzImage"
