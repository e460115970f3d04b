#!/bin/bash
# Boot any built kernel with the caller's files and command instead of the
# suite; the guest's output on stdout, its exit status as ours.  For people
# and for other CI systems: "make run" wraps it (make itself turns any
# failure into status 2; call this script for the exact status).
#
# usage: run.sh BZIMAGE [-e EXTRA_DIR] [-t TEST_DIR] CMD
#   EXTRA_DIR appears in the guest as /extra, TEST_DIR as /tests/bin.
set -eu
STEP=run
. "$(dirname "$0")/lib.sh"

KERNEL=${1:?usage: run.sh BZIMAGE [-e EXTRA_DIR] [-t TEST_DIR] CMD}
shift
opts=
while getopts e:t: o; do
	case "$o" in
	e) opts="$opts -e $(cd "$OPTARG" && pwd)" || die "no directory $OPTARG" ;;
	t) opts="$opts -t $(cd "$OPTARG" && pwd)" || die "no directory $OPTARG" ;;
	*) die "usage: run.sh BZIMAGE [-e EXTRA_DIR] [-t TEST_DIR] CMD" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || die "no command given"
[ -f "$KERNEL" ] || die "no kernel at $KERNEL"

f=$(mktemp "${TMPDIR:-/tmp}/cgns-run.XXXXXX")
trap 'rm -f "$f" "$f.console"' EXIT
# shellcheck disable=SC2086
"$(dirname "$0")/mkinitramfs.sh" "$f" $opts -c "$*" >/dev/null
rc=0
"$(dirname "$0")/boot.sh" "$KERNEL" "$f" "$f.console" cmd || rc=$?
exit "$rc"
