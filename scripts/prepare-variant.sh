#!/bin/bash
# Make the source tree of one variant:
#   stock    the extracted Debian tree, untouched (the upstream reference)
#   base     stock + patches/base/$KVER/*.patch (cgroup namespaces removed)
#   patched  base + the series of KVER (lib-series.sh: series_file), in order
#   fixes    stock + the fixes series of KVER (lib-series.sh), in order; only
#            a tree with a fixes series has it
#   next     fixes + the next series of KVER (lib-series.sh), in order; only
#            a tree with a next series has it
# The tree of a series is made as its start (lib-series.sh: series_start,
# start_patches), which is tagged here, then the series: the tag "base"
# (the base and patched trees) and "fixes" (the next tree) mark where
# format-patch starts.  The commits do not depend on the tree they are
# made in, so the next tree's fixes commits are the fixes tree's.
# Each variant is a git worktree of the stock repository, built in place.
# Patches are applied with "git am": no fuzz, so a patch that does not apply
# exactly stops here, named, and the worktree is reset to where it started.
# The patch files carry no identity: each is applied as a mail from the
# pipeline identity (lib-series.sh: am_patch), and the notes for reviewers below
# its "---" line become the commit's git note (apply_patch), which
# format-series.sh writes back there.
#
# usage: prepare-variant.sh KVER VARIANT TREE [SUFFIX]
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-disk.sh"
. "$(dirname "$0")/lib-series.sh"

KVER=${1:?usage: prepare-variant.sh KVER VARIANT TREE}
VARIANT=${2:?}
TREE=${3:?}
check_kver "$KVER"
check_variant "$VARIANT"
case "$VARIANT" in fixes | next) check_series "$KVER" "$VARIANT" ;; esac
STOCK=$(dirname "$TREE")/stock
git -C "$STOCK" rev-parse -q --verify refs/tags/stock >/dev/null ||
	die "$STOCK is not extracted (make extract KVER=$KVER)"

# The commits we make must not depend on who runs this or when: the
# base commit id is quoted by the cover letter.
pipeline_env

# The patches, in order; the first $nstart of them make the tree $start,
# which is tagged so after the last of them (none: stock, already tagged).
case "$VARIANT" in
stock) list='' start=stock nstart=0 ;;
base)
	list=$(base_patches "$KVER")
	start=base nstart=$(echo "$list" | wc -w)
	;;
*)
	start=$(series_start "$VARIANT")
	startlist=$(start_patches "$KVER" "$VARIANT")
	series=$(series_patches "$KVER" "$VARIANT")
	[ -n "$series" ] || [ "$VARIANT" = patched ] ||
		die "$(series_file "$KVER" "$VARIANT" | sed "s|^$TOP/||") lists no patch"
	list="$startlist $series"
	nstart=$(echo "$startlist" | wc -w)
	;;
esac

# Commits made by hand in the build trees are the pipeline's as well, and
# rewriting one keeps its note.
setup_build_repo "$STOCK"

# Skip all work when the tree already holds exactly these patches, applied
# the way this script applies them ("apply v2": pipeline identity, notes).
# shellcheck disable=SC2086
want=$( { echo "apply v2 $(pipeline_identity)"; git -C "$STOCK" rev-parse stock
	[ -z "$list" ] || cat $list; } | sha1sum | cut -d' ' -f1)
if [ -f "$TREE/.variant-stamp" ] && [ "$(cat "$TREE/.variant-stamp")" = "$want" ] &&
	[ -z "$(git -C "$TREE" status --porcelain --untracked-files=no)" ]; then
	say "$VARIANT tree up to date ($(git -C "$TREE" rev-parse --short HEAD))"
	exit 0
fi

if [ "$TREE" != "$STOCK" ] && [ ! -e "$TREE/.git" ]; then
	say "creating worktree $TREE"
	rm -rf "$TREE"
	need_space "$TREE" "$(disk_mib "${TREE##*/}")" "the ${TREE##*/} worktree"
	git -C "$STOCK" worktree prune
	git -C "$STOCK" worktree add -q --detach "$TREE" stock
fi

rm -f "$TREE/.variant-stamp"
git -C "$TREE" am --abort >/dev/null 2>&1 || true
# Reset tracked files only: build output (ignored by the kernel's
# .gitignore) stays, so a rebuild is incremental.
git -C "$TREE" checkout -q -f --detach stock
git -C "$TREE" clean -q -f -d -e '.*' >/dev/null 2>&1 || true

n=0
for p in $list; do
	n=$((n + 1))
	name=${p#"$TOP"/}
	if ! apply_patch "$TREE" "$p" >"$TREE/.am.log" 2>&1; then
		sed 's/^/    /' "$TREE/.am.log" >&2
		git -C "$TREE" am --abort >/dev/null 2>&1 || true
		git -C "$TREE" checkout -q -f --detach stock
		die "patch $n ($name) does not apply to the $VARIANT tree of $KVER"
	fi
	[ "$n" -ne "$nstart" ] || git -C "$TREE" tag -f "$start" >/dev/null
done
rm -f "$TREE/.am.log"
echo "$want" >"$TREE/.variant-stamp"
say "$VARIANT tree ready: $n patch(es), HEAD $(git -C "$TREE" rev-parse --short HEAD)"
