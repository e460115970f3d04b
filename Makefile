# cgroup namespaces as a patch series on Debian's kernel: the one entry point.
# "make help" lists the targets; README.md explains them.

KVER    ?= 6.1
VARIANT ?= patched
DEBUG   ?= 0
ACCEL   ?= tcg
TIMEOUT ?= 1200
O       ?= $(if $(filter 0,$(MAKELEVEL)),build,$(or $(CGNS_BUILD),build))
BUILD   := $(abspath $(O))
# The kernel's make reads O= as well: ours must not reach it (through
# MAKEFLAGS or the environment), or a kernel make that a script runs would
# build out of tree in $(O).  This Makefile's recursive calls, and only
# they, take it from CGNS_BUILD.
MAKEOVERRIDES := $(filter-out O=% O:=% O::=% O:::=%,$(MAKEOVERRIDES))
unexport O
export CGNS_BUILD := $(BUILD)
export ACCEL TIMEOUT

S        := $(CURDIR)/scripts
SUFFIX   := $(if $(filter 1,$(DEBUG)),-debug)
KDIR     := $(BUILD)/$(KVER)
TREE     := $(KDIR)/$(VARIANT)$(SUFFIX)
BZIMAGE  := $(TREE)/arch/x86/boot/bzImage
TESTOUT  := $(KDIR)/tests
RESULTS  := $(KDIR)/results
PATCHED  := $(KDIR)/patched

# The series the series targets (checkpatch, kdoc, roundtrip, refresh,
# mail, build-each, range-diff) work on: with VARIANT=fixes the tree's
# fixes series, with VARIANT=next its next series, else its cgroup
# namespace series.  scripts/lib-series.sh says where each is and where
# it starts; the scripts read the choice from CGNS_SERIES.  STREE is the
# series' tree.
SERIES     := $(if $(filter fixes next,$(VARIANT)),$(VARIANT),patched)
STREE      := $(KDIR)/$(SERIES)
SERIES_ENV := CGNS_SERIES=$(SERIES)
# Whether tree $(1) has a fixes series, a next series (lib-series.sh:
# series_variants); asked only where it is used.
has_fixes = $(filter fixes,$(shell $(S)/series-variants.sh $(1)))
has_next  = $(filter next,$(shell $(S)/series-variants.sh $(1)))
# The tree test_core is built from: that of the last series that adds
# cases to test_core.c (lib-series.sh: test_core_series), or none.
CORE_SERIES = $(shell bash -c '. $(S)/lib.sh && . $(S)/lib-series.sh && test_core_series $(KVER)')
CORE_TREE   = $(if $(CORE_SERIES),$(KDIR)/$(CORE_SERIES))

# The pipeline's steps run one after the other (each build is parallel
# inside): a suite must never boot a kernel that is still being built, and
# two steps must never prepare the same tree at once.
.NOTPARALLEL:

.PHONY: all help setup extract prepare config kernel tests suite check-variant \
	run shell kernel-path check check-debug checkpatch build-each mail refresh \
	roundtrip kdoc lint test-tooling test-judge kselftest-tar bench rebase range-diff fuzz gates clean \
	check-debian shell-debian

all: setup kernel tests suite

