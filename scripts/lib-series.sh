# shellcheck shell=bash
# Which series is for which tree, and applying it to a worktree.  Sourced
# after lib.sh; brings lib-identity.sh and lib-patch.sh, which it uses.
. "$(dirname "${BASH_SOURCE[0]}")/lib-identity.sh"
. "$(dirname "${BASH_SOURCE[0]}")/lib-patch.sh"

# The series file for the format-patch output in directory $1: every
# patch but the cover letter, in order.
exported_series() {
	for _f in "$1"/*; do
		case "${_f##*/}" in
		0000-cover-letter*) ;;
		*) echo "${_f##*/}" ;;
		esac
	done
}

# ---- which series is for which tree --------------------------------------
# A tree (KVER) has up to three series, each named by the variant whose
# tree it makes:
#   patched  the cgroup namespace series, on top of the base fixture
#            (patches/base/KVER/, tag "base"): patches/KVER/, with its own
#            series file and cover letter (carried from one tree to another
#            by "make rebase", compared by "make range-diff").
#   fixes    a short series of fixes for upstream, on the stock tree
#            itself (tag "stock", no base fixture): patches/fixes/KVER/,
#            with its own series file and cover letter; a tree has one
#            when patches/fixes/KVER/series exists.
#   next     a series for the maintainers' -next branch, on top of the
#            tree's fixes series (tag "fixes"): patches/next/KVER/, with
#            its own series file and cover letter; a tree has one when
#            patches/next/KVER/series exists, and only a tree with a fixes
#            series may have one.
# Every script finds a series, its files and its start through the
# functions below and nowhere else.  Each takes the series as an optional
# argument; without it, CGNS_SERIES (which the Makefile sets from VARIANT:
# fixes for VARIANT=fixes, next for VARIANT=next, else patched), and
# patched when that is unset.
series_of() {
	case "${1:-${CGNS_SERIES:-patched}}" in
	patched) echo patched ;;
	fixes) echo fixes ;;
	next) echo next ;;
	*) die "unknown series '${1:-$CGNS_SERIES}' (patched: the cgroup namespace series; fixes: the fixes series; next: the next series)" ;;
	esac
}

series_dir() {
	_sdr=$(series_of "${2:-}") || exit 1
	case "$_sdr" in
	patched) echo "$TOP/patches/$1" ;;
	*) echo "$TOP/patches/$_sdr/$1" ;;
	esac
}

series_file() {
	_sfl=$(series_dir "$1" "${2:-}") || exit 1
	echo "$_sfl/series"
}

# Where series $1 starts: the variant it is applied to, which is also the
# tag of that commit in the build repository ("base", "stock" or
# "fixes"); the first commit of the series sits on it, and "git
# format-patch" exports START..HEAD.  prepare-variant.sh makes the tree
# of a series as its start (start_patches) and then the series, and tags
# the start there ("stock" is the extracted tree's own tag).
# shellcheck disable=SC2120 # the series is optional: CGNS_SERIES by default
series_start() {
	_sst=$(series_of "${1:-}") || exit 1
	case "$_sst" in
	fixes) echo stock ;;
	next) echo fixes ;;
	*) echo base ;;
	esac
}

# The commit the mail of series $1 names as its base-commit (git
# format-patch --base): its start, or for a series that starts on another
# series (next on fixes) that one's start, what upstream has; format-patch
# then lists the other series' patches as prerequisite-patch-id: lines.
# shellcheck disable=SC2120 # the series is optional: CGNS_SERIES by default
series_base() {
	_sb=$(series_start "${1:-}") || exit 1
	case "$_sb" in
	fixes) series_start fixes ;;
	*) echo "$_sb" ;;
	esac
}

# The patch files of tree $1's base fixture (patches/base/KVER/), in
# order, one path per line; dies when it has none.
base_patches() {
	ls "$TOP/patches/base/$1/"*.patch 2>/dev/null ||
		die "no base patch for $1 in patches/base/$1/"
}

# The patch files that make the start of series $2 of tree $1
# (series_start) from the stock tree, in order, one path per line: the
# base fixture, nothing, or the fixes series.
start_patches() {
	_spt=$(series_start "${2:-}") || exit 1
	case "$_spt" in
	base) base_patches "$1" ;;
	fixes) series_patches "$1" fixes ;;
	esac
}

