#!/bin/sh
# "make check": the three variants of one tree, each built, booted and judged
# against its own expectations (tests/expect/VARIANT), the patched one also
# under lockdep/KASAN/kmemleak (DEBUG=1), the selftests as CI systems take
# them (gen_tar, run_kselftest.sh), then the judge's own tests and
# the maintainer gates (the tooling's own tests, checkpatch, round trip,
# mail).  Every
# step runs even when an earlier one failed, so one run shows everything
# that is wrong; the last line adds them up.
#
# usage: check.sh KVER RESULTS_DIR
set -eu
STEP=check
. "$(dirname "$0")/lib.sh"

KVER=${1:?usage: check.sh KVER RESULTS_DIR}
RESULTS=${2:?usage: check.sh KVER RESULTS_DIR}
MAKE=${MAKE:-make}
LOG=$(mktemp)
trap 'rm -f "$LOG" "$LOG.rc"' EXIT
P=0 F=0 S=0 RESULT=

add_line() {	# add up a "NAME: N passed, N failed, N skipped" line
	set -- $(echo "$1" | sed -n 's/.*: \([0-9]*\) passed, \([0-9]*\) failed\(, \([0-9]*\) skipped\)\{0,1\}$/\1 \2 \4/p')
	[ $# -ge 2 ] || return 1
	P=$((P + $1)) F=$((F + $2)) S=$((S + ${3:-0}))
}

for step in stock base patched patched-debug kselftest-tar test-judge test-tooling checkpatch roundtrip mail; do
	case "$step" in
	kselftest-tar | test-judge | test-tooling | checkpatch | roundtrip | mail) target=$step ;;
	patched-debug) target="check-variant VARIANT=patched DEBUG=1" ;;
	*) target="check-variant VARIANT=$step" ;;
	esac
	say "=== $step: make $target KVER=$KVER"
	# shellcheck disable=SC2086
	{
		$MAKE -s -C "$TOP" $target KVER="$KVER" 2>&1
		echo $? >"$LOG.rc"
	} | tee "$LOG"
	rc=$(cat "$LOG.rc")
	last=$(grep -E '^[A-Za-z0-9_.-]+: [0-9]+ passed, [0-9]+ failed' "$LOG" | tail -1 || true)
	if [ -n "$last" ] && add_line "$last"; then
		RESULT="$RESULT
  $last"
		# A step that failed although its cases did not (the guest died
		# after its last case, say) is still a failure.
		if [ "$rc" -ne 0 ] && echo "$last" | grep -q ' 0 failed'; then
			F=$((F + 1))
			RESULT="$RESULT (but the step failed: status $rc)"
		fi
	elif [ "$rc" -eq 0 ]; then
		# A gate without cases of its own counts as one.
		P=$((P + 1))
		RESULT="$RESULT
  $step: ok"
	else
		F=$((F + 1))
		RESULT="$RESULT
  $step: FAILED (see the ERROR above)"
	fi
done
echo
echo "summary of make check (KVER=$KVER):$RESULT"
echo "results per variant (JUnit XML and the KTAP document next to each):"
for v in stock base patched patched-debug; do
	echo "  $RESULTS/$v.json"
done
echo "check: $P passed, $F failed, $S skipped"
[ "$F" -eq 0 ]