help:
	@echo "make [KVER=$(subst $() ,|,$(TREES))] [VARIANT=stock|base|patched|fixes|next] [DEBUG=1] [ACCEL=tcg|kvm] [O=dir]"
	@echo "  (KVER: a tree of ./trees; VARIANT=fixes: stock + the tree's fixes series, patches/fixes/KVER/;"
	@echo "   VARIANT=next: fixes + the tree's next series, patches/next/KVER/)"
	@echo "  all (default)  set up, build the kernel, boot it, run the suite"
	@echo "  check          6.1 stock and patched, check-debian; checkpatch, kdoc, roundtrip, mail, test-judge of every series; test-tooling, lint; KVER=x: x in full (every kernel, DEBUG=1, kselftest-tar)"
	@echo "  check-variant  build + suite for one KVER/VARIANT"
	@echo "  check-debug    check-variant of patched with DEBUG=1"
	@echo "  check-debian [DEBIAN_VARIANTS='patched stock']  the Debian guest: systemd, containers, criu, netfilter"
	@echo "  shell-debian   the Debian guest with the kernel of VARIANT, root on the console"
	@echo "  run CMD='..' [EXTRA=dir]  boot the kernel and run CMD instead of the suite"
	@echo "  shell [EXTRA=dir]  interactive busybox shell on the kernel"
	@echo "  kernel-path    print the bzImage path (use make -s)"
	@echo "  bench [PAIRS=2]  boot stock, patched, base (and fixes, next) alternately (icount) and print what cgroup namespaces (and the fixes, next) cost"
	@echo "  checkpatch kdoc roundtrip build-each   the series checks (docs/maintainers.md); VARIANT=fixes|next: of the fixes|next series"
	@echo "  refresh [TREE=dir]   write series and patches/ from the patched worktree (VARIANT=fixes|next: patches/fixes|next/KVER/ from the fixes|next worktree)"
	@echo "  mail [V=3] [SEND=1]  the series as mail (dry run unless SEND=1); VARIANT=fixes|next: that series, its version from its cover letter"
	@echo "  lint test-tooling test-judge   the repository's own checks (in make check)"
	@echo "  fuzz [SEED=1] [FUZZ_OPS=20000] [FUZZ_SECONDS=60]   fail-nth walk, stress-ng, trinity on stock and patched DEBUG=1"
	@echo "  rebase [FROM=6.1] KVER=6.12 [RESTART=1]   carry FROM's series to KVER (git am -3, rerere)"
	@echo "  range-diff [FROM=6.1] KVER=6.12 | range-diff OLD=<rev> [KVER=]   git range-diff of two series"
	@echo "  kselftest-tar  the series' selftests via gen_tar + run_kselftest.sh in the guest"
	@echo "  gates [SERIES_DIR=dir] [GATES_CONFIGS=..]  0-day/NIPA checks: per patch nothing new from W=1, sparse, kernel-doc, coccinelle; the final tree under 4 configs"
	@echo "  setup extract prepare config kernel tests suite   single steps"
	@echo "  clean          remove $(O)/"

setup:
	@$(S)/setup.sh

extract: setup
	@STEP=extract $(S)/extract-tree.sh $(KVER) $(KDIR)/stock

prepare: extract
	@$(S)/prepare-variant.sh $(KVER) $(VARIANT) $(TREE)

config: prepare
	@$(S)/config-kernel.sh $(KVER) $(TREE) $(DEBUG)

kernel: config
	@$(S)/build-kernel.sh $(TREE)

# The selftests are part of the series: built once, from the patched
# tree, and run on every variant.  A tree with a fixes or next series
# builds the kernel's test_core from the tree of the last of them
# (CORE_TREE: those series add cases to test_core.c), so that every
# variant runs the same, extended test_core; that tree is prepared here,
# not built.
tests: extract
	@$(S)/prepare-variant.sh $(KVER) patched $(PATCHED)
	@$(if $(CORE_SERIES),$(S)/prepare-variant.sh $(KVER) $(CORE_SERIES) $(CORE_TREE))
	@echo "[tests] building the selftests of $(PATCHED)$(if $(CORE_TREE), (test_core: $(CORE_TREE))) into $(TESTOUT)" >&2
	@$(MAKE) -s -C tests KSRC=$(PATCHED) $(if $(CORE_TREE),TEST_CORE_SRC=$(CORE_TREE)) OUT=$(TESTOUT) || \
		{ echo "ERROR [tests]: building the test binaries failed" >&2; exit 1; }

# Always the kernel and tests of this very source: never a stale one.
suite: kernel tests
	@DEBUG_SUFFIX=$(SUFFIX) $(S)/run-suite.sh $(KVER) $(VARIANT) $(TREE) $(TESTOUT) $(RESULTS) $(PATCHED)

check-variant: suite

# CMD reaches the guest as written: "$PATH" stays "$PATH".
export CGNS_CMD := $(value CMD)
run: kernel
	@$(S)/run.sh $(BZIMAGE) $(if $(EXTRA),-e $(EXTRA)) "$${CGNS_CMD:-uname -a}"

shell: kernel tests
	@$(S)/mkinitramfs.sh $(KDIR)/shell.cpio.gz $(if $(EXTRA),-e $(EXTRA)) -t $(TESTOUT)
	@$(S)/boot.sh $(BZIMAGE) $(KDIR)/shell.cpio.gz /dev/null shell