# Whether tree $1 has series $2: its series file exists.
has_series() {
	[ -f "$(series_file "$1" "$2")" ]
}

# Whether tree $1 has a fixes series: patches/fixes/KVER/series exists.
has_fixes_series() {
	has_series "$1" fixes
}

# The series tree $1 has, one a line: patched, fixes if it has one, next
# if it has one (dies, as check_series, when it has a next series but no
# fixes series).
series_variants() {
	! has_series "$1" next || check_series "$1" next
	echo patched
	! has_fixes_series "$1" || echo fixes
	! has_series "$1" next || echo next
}

# The series whose tree tree $1 builds test_core from: the last of
# series_variants that adds cases to test_core.c (next, else fixes);
# nothing when it has neither.  The Makefile's CORE_SERIES asks it.
test_core_series() {
	series_variants "$1" | grep -x 'fixes\|next' | tail -n 1
}

# Stop, in one line, unless tree $1 has series $2 (default as series_of),
# and for a next series the fixes series it goes on.
check_series() {
	_cs=$(series_of "${2:-}") || exit 1
	case "$_cs" in
	fixes | next)
		_csf=$(series_file "$1" "$_cs")
		has_series "$1" "$_cs" ||
			die "$1 has no $_cs series (no ${_csf#"$TOP"/}; only a tree with one has VARIANT=$_cs)"
		;;
	esac
	_csf=$(series_file "$1" fixes)
	[ "$_cs" != next ] || has_fixes_series "$1" ||
		die "$1 has a next series but no fixes series (no ${_csf#"$TOP"/}): a next series goes on top of the tree's fixes series"
}

# A name for series $2 of tree $1 in messages: "the 6.12 series", "the
# 6.12 fixes series", "the 7.3 next series".
series_title() {
	_stt=$(series_of "${2:-}") || exit 1
	case "$_stt" in
	patched) echo "the $1 series" ;;
	*) echo "the $1 $_stt series" ;;
	esac
}

# The make arguments that name series $2 of tree $1, for hints in
# messages: "KVER=6.12", "KVER=6.12 VARIANT=fixes", "KVER=7.3 VARIANT=next".
series_args() {
	_sar=$(series_of "${2:-}") || exit 1
	case "$_sar" in
	patched) echo "KVER=$1" ;;
	*) echo "KVER=$1 VARIANT=$_sar" ;;
	esac
}

# The b4 change-id of the cover letter $1: its "change-id:" line, which
# b4 puts right after "base-commit:" at the end of a cover letter, and by
# which b4 and lore tie the revisions (v2, v3, ...) of one series
# together; nothing if it has none.  Made once per series, in b4's form
# (YYYYMMDD-<slug>-<12 hex digits>, b4 prep -n SLUG), and never changed:
# a new value starts a new series.  Each tree's series is a series of its
# own, and each fixes and next series one more.  format-series.sh carries it from
# the committed cover letter to the exported one.
cover_change_id() {
	[ -f "$1" ] || return 0
	awk '/^base-commit: / { b = NR } b && NR == b + 1 && sub(/^change-id: /, "") { id = $0 }
		END { if (id != "") print id }' "$1"
}

# The b4 change-id of series $2 of tree $1 (cover_change_id of its cover
# letter); dies when it has none.
series_change_id() {
	_scc=$(series_dir "$1" "${2:-}")/0000-cover-letter.patch
	_sci=$(cover_change_id "$_scc")
	[ -n "$_sci" ] || die "${_scc#"$TOP"/} has no change-id: line after its base-commit: line (b4's form, YYYYMMDD-<slug>-<12 hex digits>)"
	echo "$_sci"
}

# The version series $2 of tree $1 is posted as by default ("make mail"
# without V=): the N of "[PATCH vN i/n]", one more than the newest
# "Changes since vN:" section of its cover letter, which says what this
# version changes; 1 (a first posting, "[PATCH i/n]") without one.
series_version() {
	_svc=$(series_dir "$1" "${2:-}")/0000-cover-letter.patch
	[ -f "$_svc" ] || die "no cover letter ${_svc#"$TOP"/}"
	awk '/^Changes since v[0-9]+:$/ { n = substr($3, 2) + 0; if (n > m) m = n }
		END { print m + 1 }' "$_svc"
}

