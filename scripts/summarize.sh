#!/bin/sh
# Judge one suite run: read the guest's framed KTAP output and the console
# log, compare every case with tests/expect/VARIANT and print the cases that
# deviate, a summary, and a last line "VARIANT: N passed, N failed, N skipped".
#
# A case is "passed" when its result is the expected one (an expected
# failure counts as passed and is listed as XFAIL), "skipped" when it was
# expected to skip and did, "failed" otherwise.  A binary that crashed,
# timed out or printed fewer results than its plan, and any kernel
# WARNING/BUG/KASAN/lockdep/kmemleak report on the console, are failures.
#
# usage: summarize.sh VARIANT RESULTS CONSOLE_LOG EXPECT_FILE
# exit:  0 when nothing deviates, 1 otherwise
set -eu
STEP=summarize
. "$(dirname "$0")/lib.sh"

VARIANT=${1:?usage: summarize.sh VARIANT RESULTS CONSOLE_LOG EXPECT_FILE}
RESULTS=${2:?}
CONSOLE=${3:?}
EXPECT=${4:?}
[ -f "$RESULTS" ] || die "no results file $RESULTS"
[ -f "$EXPECT" ] || die "no expectation file $EXPECT"

# Kernel reports that fail a run whatever the tests said.
splat='WARNING:|BUG:|KASAN:|UBSAN:|Oops|general protection fault|Kernel panic|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|unreferenced object|INFO: task .* blocked|rcu_.*stall|list_(add|del) corruption|refcount_t:'
grep -aE "$splat" "$CONSOLE" >"$RESULTS.splats" 2>/dev/null || true

awk -v variant="$VARIANT" -v expect="$EXPECT" -v splats="$RESULTS.splats" '
function glob2re(g,   r, i, c) {
	r = "^"
	for (i = 1; i <= length(g); i++) {
		c = substr(g, i, 1)
		if (c == "*") r = r ".*"
		else if (c == "?") r = r "."
		else if (index("\\^$.[]|()+{}/", c)) r = r "\\" c
		else r = r c
	}
	return r "$"
}
function expected(key,   i) {
	for (i = 1; i <= nrules; i++)
		if (key ~ rule_re[i]) return rule_res[i]
	return "pass"
}
function record(key, res,   want) {
	if (key in seen) key = key "#" (++dup[key])
	seen[key] = 1
	want = expected(key)
	total++
	if (res == want && res == "skip") { skipped++; return }
	if (res == want) {
		passed++
		if (res == "fail") printf "XFAIL %s (expected on %s)\n", key, variant
		return
	}
	failed++
	printf "FAIL  %s: got %s, expected %s\n", key, res, want
}
BEGIN {
	while ((getline line < expect) > 0) {
		sub(/#.*/, "", line)
		if (split(line, f, " ") < 2) continue
		if (f[2] != "pass" && f[2] != "fail" && f[2] != "skip") {
			printf "ERROR: %s: bad result \"%s\"\n", expect, f[2] > "/dev/stderr"
			bad = 1
			exit 2
		}
		nrules++
		rule_re[nrules] = glob2re(f[1])
		rule_res[nrules] = f[2]
	}
}
/^# cgns: BEGIN / { bin = $4; plan = -1; count = 0; inbin = 1; bins++; next }
/^# cgns: END / {
	rc = $5; sub(/^rc=/, "", rc); rc += 0
	if (rc >= 124) record(bin ":(exit status " rc ": crashed or timed out)", "fail")
	else if (plan < 0 && count == 0) record(bin ":(no results, exit status " rc ")", "fail")
	else if (plan >= 0 && count < plan) record(bin ":(" count " of " plan " results)", "fail")
	inbin = 0; next
}
inbin && /^1\.\.[0-9]+/ { if (plan < 0) plan = substr($1, 4) + 0; next }
inbin && /^(not )?ok [0-9]+/ {
	res = ($1 == "ok") ? "pass" : "fail"
	desc = $0
	sub(/^(not )?ok [0-9]+ ?(- )?/, "", desc)
	dir = ""
	if (match(desc, / # /)) { dir = substr(desc, RSTART + 3); desc = substr(desc, 1, RSTART - 1) }
	if (toupper(dir) ~ /^SKIP/) res = "skip"
	count++
	record(bin ":" desc, res)
	next
}
END {
	if (bad) exit 2
	n = 0
	while ((getline l < splats) > 0) { if (n < 10) print "KERNEL " l; n++ }
	record("kernel:console has no WARNING/BUG/KASAN/lockdep report", n ? "fail" : "pass")
	if (bins == 0) record("suite:(no test binary ran)", "fail")
	printf "%s: %d binaries, %d cases\n", variant, bins, total
	printf "%s: %d passed, %d failed, %d skipped\n", variant, passed, failed, skipped
	exit failed ? 1 : 0
}' "$RESULTS"
