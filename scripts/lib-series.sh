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
# The series was written for 6.1: ./series lists its files in patches/.
# On any other tree it is patches/KVER/, with its own series file and cover
# letter (rebased by "make rebase", compared by "make range-diff").  The
# base fixture of every tree is patches/base/KVER/.  Every script finds a
# tree's series through these two functions and nowhere else.
series_dir() {
	case "$1" in
	6.1) echo "$TOP/patches" ;;
	*) echo "$TOP/patches/$1" ;;
	esac
}

series_file() {
	case "$1" in
	6.1) echo "$TOP/series" ;;
	*) echo "$TOP/patches/$1/series" ;;
	esac
}

# The b4 change-id of tree $1's series: the "change-id:" line that b4 puts
# after "base-commit:" at the end of a cover letter, by which b4 and lore
# tie the revisions (v2, v3, ...) of one series together.  Made once, in
# b4's form (YYYYMMDD-<slug>-<12 hex digits>, b4 prep -n cgroupns-KVER),
# and never changed: a new value starts a new series.  The 6.1 and 6.12
# series are two series.  mail.sh puts it in the mailed cover letter.
series_change_id() {
	case "$1" in
	6.1) echo "20261206-cgroupns-6-1-391754324b21" ;;
	6.12) echo "20261206-cgroupns-6-12-1129ff6d560d" ;;
	*) die "no b4 change-id for $1 (lib-series.sh: series_change_id)" ;;
	esac
}

# The patch files of tree $1's series, in order, one path per line; dies
# when the series file is missing or names a file that does not exist.
series_patches() {
	_sf=$(series_file "$1") _sd=$(series_dir "$1")
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

# Walk KVER ($1)'s series in the git worktree $2, which is made again from
# the base fixture: the base tree configured and built, "$3 0" run there,
# then each patch applied in order and "$3 N" run in the state after patch
# N.  $3 is a command or a function (make build-each builds, make gates
# checks), run as a plain command so that set -e holds inside it (as the
# left side of || it would not): a command of the step that fails ends
# the script, and the ERR trap, which fires where set -e would exit, names
# the patch first.  A patch that does not apply stops the walk too.  WALK_SERIES holds the patch files, one a line.  With
# SERIES_DIR=dir set, the walk takes the series that dir/series lists, its
# files in dir (a scratch copy), instead of KVER's.
walk_series() {
	local _kv=$1 _tree=$2 _step=$3 _i=0 _total _f _p
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

	"$TOP/scripts/prepare-variant.sh" "$_kv" base "$_tree"
	"$TOP/scripts/config-kernel.sh" "$_tree" 0
	say "building the base tree"
	"$TOP/scripts/build-kernel.sh" "$_tree"
	# The same commits as prepare-variant.sh makes: pipeline identity, dates.
	pipeline_env
	# The tree is about to be no variant at all: prepare-variant starts over.
	rm -f "$_tree/.variant-stamp"
	set -E
	trap 'die "stopped at the tree after patch $_i/${_total:-?} (${_p:-the base alone})"' ERR
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
