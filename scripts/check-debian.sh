#!/bin/bash
# "make check-debian": the suite where users run cgroup namespaces.  The
# Debian guest's disk (debian-image.sh) booted with each VARIANT's kernel,
# systemd as PID 1, and judged like the busybox suite (run-suite.sh): the
# cases of tests/cases (the kselftests, here through run_kselftest.sh
# under systemd's cgroup2 mount) and of tests/debian/cases (the kernel's
# selftests/cgroup programs the config supports, the container clients,
# netfilter), expectations from tests/debian/expect, then tests/expect.
# Results: RESULTS/debian-VARIANT.*, with the versions of the guest's
# packages as RESULTS/debian-VARIANT.packages (debian-rootfs.sh).  The last
# line adds the variants up.
#
# usage: check-debian.sh KVER KDIR VARIANT...
#   KDIR: build/KVER (its patched tree gives the selftests; the tree of
#         lib-series.sh's test_core_series, if any, test_core: debian-image.sh)
# env: DEBIAN_TIMEOUT  seconds a guest run may take (default 2400)
set -eu
STEP=check-debian
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"

KVER=${1:?usage: check-debian.sh KVER KDIR VARIANT...}
KDIR=${2:?}
shift 2
variants=("$@")
[ ${#variants[@]} -gt 0 ] || die "no variant given"
MAKE=${MAKE:-make}
CASES="$TOP/tests/cases $TOP/tests/debian/cases"
IMAGE=$KDIR/debian/disk.img

for v in "${variants[@]}"; do check_variant "$v"; done
core=
series=$(test_core_series "$KVER")
if [ -n "$series" ]; then
	"$TOP/scripts/prepare-variant.sh" "$KVER" "$series" "$KDIR/$series"
	core=$KDIR/$series
fi
# shellcheck disable=SC2086 # CASES: file names
TEST_CORE_SRC=$core "$TOP/scripts/debian-image.sh" "$KVER" "$KDIR/patched" "$IMAGE" $CASES

P=0 F=0 S=0
for v in "${variants[@]}"; do
	# shellcheck disable=SC2086 # MAKE may carry options
	env -u KVER $MAKE -s -C "$TOP" kernel KVER="$KVER" VARIANT="$v" DEBUG=0 ||
		die "building the $v kernel failed"
	rc=0
	CASES=$CASES EXPECT_DIRS="$TOP/tests/debian/expect $TOP/tests/expect" DISK=$IMAGE \
		PREFIX=debian- MEM=2048 TIMEOUT=${DEBIAN_TIMEOUT:-2400} \
		"$TOP/scripts/run-suite.sh" "$KVER" "$v" "$KDIR/$v" "$KDIR/tests" \
		"$KDIR/results" "$KDIR/patched" || rc=$?
	cp "$(cat "$IMAGE.rootfs")".packages "$KDIR/results/debian-$v.packages"
	line=$(tail -1 "$KDIR/results/debian-$v.summary" 2>/dev/null || true)
	f0=$F
	if add_counts "$line"; then
		# A run that failed although none of its cases did (the
		# guest died after its last one, say) is one failure more.
		[ "$rc" -eq 0 ] || [ "$F" -gt "$f0" ] || F=$((F + 1))
	else
		F=$((F + 1))
		say "no judgement for $v (see the ERROR above)"
	fi
done
echo "check-debian: $P passed, $F failed, $S skipped"
[ "$F" -eq 0 ]
