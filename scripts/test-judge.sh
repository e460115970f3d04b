#!/bin/bash
# The judge's own tests: saved guest outputs in tests/judge/, each with the
# verdict the judge must give.  No kernel is booted.
#
#   NAME.want     first line "pass", "fail" or "error" (bad input: the
#                 judge exits 2 and writes no results), then regexes
#                 (grep -E) that must each match a line of its output
#   NAME.ktap     the guest's KTAP document (default: good.ktap)
#   NAME.console  the console log (default: clean.console)
#   NAME.args     extra judge options (--debug, another --console);
#                 --no-expect: judge without tests/judge/expect (a variant
#                 with no expectation file)
# All fixtures share tests/judge/cases and, unless --no-expect,
# tests/judge/expect.
#
# usage: test-judge.sh KUNIT_DIR
set -eu
STEP=test-judge
. "$(dirname "$0")/lib.sh"

KUNIT=${1:?usage: test-judge.sh KUNIT_DIR}
D=$TOP/tests/judge
[ -f "$KUNIT/kunit_parser.py" ] || die "no kunit_parser.py in $KUNIT (make extract)"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

pass=0 fail=0
for want in "$D"/*.want; do
	n=$(basename "$want" .want)
	ktap=$D/$n.ktap console=$D/$n.console
	[ -f "$ktap" ] || ktap=$D/good.ktap
	[ -f "$console" ] || console=$D/clean.console
	args=()
	# NAME.args: extra judge arguments; @D@ is this directory.
	[ ! -f "$D/$n.args" ] || read -r -a args < <(sed "s|@D@|$D|g" "$D/$n.args")
	expect=(--expect "$D/expect") rest=()
	for a in ${args[@]+"${args[@]}"}; do
		if [ "$a" = --no-expect ]; then expect=(); else rest+=("$a"); fi
	done
	rc=0
	python3 "$TOP/scripts/judge.py" --variant fixture --ktap "$ktap" \
		--console "$console" --cases "$D/cases" ${expect[@]+"${expect[@]}"} \
		--kunit "$KUNIT" --json "$OUT/$n.json" --junit "$OUT/$n.xml" \
		${rest[@]+"${rest[@]}"} >"$OUT/$n.out" 2>&1 || rc=$?
	verdict=$(head -1 "$want")
	problem=
	case "$verdict:$rc" in
	pass:0 | fail:1 | error:2) ;;
	*) problem="verdict: want $verdict, judge exited $rc" ;;
	esac
	while read -r re; do
		grep -Eq -- "$re" "$OUT/$n.out" || problem="${problem:+$problem; }no line matches /$re/"
	done < <(tail -n +2 "$want")
	if [ "$verdict" = error ]; then
		[ ! -e "$OUT/$n.json" ] || problem="${problem:+$problem; }results.json written on bad input"
	else
		python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$OUT/$n.json" 2>/dev/null ||
			problem="${problem:+$problem; }results.json is not valid JSON"
		python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$OUT/$n.xml" 2>/dev/null ||
			problem="${problem:+$problem; }JUnit XML is not valid XML"
	fi
	if [ -z "$problem" ]; then
		pass=$((pass + 1))
		echo "ok   $n ($verdict)"
	else
		fail=$((fail + 1))
		echo "FAIL $n: $problem"
		sed 's/^/     | /' "$OUT/$n.out"
	fi
done
echo "test-judge: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
