#!/bin/bash
# The checks the 0-day bot and NIPA run on a series, for KVER's series:
#
# 1. Per patch, against the tree before it (walk_series, make build-each's
#    walk, in build/KVER/gates: the base fixture, then one patch after the
#    other),
#    nothing new from
#    - W=1: gcc on F, the .c files of the series that this config builds
#      (the project's, configs/base.config: one the series adds counts when
#      its Makefile line is on), "make W=1 C=1 <F's objects>" (objtool's
#      warnings on an object count as its own);
#    - sparse: the same runs (C=1: on every object gcc compiles again);
#    - kernel-doc (-none, -Wall where the tree's kernel-doc has it) on the
#      .c and .h files the patch touches: nothing new, as 0-day reports it
#      (kernel/fork.c, cpuset.c and cgroup.h carry upstream's warnings);
#      kernel-doc that exits non-zero (a crash: -none exits 0) stops the run;
#    - coccinelle: every scripts/coccinelle/**/*.cocci in report mode, run
#      by spatch as scripts/coccicheck runs it (its Options: and Requires:
#      lines, kbuild's include flags, --dir: each file alone), on the .c
#      files the patch touches (the selftests' too), before and after it.
#      Only those files: "make coccicheck MODE=report M=kernel/cgroup"
#      takes minutes, so before and after each patch it would take hours
#      for one directory of the series, and the stock script stops at the
#      first cocci file with an OCaml script (below).  One spatch run costs
#      about a second even on an empty file, so the 70 cocci files on one
#      file alone take a minute or two.
#      After the walk, every version of those files (from the walk's
#      commits, with the headers they include from their directory) goes
#      through one spatch --dir run per cocci file; results are kept by
#      content (file, local headers, cocci files, spatch, include flags),
#      so a warm run reuses them.  A spatch run that fails fails the gate
#      of every patch whose files it had, and is not cached.  Cocci files
#      with OCaml scripts need an OCaml compiler (not installed, 280 MB)
#      and are skipped, named in the summary.
#    "New" compares multisets of "file: message", line numbers left out, so
#    a warning that only moved is not new.  gcc's warnings are kept per
#    object: an object that make does not compile again keeps those of the
#    state before (its inputs did not change: make would compile it).
# 2. The final tree (all patches) built with four configurations, out of
#    tree (sources: the worktree build/KVER/gates-src at the gates tree's
#    HEAD, objects: build/KVER/gates-cfg/NAME): no-cgroups (CGROUPS=n),
#    no-userns (USER_NS=n), no-controllers (CGROUPS=y, no controller of
#    include/linux/cgroup_subsys.h and no CGROUP_BPF), debug (config-kernel.sh
#    TREE 1); each is tinyconfig + configs/base.config, then the options
#    forced off and checked to be off, before and after the build.  A failed
#    build fails.  Warnings: the compiler's, and those with no source
#    position (linker, modpost, objtool on vmlinux.o, Kconfig's unmet
#    dependencies).  Pass: none, or none that the base tree built the same
#    way (build/KVER/gates-cfg/base-src, NAME.base, only built then) does
#    not have too.
#
# One line per patch, "ok   NN subject" or "FAIL NN subject: ..." and the
# new warnings indented, one per configuration, and "gates: N passed, N
# failed".  The compiler and ccache are called as build-kernel.sh calls them.
#
# usage: gates.sh KVER KDIR        (KDIR: build/KVER)
#   SERIES_DIR=dir      gate the series dir/series lists (a scratch copy)
#   GATES_CONFIGS=".."  the configurations of step 2 (default: all; none: none)
set -eu
STEP=gates
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
. "$(dirname "$0")/lib-check.sh"

usage="usage: gates.sh KVER KDIR"
KVER=${1:?$usage}
KDIR=${2:?$usage}
check_kver "$KVER"
KDIR=$(cd "$KDIR" && pwd)
T=$KDIR/gates
SRC=$KDIR/gates-src
CFG=$KDIR/gates-cfg
RUN=$T/.gates/run
CACHE=$T/.gates/cache
JOBS=${JOBS:-$(nproc)}
ALL_CONFIGS="no-cgroups no-userns no-controllers debug"