# The Debian guest (systemd as PID 1, container runtimes, criu,
# netfilter): tests/debian, docs/debian.md.  Its rootfs is cached per
# machine (CGNS_CACHE, default /var/cache/cgns).
DEBIAN_VARIANTS ?= patched stock
DEBIAN_IMAGE    := $(KDIR)/debian/disk.img
check-debian: setup
	@$(S)/setup.sh mmdebstrap e2fsprogs
	@$(MAKE) -s prepare VARIANT=patched DEBUG=0
	@$(S)/check-debian.sh $(KVER) $(KDIR) $(DEBIAN_VARIANTS)

shell-debian: kernel
	@$(S)/setup.sh mmdebstrap e2fsprogs
	@$(MAKE) -s prepare VARIANT=patched DEBUG=0
	@$(if $(CORE_SERIES),$(S)/prepare-variant.sh $(KVER) $(CORE_SERIES) $(CORE_TREE))
	@TEST_CORE_SRC=$(CORE_TREE) $(S)/debian-image.sh $(KVER) $(PATCHED) $(DEBIAN_IMAGE) $(CURDIR)/tests/cases $(CURDIR)/tests/debian/cases
	@DISK=$(DEBIAN_IMAGE) MEM=2048 $(S)/boot.sh $(BZIMAGE) - /dev/null shell

kernel-path:
	@test -f $(BZIMAGE) || { echo "ERROR: $(BZIMAGE) not built (make kernel)" >&2; exit 1; }
	@echo $(BZIMAGE)

# Not a test: "make check" neither runs nor judges it.  The three kernels,
# with the fixes and next kernels of a tree that has those series, come
# from the kernel target (a no-op when they are up to date).
PAIRS ?= 2
bench: setup
	@$(MAKE) -s kernel VARIANT=stock DEBUG=0
	@$(MAKE) -s kernel VARIANT=patched DEBUG=0
	@$(MAKE) -s kernel VARIANT=base DEBUG=0
	@$(if $(call has_fixes,$(KVER)),$(MAKE) -s kernel VARIANT=fixes DEBUG=0)
	@$(if $(call has_next,$(KVER)),$(MAKE) -s kernel VARIANT=next DEBUG=0)
	@PAIRS=$(PAIRS) $(S)/bench.sh $(KVER) $(KDIR) $(KDIR)/bench

# By default: 6.1's patched kernel against its reference (stock), both
# also in the Debian guest; the series checks (checkpatch, kdoc, round
# trip, mail) of every series of every other tree of ./trees.  A cold
# make check must stay within 60 minutes on the slowest machine (CI's
# limit is 90), which no more kernels fit.  With KVER given, that tree in
# full: all its kernels, DEBUG=1 included (check.sh).
TREES        = $(shell bash -c '. $(S)/lib.sh && known_trees' make)
SERIES_TREES = $(foreach k,$(filter-out 6.1,$(TREES)),$(if $(wildcard patches/$(k)/series patches/fixes/$(k)/series patches/next/$(k)/series),$(k)/series))
CHECK_TREES  = $(if $(filter command line environment,$(origin KVER)),$(KVER),6.1/reference $(SERIES_TREES))
check: setup
	@$(S)/check.sh $(BUILD) $(CHECK_TREES)

clean:
	rm -rf $(BUILD)

# ---- maintainer workflow (README: working on the series; docs/maintainers.md) ----
# Each series target works on the series that SERIES names (VARIANT=fixes:
# the fixes series, VARIANT=next: the next series).  V: the version mailed,
# by default the series' own (lib-series.sh: series_version, from its
# cover letter's changelog).
V        ?=
MAILDIR  := $(KDIR)/mail$(if $(filter-out patched,$(SERIES)),-$(SERIES))

checkpatch: extract
	@$(SERIES_ENV) $(S)/checkpatch.sh $(KVER) $(KDIR)/stock

# The sender's identity is checked first: SEND=1 with one that may not
# send stops here, before any tree is touched.
mail:
	@$(S)/mail.sh --gate
	@$(MAKE) -s prepare VARIANT=$(SERIES) DEBUG=0
	@$(SERIES_ENV) $(S)/mail.sh $(KVER) $(STREE) $(MAILDIR) $(V)

# TREE=dir exports another worktree (make rebase's, say).
refresh:
	@test -e $(TREE)/.git || { echo "ERROR [refresh]: no tree $(TREE) (make prepare)" >&2; exit 1; }
	@$(SERIES_ENV) $(S)/refresh.sh $(KVER) $(TREE)

