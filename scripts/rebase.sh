#!/bin/bash
# Rebase the series of tree FROM onto the base of tree KVER, one patch at a
# time with "git am -3" (rerere on), in the worktree TREE (build/KVER/rebase):
#
#  - The blobs the FROM patches were made against are copied from FROM's
#    patched tree into KVER's repository first: with them "git am -3" can
#    fall back to a three-way merge instead of failing on moved context.
#  - Each new commit gets the notes of the patch with the same subject in
#    KVER's series as committed (they carry its "KVER:" paragraphs), or
#    FROM's notes for a patch KVER's series does not have yet.
#  - At the first patch that does not apply it stops and names the patch
#    and the conflicted files.  Resolve them in TREE, "git add" them and
#    run it again: it continues ("git am --continue") where it stopped.
#    RESTART=1 throws the rebase away and starts over; rerere replays the
#    resolutions recorded so far.
#  - When every patch is in, it writes the series into KVER's series
#    directory (refresh.sh) if KVER has none yet.  A series KVER already
#    has is not overwritten: it carries KVER-only changes that a rebase of
#    FROM's patches does not; compare with make range-diff, export with
#    make refresh KVER=.. TREE=...  Run again after FROM's series changed,
#    it starts over.
#
# usage: [RESTART=1] rebase.sh FROM KVER TREE FROM_TREE
#   FROM_TREE: FROM's patched tree (make prepare KVER=FROM VARIANT=patched)
set -eu
STEP=rebase
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
# The cgroup namespace series, whatever CGNS_SERIES says: a fixes series
# is written for its tree, not carried between trees.
unset CGNS_SERIES

FROM=${1:?usage: rebase.sh FROM KVER TREE FROM_TREE}
KVER=${2:?usage: rebase.sh FROM KVER TREE FROM_TREE}
TREE=${3:?usage: rebase.sh FROM KVER TREE FROM_TREE}
FROM_TREE=${4:?usage: rebase.sh FROM KVER TREE FROM_TREE}
check_kver "$FROM"
check_kver "$KVER"
[ "$FROM" != "$KVER" ] || die "FROM and KVER are both $KVER"
STOCK=$(dirname "$TREE")/stock
git -C "$STOCK" rev-parse -q --verify refs/tags/stock >/dev/null ||
	die "$STOCK is not extracted (make extract KVER=$KVER)"
git -C "$FROM_TREE" rev-parse -q --verify refs/tags/base >/dev/null ||
	die "$FROM_TREE is not a prepared tree (make prepare KVER=$FROM VARIANT=patched)"
patches=$(series_patches "$FROM")
[ -n "$patches" ] || die "the $FROM series is empty"
total=$(echo "$patches" | wc -l)
pipeline_env
# rerere for this script's git commands only: the repository's other
# worktrees (a developer's git rebase -i in patched/) keep their config.
export GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=rerere.enabled GIT_CONFIG_VALUE_0=true \
	GIT_CONFIG_KEY_1=rerere.autoUpdate GIT_CONFIG_VALUE_1=true

# What is being rebased, onto what: FROM's patches and KVER's base
# fixture.  A rebase of anything else is not resumed.
# shellcheck disable=SC2086
state="$FROM $(cat $patches "$TOP/patches/base/$KVER/"*.patch | sha1sum | cut -d' ' -f1)"
# The rebase's own record, in the worktree: .rebase-state (what),
# .rebase-next (the number of the next patch to apply), .rebase-head (HEAD
# before that patch: a commit since then means it went in).
LOG=$TREE/.am.log
in_am() { [ -e "$TREE/.git" ] && [ -d "$(git -C "$TREE" rev-parse --absolute-git-dir)/rebase-apply" ]; }
head() { git -C "$TREE" rev-parse HEAD; }

# Attach the notes of patch file $1 (FROM's) to HEAD, preferring those of
# the patch of the same subject in KVER's committed series.
add_notes() {
	_src=$1
	_subj=$(git -C "$TREE" log -1 --format=%s HEAD)
	if [ -f "$(series_file "$KVER")" ]; then
		for _f in $(series_names "$(series_file "$KVER")"); do
			_f=$(series_dir "$KVER")/$_f
			if [ -f "$_f" ] && [ "$(patch_subject "$_f")" = "$_subj" ]; then
				_src=$_f
				break
			fi
		done
	fi
	_notes=$(patch_notes "$_src")
	if [ -n "$_notes" ]; then
		printf '%s\n' "$_notes" | git -C "$TREE" notes --ref=commits add -f -F - HEAD
	fi
	say "  notes from ${_src#"$TOP"/}"
}

stop() {	# $1: number, $2: file of the patch that did not apply
	_files=$( { git -C "$TREE" diff --name-only --diff-filter=U
		sed -n 's/^CONFLICT ([^)]*): Merge conflict in //p' "$LOG"; } | sort -u | tr '\n' ' ')
	sed 's/^/    /' "$LOG" >&2
	die "patch $1/$total (${2##*/}) does not apply to $KVER${_files:+; conflicts in: $_files}
    resolve them in $TREE, git add them, then run make rebase FROM=$FROM KVER=$KVER again
    (git am --skip there drops the patch; RESTART=1 starts over)"
}