# ---- build-kernel.sh's way of calling make, per object ------------------
# The same compiler and ccache setting as build-kernel.sh (else every object
# would be compiled again for a changed command line); -Otarget prints each
# target's output in one piece, so a warning belongs to the object whose
# "CC" line comes before it.
export CCACHE_BASEDIR="$KDIR"
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
CC="gcc"
command -v ccache >/dev/null && CC="ccache gcc"
kmake() {
	_dir=$1
	shift
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
		make -C "$_dir" -j"$JOBS" -k -Otarget CC="$CC" "$@"
}

# Split the output of kmake ($1) into the warnings of each object compiled:
# DIR ($2)/OBJECT.gcc (the compiler's) and OBJECT.sparse (after its CHECK
# line), "/" in OBJECT written "%".  A warning is "file:line:col: warning:"
# (or error:); sparse's continuation lines are joined to it with " | ".
# kernel-doc's lines (W=1 runs it, no column) are the kernel-doc gate's.
split_log() {
	awk -v dir="$2" '
	function flush() { if (rec != "") print rec > file; rec = "" }
	function stop() { flush(); if (cur != "") close(file); cur = "" }
	function start(o, m,   f) {
		f = o; gsub("/", "%", f); file = dir "/" f "." m; cur = o
		printf "" > file
	}
	/^  [A-Z][A-Z0-9_]* +[^ ]/ {
		stop()
		o = $2; if (o == "[M]") o = $3
		if ($1 == "CC" && o ~ /\.o$/) start(o, "gcc")
		else if ($1 == "CHECK" && o ~ /\.c$/) { sub(/\.c$/, ".o", o); start(o, "sparse") }
		next
	}
	cur == "" { next }
	/^[^ :]+:[0-9]+:[0-9]+: (warning|error|fatal error): / {
		flush(); rec = $0; sub(/^\.\//, "", rec); next
	}
	# objtool on the object: "dir/file.o: warning: objtool: fn+0x12: ..."
	/^[^ :]+\.o: warning: objtool: / {
		flush(); rec = $0; gsub(/\+0x[0-9a-f]+/, "", rec); print rec > file; rec = ""; next
	}
	/^[^ :]+:[0-9]+:[0-9]+:    / && rec != "" {
		s = $0; sub(/^[^ :]+:[0-9]+:[0-9]+: +/, "", s); rec = rec " | " s; next
	}
	{ flush() }
	END { stop() }' "$1"
}

# The files patch $1 touches (new names), one a line.
touched() {
	sed -n 's|^diff --git a/[^ ]* b/||p' "$1"
}

flat() {
	printf '%s\n' "$1" | sed 's|/|%|g'
}

# Whether the config of T builds FILE.c ($1), a file the base tree does not
# have: its line in the directory's Makefile is obj-y or obj-$(CONFIG_X)
# with X=y, and the directory is built (it has objects).
kbuild_wants() {
	_d=$(dirname "$1") _o=$(basename "$1" .c).o
	ls "$T/$_d/"*.o >/dev/null 2>&1 || return 1
	_l=$(grep -E "^[^#]*[[:space:]=]$_o([[:space:]]|\\\\|\$)" "$T/$_d/Makefile" | head -1)
	# shellcheck disable=SC2016 # obj-$(CONFIG_ is Makefile text
	case "$_l" in
	obj-y*) return 0 ;;
	*'obj-$(CONFIG_'*)
		_c=${_l#*obj-\$(}
		_c=${_c%%)*}
		grep -q "^$_c=y" "$T/.config"
		;;
	*) return 1 ;;
	esac
}

