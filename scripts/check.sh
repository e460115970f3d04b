#!/bin/bash
# "make check": for each tree given as KVER, its variants built, booted and
# judged against their expectations (tests/expect/[KVER/]VARIANT; none: every
# case passes): stock, base, patched and, where the tree has a fixes
# series and a next series (lib-series.sh: series_variants), fixes and
# next; the patched kernel also under
# lockdep/KASAN/kmemleak (DEBUG=1), the selftests as CI systems take them
# (gen_tar, run_kselftest.sh), patched and stock in the Debian guest with
# systemd and container clients (check-debian, docs/debian.md); for each
# tree each of its series checked (checkpatch, kernel-doc per patch, round
# trip, mail), the cgroup namespace series, its fixes series and its next
# series; then the judge's own tests, the tooling's own tests and the
# lint of every script.
# A part of a tree instead of all of it, each with the tree's series checks:
#   KVER/reference  the patched kernel against its reference, stock, and
#                   both in the Debian guest
#   KVER/patched    the patched kernel alone
#   KVER/fixes      the fixes kernel alone (the tree must have a fixes series)
#   KVER/next       the next kernel alone (the tree must have a next series)
#   KVER/series     no kernel
# On 2 cores a kernel build takes 5-15 minutes, a DEBUG=1 build and boot
# about half an hour, and a cold make check with the default trees must
# stay under 60 minutes on the slowest machine (CI: 90; README: make
# check).  Every step runs even when an earlier one failed, so one run
# shows everything that is wrong; the last line adds them up.
#
# usage: check.sh BUILD_DIR KVER[/reference|/patched|/fixes|/next|/series]...
set -eu
STEP=check
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-disk.sh"
. "$(dirname "$0")/lib-series.sh"

usage="usage: check.sh BUILD_DIR KVER[/reference|/patched|/fixes|/next|/series]..."
BUILD=${1:?$usage}
shift
[ $# -gt 0 ] || die "$usage"
MAKE=${MAKE:-make}
LOG=$(mktemp)
trap 'rm -f "$LOG" "$LOG.rc"' EXIT
P=0 F=0 S=0 RESULT=

# The disk the steps need: what is not under BUILD yet (lib-disk.sh: need_space).
mib=0
add_mib() {	# add_mib KVER/NAME: that tree's share, if it is not there yet
	[ -e "$BUILD/$1" ] || mib=$((mib + $(disk_mib "${1#*/}")))
}

# "KVER:NAME" for each NAME after KVER ($1).
prefix() {
	_k=$1
	shift
	for _n; do printf '%s ' "$_k:$_n"; done
}

# The steps, "KVER:STEP" (or "-:STEP" for one that does not depend on a
# tree); a series check of the fixes or next series is "KVER:STEP@fixes"
# or "KVER:STEP@next".
steps='' results=''
for t in "$@"; do
	k=${t%/*}
	check_kver "$k"
	# The tree's series after the cgroup namespace series (series_variants
	# lists it first), each with a kernel of its own: fixes, next, or none.
	more=$(series_variants "$k") || exit 1
	more=${more#patched}
	add_mib "$k/stock"
	add_mib "$k/patched"
	for v in $more; do add_mib "$k/$v"; done
	case "$t" in
	"$k")
		add_mib "$k/base"
		add_mib "$k/patched-debug"
		add_mib "$k/debian"
		# shellcheck disable=SC2086 # $more: words or none
		steps="$steps $(prefix "$k" stock base patched $more patched-debug kselftest-tar debian)"
		# shellcheck disable=SC2086
		results="$results $(prefix "$k" stock base patched $more patched-debug debian-patched debian-stock)"
		;;
	*/reference)
		add_mib "$k/debian"
		steps="$steps $k:stock $k:patched $k:debian"
		results="$results $(prefix "$k" stock patched debian-patched debian-stock)"
		;;
	*/patched)
		steps="$steps $k:patched"
		results="$results $k:patched"
		;;
	*/fixes | */next)
		check_series "$k" "${t##*/}"
		steps="$steps $k:${t##*/}"
		results="$results $k:${t##*/}"
		;;
	*/series) ;;
	*) die "unknown '$t' (KVER, KVER/reference, KVER/patched, KVER/fixes, KVER/next or KVER/series)" ;;
	esac
	steps="$steps $k:checkpatch $k:kdoc $k:roundtrip $k:mail"
	for v in $more; do
		steps="$steps $k:checkpatch@$v $k:kdoc@$v $k:roundtrip@$v $k:mail@$v"
	done
	# The judge's fixtures through this tree's KTAP parser (its API changes
	# between trees); the series checks have extracted the tree.
	steps="$steps $k:test-judge"
done
steps="$steps -:test-tooling -:lint"
[ "$mib" -eq 0 ] || need_space "$BUILD" "$mib" "make check ($*)"
for s in $steps; do
	tree=${s%%:*} step=${s#*:} series='' label=''
	case "$step" in
	*@*) series=" VARIANT=${step#*@}" label="${step#*@} " step=${step%@*} ;;
	esac
	case "$step" in
	kselftest-tar | test-judge | test-tooling | lint | checkpatch | kdoc | roundtrip | mail) target=$step$series ;;
	patched-debug) target="check-variant VARIANT=patched DEBUG=1" ;;
	debian) target=check-debian ;;
	*) target="check-variant VARIANT=$step" ;;
	esac
	kv=KVER=$tree name="$tree $label$step"
	[ "$tree" != - ] || kv='' name=$step
	say "=== $name: make $target $kv"
	# The status of this step only: the left side of the pipe runs under
	# set -e, so a failing make must not end it before the status is
	# written, and no earlier step's status may be read instead.
	rm -f "$LOG.rc"
	# shellcheck disable=SC2086
	{
		src=0
		env -u KVER -u VARIANT $MAKE -s -C "$TOP" $target $kv 2>&1 || src=$?
		echo "$src" >"$LOG.rc"
	} | tee "$LOG"
	# No status file means the step could not even write it (a full
	# /tmp): a failure, and the summary still comes.
	{ rc=$(cat "$LOG.rc" 2>/dev/null) && [ -n "$rc" ]; } || rc=1
	last=$(grep -E '^[A-Za-z0-9_.-]+: [0-9]+ passed, [0-9]+ failed' "$LOG" | tail -1 || true)
	if [ -n "$last" ] && add_counts "$last"; then
		RESULT="$RESULT
  ${kv:+$tree }$label$last"
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
if [ -n "$results" ]; then
	echo "results per variant (JUnit XML and the KTAP document next to each):"
	for r in $results; do
		echo "  $BUILD/${r%%:*}/results/${r#*:}.json"
	done
fi
echo "check: $P passed, $F failed, $S skipped"
[ "$F" -eq 0 ]