# The patch files of series $2 of tree $1, in order, one path per line;
# dies when the series file is missing or names a file that does not exist.
series_patches() {
	_sf=$(series_file "$1" "${2:-}") _sd=$(series_dir "$1" "${2:-}")
	[ -f "$_sf" ] || die "no series file ${_sf#"$TOP"/} for $1"
	for _p in $(series_names "$_sf"); do
		[ -f "$_sd/$_p" ] || die "${_sf#"$TOP"/} names $_p, which is not in ${_sd#"$TOP"/}/"
		echo "$_sd/$_p"
	done
}

# Apply patch file $2 to the git worktree $1 with "git am" (no fuzz), as
# the pipeline identity; the author date is the file's Date:.  Further
# arguments go to git am.  The caller sets pipeline_env.
am_patch() {
	_tree=$1 _file=$2
	shift 2
	with_from "$(pipeline_identity)" "$_file" |
		git -C "$_tree" am -q --keep-cr --committer-date-is-author-date "$@"
}

# Apply patch file $2 to the worktree $1 (am_patch) and attach its notes
# (patch_notes) to the new commit as a git note, or remove a stale note.
apply_patch() {
	am_patch "$1" "$2" || return 1
	_notes=$(patch_notes "$2")
	if [ -n "$_notes" ]; then
		printf '%s\n' "$_notes" | git -C "$1" notes --ref=commits add -f -F - HEAD
	else
		git -C "$1" notes --ref=commits remove --ignore-missing HEAD 2>/dev/null
	fi
}

# Walk KVER ($1)'s series (series_of: CGNS_SERIES) in the git worktree $2,
# which is made again as the series' start (series_start: the base
# tree, the stock tree for the fixes series, the fixes tree for the next
# series): that tree configured and built, "$3 0" run there,
# then each patch applied in order and "$3 N" run in the state after patch
# N.  $3 is a command or a function (make build-each builds, make gates
# checks), run as a plain command so that set -e holds inside it (as the
# left side of || it would not): a command of the step that fails ends
# the script, and the ERR trap, which fires where set -e would exit, names
# the patch first.  A patch that does not apply stops the walk too.  WALK_SERIES holds the patch files, one a line.  With
# SERIES_DIR=dir set, the walk takes the series that dir/series lists, its
# files in dir (a scratch copy), instead of KVER's.
walk_series() {
	local _kv=$1 _tree=$2 _step=$3 _i=0 _total _f _p _start
	check_series "$_kv"
	_start=$(series_start)
	if [ -n "${SERIES_DIR:-}" ]; then
		SERIES_DIR=$(cd "$SERIES_DIR" 2>/dev/null && pwd) || die "no directory $SERIES_DIR"
		[ -f "$SERIES_DIR/series" ] || die "no series file in $SERIES_DIR"
		WALK_SERIES=$(for _n in $(series_names "$SERIES_DIR/series"); do
			[ -f "$SERIES_DIR/$_n" ] || die "$SERIES_DIR/series names $_n, which is not there"
			echo "$SERIES_DIR/$_n"
		done)
	else
		WALK_SERIES=$(series_patches "$_kv")
	fi
	[ -n "$WALK_SERIES" ] || die "the series is empty"

	"$TOP/scripts/prepare-variant.sh" "$_kv" "$_start" "$_tree"
	"$TOP/scripts/config-kernel.sh" "$_kv" "$_tree" 0
	say "building the $_start tree"
	"$TOP/scripts/build-kernel.sh" "$_tree"
	# The same commits as prepare-variant.sh makes: pipeline identity, dates.
	pipeline_env
	# The tree is about to be no variant at all: prepare-variant starts over.
	rm -f "$_tree/.variant-stamp"
	set -E
	trap 'die "stopped at the tree after patch $_i/${_total:-?} (${_p:-the $_start tree alone})"' ERR
	"$_step" 0
	_total=$(printf '%s\n' "$WALK_SERIES" | wc -l)
	for _f in $WALK_SERIES; do
		_i=$((_i + 1))
		_p=${_f##*/}
		am_patch "$_tree" "$_f" ||
			{ git -C "$_tree" am --abort; die "patch $_i/$_total ($_p) does not apply"; }
		say "patch $_i/$_total: $_p"
		"$_step" "$_i"
	done
	trap - ERR
	set +E
}