# ---- step 1: one state of the walk ---------------------------------------
# Set up at the base state: the files of F, the tools' options.
setup_walk() {
	rm -rf "$RUN"
	mkdir -p "$RUN" "$CACHE/cocci"
	git -C "$T" rev-parse HEAD >"$RUN/base-commit"
	printf '%s\n' "$WALK_SERIES" >"$RUN/series"
	: >"$RUN/f-built"
	: >"$RUN/f-added"
	for p in $WALK_SERIES; do touched "$p"; done | sort -u | grep '\.c$' | grep -v '^tools/' |
		while read -r f; do
			if [ ! -f "$T/$f" ]; then
				echo "$f" >>"$RUN/f-added"
			elif [ -f "$T/${f%.c}.o" ]; then
				echo "$f" >>"$RUN/f-built"
			else
				say "not built by this config, no W=1/sparse: $f"
			fi
		done
	# W=1 compiles all of F at the base: the "before" of patch 1 (and no
	# object of a file the series adds is left from an earlier walk).
	cat "$RUN/f-built" "$RUN/f-added" | while read -r f; do rm -f "$T/${f%.c}.o"; done

	kdoc_opts "$T" >"$RUN/kdoc-opts"

	# The cocci files as coccicheck takes them; it cannot run those with
	# OCaml scripts without an OCaml compiler (not installed: 280 MB).
	have_ocaml=0
	command -v ocamlfind >/dev/null && command -v ocamlopt >/dev/null && have_ocaml=1
	ver=$(spatch --version | head -1 | awk '{print $3}')
	: >"$RUN/cocci-list"
	: >"$RUN/cocci-skipped"
	for c in $(cd "$T" && find scripts/coccinelle -name '*.cocci' -type f | sort); do
		req=$(grep "Requires:" "$T/$c" | cut -d':' -f2 | sed "s| ||") || true
		if [ -n "$req" ] && ! { echo "$req"; echo "$ver"; } | sort -CV; then
			say "skipped (needs coccinelle $req): $c"
			echo "$c" >>"$RUN/cocci-skipped"
		elif [ $have_ocaml = 0 ] && grep -q '^@.*\(script\|initialize\|finalize\):ocaml' "$T/$c"; then
			say "skipped (OCaml script, no ocamlopt): $c"
			echo "$c" >>"$RUN/cocci-skipped"
		else
			echo "$c" >>"$RUN/cocci-list"
		fi
	done
}

# kbuild's include flags, the way scripts/coccicheck turns them into
# spatch's (absolute: spatch runs elsewhere), and what the cocci results
# depend on besides the file: spatch, those flags, the cocci files.
cocci_includes() {
	_obj=$(head -1 "$D/objs")
	[ -n "$_obj" ] || _obj=init/main.o
	_inc=$(kmake "$T" W=1 C=2 CHECK='printenv LINUXINCLUDE; :' "$_obj" 2>&1 |
		grep -m1 '^-I') || die "cannot read kbuild's LINUXINCLUDE"
	printf '%s\n' "$_inc" | sed -e 's/-I/-I /g' -e 's/ -include/ --include/g' \
		-e "s| \./| $T/|g" >"$RUN/cocci-inc"
	{ spatch --version | head -1; cat "$RUN/cocci-inc"
		while read -r c; do echo "$c"; cat "$T/$c"; done <"$RUN/cocci-list"; } |
		sha1sum | cut -d' ' -f1 >"$RUN/cocci-id"
}

# The W=1 + sparse run of this state: F's objects, per-object warnings
# carried over from the state before for objects make leaves alone.
build_state() {
	objs=
	while read -r f; do
		[ ! -f "$T/$f" ] || objs="$objs ${f%.c}.o"
	done <"$RUN/f-built"
	mapfile -t added <"$RUN/f-added"
	for f in "${added[@]}"; do
		[ -f "$T/$f" ] || continue
		if kbuild_wants "$f"; then
			objs="$objs ${f%.c}.o"
		elif [ ! -f "$RUN/said-$(flat "$f")" ]; then
			say "not built by this config, no W=1/sparse: $f"
			: >"$RUN/said-$(flat "$f")"
		fi
	done
	echo "$objs" | tr ' ' '\n' | grep . >"$D/objs" || true
	# No object: no make (without a target it would build everything).
	if [ -n "$objs" ]; then
		# shellcheck disable=SC2086
		kmake "$T" W=1 C=1 $objs >"$D/build.log" 2>&1 || : >"$D/build.failed"
	else
		: >"$D/build.log"
	fi
	split_log "$D/build.log" "$D/obj"
	: >"$D/gcc"
	: >"$D/sparse"
	for o in $objs; do
		fo=$D/obj/$(flat "$o")
		[ ! -f "$fo.gcc" ] || cat "$fo.gcc" >>"$D/gcc"
		[ ! -f "$fo.sparse" ] || cat "$fo.sparse" >>"$D/sparse"
	done
}

