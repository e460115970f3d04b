# shellcheck shell=sh
# The KTAP pieces of the guests' test runners (initramfs/run-tests in the
# busybox guest, tests/debian/run in the Debian one), sourced from
# /lib/cgns/ktap.sh: a program's output as a subtest (the awk program
# KTAP_SUBTEST, run as awk -v name=NAME "$KTAP_SUBTEST"; an awk of the
# runner's own, which the busybox runner tells from a stray by its
# parent), and its result line.

# The binary's output, as a subtest of this document: indented by four
# spaces, with a "# Subtest:" header after its version line, and lines
# that are not KTAP made diagnostics.  The 6.1 kselftest harness prints a
# skipped case without its name ("ok 3 # SKIP reason"); the name is put
# back from the harness's preceding "#  RUN  fixture.case ..." line, or,
# in a test without the harness that gives its test_* name as the
# message ("ok 12 # SKIP test_cgcore_lesser_ns_open"), from the message.
# shellcheck disable=SC2016,SC2034 # an awk program, for the runners
KTAP_SUBTEST='
	function emit(l) { print "    " l; fflush() }
	!started {
		started = 1
		if ($0 ~ /^K?TAP version [0-9]+$/) {
			emit($0); emit("# Subtest: " name); next
		}
		emit("KTAP version 1"); emit("# Subtest: " name)
	}
	# A diagnostic printed without its newline has the next result line
	# glued to it ("# Expect ... (4000)not ok 17 test_x"): two lines.
	/^#/ && match($0, /(not )?ok [0-9]+ [A-Za-z_][A-Za-z0-9_.]*( # .*)?$/) &&
	    RSTART > 1 && substr($0, RSTART - 1, 1) != " " {
		emit(substr($0, 1, RSTART - 1)); $0 = substr($0, RSTART)
	}
	/^#  RUN / { run = $3 }
	/^ok [0-9]+ # SKIP/ {
		# without the harness, kselftest.h tests (test_core) pass their
		# test_* function name as the message
		if (run == "" && $0 ~ /^ok [0-9]+ # SKIP test_[A-Za-z0-9_]+$/) run = $NF
		sub(/^ok [0-9]+/, "& " run); emit($0); run = ""; next
	}
	/^(not )?ok / { run = "" }
	/^(K?TAP version |1\.\.|ok |not ok |#)/ || /^[ \t]*$/ { emit($0); next }
	{ emit("# " $0) }'

# ktap_result N NAME STATUS SECONDS TIMEOUT: the result line of program
# NAME, the Nth of the document, from its exit status.
ktap_result() {
	if [ "$3" -eq 0 ]; then
		echo "ok $1 $2"
	elif [ "$3" -eq 4 ]; then
		echo "ok $1 $2 # SKIP the whole binary skipped (exit status 4)"
	elif [ "$3" -eq 137 ] && [ "$4" -ge "$5" ]; then
		echo "not ok $1 $2 # timed out: killed after ${5}s"
	elif [ "$3" -gt 128 ]; then
		echo "not ok $1 $2 # crashed: killed by signal $(($3 - 128))"
	else
		echo "not ok $1 $2 # exit status $3"
	fi
}