# Apply patch file $2 (number $1) with git am -3, or with $3 = continue
# finish it after a resolution; stop() when it does not apply.  When
# rerere replayed a recorded resolution of every conflict, it goes on.
apply_one() {
	if [ "${3:-}" = continue ]; then
		git -C "$TREE" am --continue >"$LOG" 2>&1 && return 0
	else
		am_patch "$TREE" "$2" -3 >"$LOG" 2>&1 && return 0
	fi
	_rr=$(sed -n "s/^\(Staged\|Resolved\) '\(.*\)' using previous resolution.*/\2/p" "$LOG" | tr '\n' ' ')
	if [ -n "$_rr" ] && [ -z "$(git -C "$TREE" diff --name-only)" ] &&
		[ -z "$(git -C "$TREE" diff --name-only --diff-filter=U)" ]; then
		say "  rerere replayed the recorded resolution of: $_rr"
		git -C "$TREE" am --continue >"$LOG" 2>&1 && return 0
	fi
	stop "$1" "$2"
}

if [ "${RESTART:-0}" = 1 ] || ! [ -f "$TREE/.rebase-state" ] ||
	[ "$(cat "$TREE/.rebase-state")" != "$state" ]; then
	if in_am && [ "${RESTART:-0}" != 1 ]; then
		die "$TREE is in the middle of rebasing another series; RESTART=1 starts over"
	fi
	say "starting over: the $FROM series onto the $KVER base in $TREE"
	rm -f "$TREE/.rebase-state" "$TREE/.rebase-next" "$TREE/.rebase-head" "$TREE/.variant-stamp"
	"$TOP/scripts/prepare-variant.sh" "$KVER" base "$TREE"
	rm -f "$TREE/.variant-stamp"	# it will not be the base variant
	echo 1 >"$TREE/.rebase-next"
	head >"$TREE/.rebase-base"
	# The preimages of every FROM patch, for the three-way fallback.
	BLOB=$(mktemp)
	# shellcheck disable=SC2086 # the patch files, one path a word
	mapfile -t ids < <(sed -n 's/^index \([0-9a-f]*\)\.\.[0-9a-f]*.*/\1/p' $patches | sort -u)
	for id in "${ids[@]}"; do
		case "$id" in *[!0]*) ;; *) continue ;; esac
		git -C "$FROM_TREE" cat-file blob "$id" >"$BLOB" 2>/dev/null ||
			die "blob $id of a $FROM patch is not in $FROM_TREE (make prepare KVER=$FROM VARIANT=patched)"
		git -C "$STOCK" hash-object -w "$BLOB" >/dev/null
	done
	rm -f "$BLOB"
	echo "$state" >"$TREE/.rebase-state"
else
	# Where the last run stopped: patch $i.  It is still being applied,
	# or was finished by hand (git am --continue: a new commit) or
	# dropped (git am --skip: none).
	i=$(cat "$TREE/.rebase-next")
	f=$(echo "$patches" | sed -n "${i}p")
	if in_am; then
		if [ -n "$(git -C "$TREE" diff --name-only --diff-filter=U)" ] ||
			git -C "$TREE" diff --name-only | grep -q .; then
			die "patch $i/$total (${f##*/}): resolve and git add every file in $TREE first (git status there)"
		fi
		git -C "$TREE" diff --cached --check >"$LOG" 2>&1 ||
			{ sed 's/^/    /' "$LOG" >&2; die "patch $i/$total (${f##*/}): conflict markers or whitespace errors are staged"; }
		say "continuing with patch $i/$total (${f##*/})"
		apply_one "$i" "$f" continue
	fi
	if [ -f "$TREE/.rebase-head" ]; then
		if [ "$(head)" != "$(cat "$TREE/.rebase-head")" ]; then
			add_notes "$f"
		else
			say "patch $i/$total (${f##*/}) dropped (git am --skip)"
		fi
		echo $((i + 1)) >"$TREE/.rebase-next"
	fi
fi

i=0
next=$(cat "$TREE/.rebase-next")
for f in $patches; do
	i=$((i + 1))
	[ "$i" -ge "$next" ] || continue
	say "patch $i/$total: ${f##*/}"
	head >"$TREE/.rebase-head"
	apply_one "$i" "$f"
	if [ "$(head)" = "$(cat "$TREE/.rebase-head")" ]; then
		say "  already in $KVER's base: dropped"
	else
		add_notes "$f"
	fi
	echo $((i + 1)) >"$TREE/.rebase-next"
done
rm -f "$LOG" "$TREE/.rebase-head"

# A tree's first series is written into its series directory, starting
# from FROM's cover letter.  A tree that has a series keeps it: the rebase
# carries FROM's patches, not the KVER-only changes made since by hand.
n=$(git -C "$TREE" rev-list --count "$(cat "$TREE/.rebase-base")"..HEAD)
say "the $FROM series is on $KVER: $n patches in $TREE"
if [ -f "$(series_file "$KVER")" ]; then
	say "$(series_file "$KVER" | sed "s|^$TOP/||") is not overwritten; compare with make range-diff FROM=$FROM KVER=$KVER,"
	say "and export the rebase there with make refresh KVER=$KVER TREE=$TREE"
	exit 0
fi
cover=$(series_dir "$KVER")/0000-cover-letter.patch
mkdir -p "$(dirname "$cover")"
# Without FROM's b4 change-id: the new tree's series is a series of its own.
grep -v '^change-id: ' "$(series_dir "$FROM")/0000-cover-letter.patch" >"$cover"
"$TOP/scripts/refresh.sh" "$KVER" "$TREE"
say "NOTE: ${cover#"$TOP"/} is $FROM's: say what differs on $KVER, and give it a b4 change-id: line of its own after base-commit: (make mail needs one)"
say "next: make range-diff FROM=$FROM KVER=$KVER; explain each difference in a \"$KVER:\" paragraph of that patch's notes (git notes edit in $TREE, then make refresh KVER=$KVER TREE=$TREE); make check KVER=$KVER"