kdoc_file() {
	kdoc_warnings "$T/scripts/kernel-doc" "$(cat "$RUN/kdoc-opts")" "$T" "$1"
}

# Seconds since $1, added to the time of part $2 (for the summary).
took() {
	_s=$(($(date +%s) - $1))
	echo "$_s" >>"$RUN/time.$2"
	echo "$_s"
}

state() {
	N=$1
	t=$(date +%s)
	if [ "$N" -eq 0 ]; then
		setup_walk
		echo $((t - ${GATES_T0:-$t})) >"$RUN/time.prepare"
	fi
	D=$RUN/$N
	rm -rf "$D"
	mkdir -p "$D/obj" "$D/kdoc"
	git -C "$T" rev-parse HEAD >"$D/commit"
	[ "$N" -eq 0 ] || cp -R "$RUN/$((N - 1))/obj/." "$D/obj/"
	build_state
	[ "$N" -ne 0 ] || cocci_includes
	tb=$(took "$t" build)

	# kernel-doc: this state is the "after" of patch N and the "before"
	# of patch N+1.
	total=$(printf '%s\n' "$WALK_SERIES" | grep -c .)
	files=$({
		[ "$N" -eq 0 ] || touched "$(printf '%s\n' "$WALK_SERIES" | sed -n "${N}p")"
		[ "$N" -ge "$total" ] || touched "$(printf '%s\n' "$WALK_SERIES" | sed -n "$((N + 1))p")"
	} | sort -u)
	t=$(date +%s)
	for f in $files; do
		case "$f" in
		*.c | *.h) [ ! -f "$T/$f" ] || kdoc_file "$f" >"$D/kdoc/$(flat "$f")" ;;
		esac
	done
	tk=$(took "$t" kdoc)
	say "state $N: W=1+sparse ${tb}s ($(grep -c . "$D/objs") objects," \
		"$(grep -c '^  CC ' "$D/build.log") compiled), kernel-doc ${tk}s"
}

# ---- coccinelle, after the walk ------------------------------------------
# The key of the cocci results of file $2 at commit $1: its content, that
# of the headers it includes from its directory (#include "..."), spatch,
# the include flags and the cocci files.
cocci_key() {
	{ cat "$RUN/cocci-id"; echo "$2"; git -C "$T" show "$1:$2"
		for h in $(local_headers "$1" "$2"); do git -C "$T" show "$1:$h"; done
	} | sha1sum | cut -d' ' -f1
}

# The headers that file $2 at commit $1 includes from its own directory.
local_headers() {
	git -C "$T" show "$1:$2" |
		sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"/]*\)".*/\1/p' |
		while read -r _h; do
			! git -C "$T" cat-file -e "$1:$(dirname "$2")/$_h" 2>/dev/null ||
				echo "$(dirname "$2")/$_h"
		done
}

