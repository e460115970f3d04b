#!/bin/sh
# "make check": for each tree, its variants built, booted and judged against
# their expectations (tests/expect/[KVER/]VARIANT) and its series checked
# (checkpatch, round trip, mail); then the judge's own tests and the
# tooling's own tests.  A tree given as KVER gets the full matrix: also the
# patched kernel under lockdep/KASAN/kmemleak (DEBUG=1) and the selftests
# as CI systems take them (gen_tar, run_kselftest.sh).  KVER/quick leaves
# those two out (README: what make check runs, and why).  Every step runs
# even when an earlier one failed, so one run shows everything that is
# wrong; the last line adds them up.
#
# usage: check.sh BUILD_DIR KVER[/quick]...
set -eu
STEP=check
. "$(dirname "$0")/lib.sh"

BUILD=${1:?usage: check.sh BUILD_DIR KVER[/quick]...}
shift
[ $# -gt 0 ] || die "usage: check.sh BUILD_DIR KVER[/quick]..."
MAKE=${MAKE:-make}
LOG=$(mktemp)
trap 'rm -f "$LOG" "$LOG.rc"' EXIT
P=0 F=0 S=0 RESULT=

add_line() {	# add up a "NAME: N passed, N failed, N skipped" line
	set -- $(echo "$1" | sed -n 's/.*: \([0-9]*\) passed, \([0-9]*\) failed\(, \([0-9]*\) skipped\)\{0,1\}$/\1 \2 \4/p')
	[ $# -ge 2 ] || return 1
	P=$((P + $1)) F=$((F + $2)) S=$((S + ${3:-0}))
}

# The steps, "KVER:STEP" (or "-:STEP" for one that does not depend on a tree).
steps= results=
for t in "$@"; do
	k=${t%/quick}
	check_kver "$k"
	steps="$steps $k:stock $k:base $k:patched"
	[ "$t" != "$k" ] || steps="$steps $k:patched-debug $k:kselftest-tar"
	steps="$steps $k:checkpatch $k:roundtrip $k:mail"
	results="$results $k:stock $k:base $k:patched"
	[ "$t" != "$k" ] || results="$results $k:patched-debug"
done
steps="$steps -:test-judge -:test-tooling"
for s in $steps; do
	tree=${s%%:*} step=${s#*:}
	case "$step" in
	kselftest-tar | test-judge | test-tooling | checkpatch | roundtrip | mail) target=$step ;;
	patched-debug) target="check-variant VARIANT=patched DEBUG=1" ;;
	*) target="check-variant VARIANT=$step" ;;
	esac
	kv=KVER=$tree name="$tree $step"
	[ "$tree" != - ] || kv= name=$step
	say "=== $name: make $target $kv"
	# shellcheck disable=SC2086
	{
		env -u KVER $MAKE -s -C "$TOP" $target $kv 2>&1
		echo $? >"$LOG.rc"
	} | tee "$LOG"
	rc=$(cat "$LOG.rc")
	last=$(grep -E '^[A-Za-z0-9_.-]+: [0-9]+ passed, [0-9]+ failed' "$LOG" | tail -1 || true)
	if [ -n "$last" ] && add_line "$last"; then
		RESULT="$RESULT
  ${kv:+$tree }$last"
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
  $name: ok"
	else
		F=$((F + 1))
		RESULT="$RESULT
  $name: FAILED (see the ERROR above)"
	fi
done
echo
echo "summary of make check ($*):$RESULT"
echo "results per variant (JUnit XML and the KTAP document next to each):"
for r in $results; do
	echo "  $BUILD/${r%%:*}/results/${r#*:}.json"
done
echo "check: $P passed, $F failed, $S skipped"
[ "$F" -eq 0 ]
