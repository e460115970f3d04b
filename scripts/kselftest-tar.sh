#!/bin/bash
# The series' selftests as a CI system such as tuxrun or LKFT takes them:
# "make -C tools/testing/selftests TARGETS=cgroupns gen_tar" in the patched
# tree, the tarball unpacked in the guest and run with its own
# run_kselftest.sh on the patched kernel.  Passes when every test program of
# the collection reports "ok" there.
#
# usage: kselftest-tar.sh TREE BZIMAGE OUTDIR
set -euo pipefail
STEP=kselftest-tar
. "$(dirname "$0")/lib.sh"

TREE=${1:?usage: kselftest-tar.sh TREE BZIMAGE OUTDIR}
KERNEL=${2:?}
OUT=${3:?}
SELFTESTS=$TREE/tools/testing/selftests
[ -f "$SELFTESTS/cgroupns/Makefile" ] || die "$TREE has no tools/testing/selftests/cgroupns (make prepare)"

rm -rf "$OUT"
mkdir -p "$OUT/guest"
tarball=$(kselftest_tarball "$TREE" cgroupns "$OUT/build")
tar -xf "$tarball" -C "$OUT/guest"
list=$(sed -n 's/^cgroupns://p' "$OUT/guest/kselftest-list.txt")
[ -n "$list" ] || die "the tarball's kselftest-list.txt has no cgroupns test"
say "$(echo "$list" | wc -l) programs in $(basename "$tarball"); running them in the guest"

rc=0
"$(dirname "$0")/run.sh" "$KERNEL" -e "$OUT/guest" \
	'cd /extra && ./run_kselftest.sh -c cgroupns' >"$OUT/run.log" || rc=$?
grep -E '^(not )?ok [0-9]+ selftests: ' "$OUT/run.log" | sed 's/^/  | /' || true
pass=0 fail=0
for t in $list; do
	if grep -qE "^ok [0-9]+ selftests: cgroupns: $t\$" "$OUT/run.log"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL  cgroupns:$t: no \"ok\" from run_kselftest.sh"
	fi
done
[ "$rc" -eq 0 ] || { fail=$((fail + 1)); echo "FAIL  run_kselftest.sh: the guest exited with status $rc"; }
say "log: $OUT/run.log"
echo "kselftest-tar: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