# kernel-doc on what each patch touches, before and after it: nothing new
# (the fast one of make gates' checks, in make check).
kdoc:
	@$(MAKE) -s prepare VARIANT=$(SERIES) DEBUG=0
	@$(SERIES_ENV) $(S)/kdoc.sh $(KVER) $(STREE)

# The exported files must be what the tree gives back, byte for byte
# (refresh's check mode).
roundtrip:
	@$(MAKE) -s prepare VARIANT=$(SERIES) DEBUG=0
	@$(SERIES_ENV) $(S)/refresh.sh --check $(KVER) $(STREE)

# The tooling itself: identity checks, the mail gate, identity-free
# patches/, the notes round trip on a small scratch repository.
test-tooling:
	@$(S)/test-tooling.sh

# The selftests as CI systems take them: gen_tar, run_kselftest.sh in the guest.
kselftest-tar:
	@$(MAKE) -s kernel VARIANT=patched DEBUG=0
	@$(S)/kselftest-tar.sh $(PATCHED) $(PATCHED)/arch/x86/boot/bzImage $(KDIR)/kselftest-tar

# The judge's own tests: saved guest outputs and the verdict each must get.
test-judge: extract
	@$(S)/test-judge.sh $(KDIR)/stock/tools/testing/kunit

# The tree after each patch must build (git bisect needs it); README:
# bisecting a behaviour, with git bisect run.
build-each: extract
	@$(SERIES_ENV) $(S)/build-each.sh $(KVER) $(KDIR)/build-each

# shellcheck and pyflakes on every script: zero findings.
lint: setup
	@$(S)/setup.sh shellcheck pyflakes3
	@$(S)/lint.sh

# What the 0-day bot and NIPA check, per patch and on the final tree under
# four configurations, in trees of its own (build/KVER/gates*); README: make
# gates.  Needs sparse and coccinelle, which nothing else uses.
# SERIES_DIR=dir gates the series that dir/series lists (a scratch copy);
# GATES_CONFIGS='no-cgroups no-userns no-controllers debug' (the default),
# a part of it, or none.
gates: extract
	@$(S)/setup.sh sparse coccinelle
	@SERIES_DIR='$(SERIES_DIR)' $(if $(GATES_CONFIGS),GATES_CONFIGS='$(GATES_CONFIGS)') \
		$(S)/gates.sh $(KVER) $(KDIR)

# Bounded fuzzing and stress under the DEBUG=1 kernels of stock and
# patched (not in make check; docs/fuzz-and-gates.md).  SEED and FUZZ_OPS fix
# trinity's run, FUZZ_SECONDS each of the two stress phases.
SEED         ?= 1
FUZZ_OPS     ?= 20000
FUZZ_SECONDS ?= 60
fuzz: setup
	@$(S)/setup.sh trinity stress-ng
	@$(MAKE) -s kernel VARIANT=stock DEBUG=1
	@$(MAKE) -s kernel VARIANT=patched DEBUG=1
	@$(MAKE) -s tests
	@$(S)/fuzz.sh $(KVER) $(KDIR) $(SEED) $(FUZZ_OPS) $(FUZZ_SECONDS)

# Carry FROM's series to KVER's base: git am -3 patch by patch, stops at a
# conflict, "make rebase" again continues (README: "Another tree").
FROM ?= 6.1
rebase: extract
	@test "$(FROM)" != "$(KVER)" || { echo "ERROR [rebase]: FROM and KVER are both $(KVER) (make rebase KVER=6.12)" >&2; exit 1; }
	@$(MAKE) -s prepare KVER=$(FROM) VARIANT=patched DEBUG=0
	@$(S)/rebase.sh $(FROM) $(KVER) $(KDIR)/rebase $(BUILD)/$(FROM)/patched

# FROM's series against KVER's, or with OLD=<git revision> KVER's series
# then and now.
range-diff: extract
	@$(if $(OLD),,$(MAKE) -s extract KVER=$(FROM))
	@BUILD=$(BUILD) $(SERIES_ENV) $(S)/range-diff.sh $(if $(OLD),-r $(OLD),$(FROM)) $(KVER) $(RDOPTS)

# The series under lockdep, KASAN, kmemleak and friends (slow under TCG).
check-debug:
	@$(MAKE) -s check-variant VARIANT=patched DEBUG=1