# Coccinelle on every version of the touched .c files that the walk went
# through ("before" and "after" of each patch): each version not yet in the
# cache is written to BATCH/KEY/PATH (with its local headers), then each
# cocci file runs once over BATCH (spatch --dir, -j JOBS), and the reports
# on BATCH/KEY/PATH become the cache entry KEY.
cocci_batch() {
	_b=$CACHE/batch
	rm -rf "$_b" "$_b.ast" "$_b.out" "$RUN/cocci-uncached"
	mkdir -p "$_b" "$_b.ast" "$_b.out" "$RUN/cocci-uncached"
	: >"$RUN/cocci-failed"
	: >"$RUN/cocci-versions"
	_i=0
	for p in $WALK_SERIES; do
		_i=$((_i + 1))
		for f in $(touched "$p" | grep '\.c$'); do
			for st in $((_i - 1)) $_i; do
				_c=$(cat "$RUN/$st/commit")
				git -C "$T" cat-file -e "$_c:$f" 2>/dev/null || continue
				_k=$(cocci_key "$_c" "$f")
				echo "$st $f $_k" >>"$RUN/cocci-versions"
				if [ -f "$CACHE/cocci/$_k" ] || [ -d "$_b/$_k" ]; then continue; fi
				for x in "$f" $(local_headers "$_c" "$f"); do
					mkdir -p "$_b/$_k/$(dirname "$x")"
					git -C "$T" show "$_c:$x" >"$_b/$_k/$x"
				done
				echo "$f" >"$_b/$_k.file"
			done
		done
	done
	_n=$(find "$_b" -mindepth 1 -maxdepth 1 -type d | wc -l)
	_v=$(awk '{ print $3 }' "$RUN/cocci-versions" | sort -u | wc -l)
	if [ "$_n" -eq 0 ]; then
		say "coccinelle: all $_v versions of the touched .c files are cached"
		rm -rf "$_b" "$_b.ast" "$_b.out"
		return 0
	fi
	say "coccinelle: $_n of $_v versions of the touched .c files," \
		"$(grep -c . "$RUN/cocci-list") cocci files"
	_j=0
	mapfile -t cocci <"$RUN/cocci-list"
	for c in "${cocci[@]}"; do
		_j=$((_j + 1))
		opt=$(grep "Options:" "$T/$c" | cut -d':' -f2) || true
		_rc=0
		# shellcheck disable=SC2046,SC2086
		(cd "$_b" && spatch -D report --no-show-diff --very-quiet --cocci-file "$T/$c" $opt \
			$(cat "$RUN/cocci-inc") -j "$JOBS" --chunksize 1 --cache-prefix "$_b.ast" \
			--dir .) >"$_b.out/log" 2>&1 || _rc=$?
		_c=${c#scripts/coccinelle/}
		# "./KEY/PATH:line:col-col: message": PATH's reports go to KEY.
		grep -E '^\./[0-9a-f]{40}/[^ :]+\.[ch]:[0-9]' "$_b.out/log" |
			sed "s|\$| [${_c%.cocci}]|" | awk -v dir="$_b" -v out="$_b.out" '
			{
				s = substr($0, 3); k = substr(s, 1, 40); r = substr(s, 42)
				if (!(k in file)) { getline file[k] < (dir "/" k ".file") }
				if (index(r, file[k] ":") == 1) print r >> (out "/" k)
			}' || true
		# A failed run covered none of the batch: each version fails
		# the gate (judge) and none is cached, so the next run retries.
		if [ $_rc -ne 0 ]; then
			say "spatch failed ($_rc) with $c: $(grep . "$_b.out/log" | tail -1)"
			for d in "$_b"/*.file; do
				echo "$(basename "$d" .file) $c" >>"$RUN/cocci-failed"
			done
		fi
		[ $((_j % 10)) -ne 0 ] || say "coccinelle: $_j cocci files done"
	done
	for d in "$_b"/*.file; do
		_k=$(basename "$d" .file)
		touch "$_b.out/$_k"
		if grep -q "^$_k " "$RUN/cocci-failed"; then
			mv "$_b.out/$_k" "$RUN/cocci-uncached/$_k"
		else
			mv "$_b.out/$_k" "$CACHE/cocci/$_k"
		fi
	done
	rm -rf "$_b" "$_b.ast" "$_b.out"
}

# The cache key of file $2's version in state $1 (nothing if it has none).
cocci_version() {
	awk -v s="$1" -v f="$2" '$1 == s && $2 == f { print $3; exit }' "$RUN/cocci-versions"
}

# The cocci results of file $2 in state $1 (nothing if it has none).
cocci_of() {
	_k=$(cocci_version "$1" "$2")
	[ -n "$_k" ] || return 0
	if [ -f "$RUN/cocci-uncached/$_k" ]; then
		cat "$RUN/cocci-uncached/$_k"
	else
		cat "$CACHE/cocci/$_k"
	fi
}

# The cocci files spatch failed on for file $2 in state $1.
cocci_failed() {
	_k=$(cocci_version "$1" "$2")
	[ -n "$_k" ] || return 0
	awk -v k="$_k" -v f="$2" '$1 == k { print f ": spatch failed with " $2 }' "$RUN/cocci-failed"
}

# ---- the verdict of each patch -------------------------------------------
# Patch N ($1, file $2): its state against the one before.
judge() {
	P=$RUN/$(($1 - 1))
	D=$RUN/$1
	new_lines "$P/gcc" "$D/gcc" >"$D/new.gcc"
	new_lines "$P/sparse" "$D/sparse" >"$D/new.sparse"
	: >"$D/new.kdoc"
	: >"$D/new.cocci"
	for f in $(touched "$2"); do
		case "$f" in
		*.c | *.h) new_lines "$P/kdoc/$(flat "$f")" "$D/kdoc/$(flat "$f")" >>"$D/new.kdoc" ;;
		esac
		case "$f" in
		*.c)
			cocci_of $(($1 - 1)) "$f" >"$D/cocci.before"
			cocci_of "$1" "$f" >"$D/cocci.after"
			new_lines "$D/cocci.before" "$D/cocci.after" >>"$D/new.cocci"
			cocci_failed "$1" "$f" >>"$D/new.cocci"
			;;
		esac
	done
	if [ -f "$D/build.failed" ]; then
		grep -E '(error|\*\*\*)' "$D/build.log" | grep -v '^[^ :]*:[0-9]*:[0-9]*: ' |
			sed 's/^/build: /' >>"$D/new.gcc" || true
		[ -s "$D/new.gcc" ] || echo "build: make W=1 failed, see $D/build.log" >>"$D/new.gcc"
	fi
	ng=$(grep -c . "$D/new.gcc") || true
	ns=$(grep -c . "$D/new.sparse") || true
	nk=$(grep -c . "$D/new.kdoc") || true
	nc=$(grep -c . "$D/new.cocci") || true
	nn=$(printf '%02d' "$1")
	subj=$(patch_subject "$2")
	if [ $((ng + ns + nk + nc)) -eq 0 ]; then
		echo "ok   $nn $subj" | tee -a "$RUN/verdicts"
	else
		echo "FAIL $nn $subj: $ng new W=1 warnings, $ns new sparse warnings, $nk kernel-doc, $nc coccinelle" |
			tee -a "$RUN/verdicts"
		sed 's/^/    W=1: /' "$D/new.gcc"
		sed 's/^/    sparse: /' "$D/new.sparse"
		sed 's/^/    kernel-doc: /' "$D/new.kdoc"
		sed 's/^/    coccinelle: /' "$D/new.cocci"
	fi
}

# ---- step 2: the final tree under other configurations -------------------
# The worktree $1 of the stock repository at commit $2, never built in place.
src_at() {
	if [ ! -e "$1/.git" ]; then
		rm -rf "$1"
		mkdir -p "$(dirname "$1")"
		git -C "$KDIR/stock" worktree add -q --detach "$1" "$2" 2>/dev/null || {
			git -C "$KDIR/stock" worktree prune
			git -C "$KDIR/stock" worktree add -q --detach "$1" "$2"
		} || die "cannot make the worktree $1"
	elif [ "$(git -C "$1" rev-parse HEAD)" != "$2" ]; then
		git -C "$1" checkout -q -f --detach "$2" || die "cannot check out $2 in $1"
	fi
	[ ! -e "$1/.config" ] || die "$1 has a .config of its own: make O= refuses such a tree"
}

# The options configuration $1 turns off, in source tree $2.
config_off() {
	case "$1" in
	no-cgroups) echo CGROUPS ;;
	no-userns) echo USER_NS ;;
	no-controllers)
		_ctl=$(grep -o 'IS_ENABLED(CONFIG_[A-Z0-9_]*)' "$2/include/linux/cgroup_subsys.h" |
			sed 's/.*CONFIG_\(.*\))/\1/') || true
		[ -n "$_ctl" ] || die "no controller found in $2/include/linux/cgroup_subsys.h"
		{ echo "$_ctl"; echo CGROUP_BPF; } | sort -u
		;;
	debug) ;;
	*) die "unknown configuration '$1' (known: $ALL_CONFIGS)" ;;
	esac
}

# Configure objects dir $3 for sources $2 as configuration $1 and build it;
# its compiler warnings go to $3/.gates-warnings.
config_build() {
	_name=$1 _src=$2 _o=$3
	mkdir -p "$_o"
	# kbuild's own Makefile in the objects dir: config-kernel.sh (with
	# merge_config.sh next to it) and make -C work there as in a tree.
	[ -f "$_o/Makefile" ] || make -s -C "$_src" O="$_o" outputmakefile >/dev/null ||
		die "make O=$_o outputmakefile failed"
	mkdir -p "$_o/scripts/kconfig"
	ln -sf "$_src/scripts/kconfig/merge_config.sh" "$_o/scripts/kconfig/merge_config.sh"
	_dbg=0
	[ "$_name" != debug ] || _dbg=1
	"$TOP/scripts/config-kernel.sh" "$KVER" "$_o" "$_dbg"
	_off=$(config_off "$_name" "$_src")
	_on=
	[ "$_name" != no-controllers ] || _on=CGROUPS
	_bad=
	for x in $_off; do ! grep -q "^CONFIG_$x=[ym]" "$_o/.config" || _bad="$_bad $x"; done
	[ -z "$_bad" ] || say "$_name: turning off$_bad"
	# shellcheck disable=SC2046
	[ -z "$_bad" ] || "$_src/scripts/config" --file "$_o/.config" $(for x in $_bad; do echo "--disable $x"; done)
	# Always: on a rerun the sources may have changed what the options select.
	make -s -C "$_o" olddefconfig >"$_o/.config.log" 2>&1 || die "$_name: make olddefconfig failed"
	for x in $_off; do
		! grep -q "^CONFIG_$x=[ym]" "$_o/.config" || die "$_name: CONFIG_$x is still on after olddefconfig"
	done
	for x in $_on; do
		grep -q "^CONFIG_$x=y" "$_o/.config" || die "$_name: CONFIG_$x went off with the controllers"
	done
	# shellcheck disable=SC2086 # one CONFIG_ name per word of $_off
	[ -z "$_off" ] || say "$_name: off:$(printf ' CONFIG_%s' $_off)"

	# Per-object warnings, as in step 1; a directory built before they were
	# kept (no .complete) is compiled again in full (ccache makes it cheap).
	_w=$_o/.gates-w
	if [ ! -f "$_w/.complete" ]; then
		find "$_o" -name '*.o' -type f -delete
		rm -rf "$_w"
	fi
	mkdir -p "$_w"
	rm -f "$_w/.complete" "$_o/.gates-failed" "$_o/.gates-extra"
	say "$_name: building $_o (-j$JOBS, log: $_o/.build.log)"
	_fail=0
	kmake "$_o" bzImage >"$_o/.build.log" 2>&1 &
	# A line every 30 s, as build-kernel.sh prints, keeps a CI log alive.
	_pid=$! _next=$(($(date +%s) + 30))
	while kill -0 "$_pid" 2>/dev/null; do
		sleep 5
		[ "$(date +%s)" -ge "$_next" ] || continue
		say "... $(grep -c '^  CC' "$_o/.build.log" || true) objects compiled"
		_next=$((_next + 30))
	done
	wait "$_pid" || _fail=1
	# The build syncs the config again: what it built must still be it.
	for x in $_off; do
		! grep -q "^CONFIG_$x=[ym]" "$_o/.config" || {
			echo "config: CONFIG_$x is on again after the build" >>"$_o/.gates-extra"
			_fail=1
		}
	done
	split_log "$_o/.build.log" "$_w"
	: >"$_w/.complete"
	# Objects that are gone take their warnings with them.
	(cd "$_w" && for r in *.gcc; do
		[ -f "$r" ] || continue
		o=${r%.gcc} o=${o//%//}
		[ -f "$_o/$o" ] || rm -f "$r"
	done)
	# Warnings with no source position: the linker's, modpost's, objtool's
	# on vmlinux.o, Kconfig's (unmet dependencies), offsets left out.
	{ grep -hE '(^|[ :])(warning|WARNING):' "$_o/.build.log" "$_o/.config.log" |
		grep -vE '^[^ :]+:[0-9]+:[0-9]+: ' | grep -vE '^[^ :]+\.o: warning: objtool: ' |
		sed -e 's/+0x[0-9a-f]*//g' -e 's/^/other: /' || true; } >>"$_o/.gates-extra"
	# Paths: relative to the source tree.
	cat "$_w"/*.gcc "$_o/.gates-extra" 2>/dev/null |
		sed -e 's|^\([^ :]*: \)\{0,1\}[^ :]*/gates-src/|\1|' -e 's|^\([^ :]*: \)\{0,1\}[^ :]*/base-src/|\1|' \
		>"$_o/.gates-warnings" || true
	if [ "$_fail" = 1 ]; then
		: >"$_o/.gates-failed"
		grep -E 'error|\*\*\*' "$_o/.build.log" | head -20 | sed 's/^/build: /' >>"$_o/.gates-warnings"
		say "$_name: the build failed, see $_o/.build.log"
	fi
	return 0
}

config_matrix() {
	head=$(git -C "$T" rev-parse HEAD)
	src_at "$SRC" "$head"
	for name in $CONFIGS; do
		t=$(date +%s)
		config_build "$name" "$SRC" "$CFG/$name"
		w=$CFG/$name/.gates-warnings
		nw=$(grep -c . "$w") || true
		if [ -f "$CFG/$name/.gates-failed" ]; then
			echo "FAIL config $name: the build failed (log: $CFG/$name/.build.log)" | tee -a "$RUN/verdicts"
			sed 's/^/    /' "$w"
		elif [ "$nw" -eq 0 ]; then
			echo "ok   config $name" | tee -a "$RUN/verdicts"
		else
			say "$name: $nw warning(s) in the final tree; building the base tree the same way"
			src_at "$CFG/base-src" "$(cat "$RUN/base-commit")"
			config_build "$name" "$CFG/base-src" "$CFG/$name.base"
			new_lines "$CFG/$name.base/.gates-warnings" "$w" >"$RUN/new.cfg.$name"
			nn=$(grep -c . "$RUN/new.cfg.$name") || true
			if [ "$nn" -eq 0 ]; then
				echo "ok   config $name ($nw warnings, all in the base tree too)" | tee -a "$RUN/verdicts"
			else
				echo "FAIL config $name: $nn new compiler warnings" | tee -a "$RUN/verdicts"
				sed 's/^/    /' "$RUN/new.cfg.$name"
			fi
		fi
		took "$t" "config-$name" >/dev/null
	done
}

# ---- main ------------------------------------------------------------------
for tool in sparse spatch; do
	command -v $tool >/dev/null ||
		die "$tool is not installed (make gates installs it: scripts/setup.sh sparse coccinelle)"
done
CONFIGS=${GATES_CONFIGS:-$ALL_CONFIGS}
[ "$CONFIGS" != none ] || CONFIGS=
for name in $CONFIGS; do config_off "$name" "$KDIR/stock" >/dev/null; done
[ -z "${SERIES_DIR:-}" ] || say "series: $SERIES_DIR/series"

GATES_T0=$(date +%s)
walk_series "$KVER" "$T" state
t1=$(date +%s)
cocci_batch
took "$t1" cocci >/dev/null
: >"$RUN/verdicts"
i=0
for p in $WALK_SERIES; do
	i=$((i + 1))
	judge "$i" "$p"
done
[ -z "$CONFIGS" ] || config_matrix

secs() {
	[ -f "$RUN/time.$1" ] || { echo 0; return; }
	awk '{ s += $1 } END { print s + 0 }' "$RUN/time.$1"
}
cfgt=
for name in $CONFIGS; do cfgt="$cfgt, config $name $(secs "config-$name")s"; done
say "time: $(($(date +%s) - GATES_T0))s: base tree $(secs prepare)s, W=1+sparse $(secs build)s," \
	"kernel-doc $(secs kdoc)s, coccinelle $(secs cocci)s$cfgt"
# What did not run is said where the verdict is.
[ ! -s "$RUN/cocci-skipped" ] ||
	say "not run by the coccinelle gate: $(tr '\n' ' ' <"$RUN/cocci-skipped")"
passed=$(grep -c '^ok ' "$RUN/verdicts") || true
failed=$(grep -c '^FAIL ' "$RUN/verdicts") || true
echo "gates: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
