#!/bin/bash
# Extract tree KVER's source tarball (fetch-source.sh: the Debian package
# that ./trees names) into $TREE once and record it as
# a single git commit tagged "stock".  The commit is made with fixed identity
# and date, so the same Debian package always yields the same commit id: that
# id is the base of everything the series says ("base-commit").
#
# usage: extract-tree.sh KVER TREE
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-disk.sh"

KVER=${1:?usage: extract-tree.sh KVER TREE}
TREE=${2:?usage: extract-tree.sh KVER TREE}
check_kver "$KVER"

if git -C "$TREE" rev-parse -q --verify refs/tags/stock >/dev/null 2>&1; then
	say "$TREE already extracted ($(cat "$TREE/.debian-version" 2>/dev/null || echo '?'))"
	exit 0
fi

PKG=$(tree_field "$KVER" package)
src=$("$TOP/scripts/fetch-source.sh" "$KVER")
TARBALL=${src% *} DEBVER=${src##* }

# Extract next to the destination and rename at the end, so an interrupted
# run never leaves a half tree that looks complete.
TMP=$TREE.tmp
rm -rf "$TMP" "$TREE"
need_space "$TREE" "$(disk_mib stock)" "extracting $PKG"
mkdir -p "$TMP"
say "extracting $TARBALL (Debian $DEBVER)"
tar -C "$TMP" -xJf "$TARBALL" --strip-components=1
UPSTREAM=$(make -s -C "$TMP" kernelversion)
say "extracted Linux $UPSTREAM; recording it in git"

export GIT_AUTHOR_NAME="Debian linux-source" GIT_AUTHOR_EMAIL="debian-kernel@lists.debian.org"
export GIT_COMMITTER_NAME="$GIT_AUTHOR_NAME" GIT_COMMITTER_EMAIL="$GIT_AUTHOR_EMAIL"
export GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" GIT_COMMITTER_DATE="2000-01-01T00:00:00Z"
git -C "$TMP" init -q -b stock-src
git -C "$TMP" config core.autocrlf false
git -C "$TMP" config gc.auto 0
git -C "$TMP" add -A -f .
git -C "$TMP" commit -q -m "Linux $UPSTREAM (Debian $PKG $DEBVER)

Unpacked from /usr/src/$PKG.tar.xz.  The Debian tarball
carries no git history; this commit stands for upstream stable v$UPSTREAM
with Debian's patches applied."
git -C "$TMP" tag stock
printf '%s\n' "$PKG $DEBVER (upstream v$UPSTREAM)" >"$TMP/.debian-version"
mv "$TMP" "$TREE"
say "done: $TREE at $(git -C "$TREE" rev-parse --short stock)"
