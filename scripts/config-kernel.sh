#!/bin/bash
# Configure TREE: "make tinyconfig", then the fragments from configs/ and
# tree KVER's own options (./trees: CONFIG) merged with merge_config.sh.
# All variants of a tree get the same, so any difference between their
# test results comes from the source alone.
# Fails if an option asked for did not survive olddefconfig (a missing
# dependency would otherwise silently drop a test feature); an option the
# tree's row says it no longer has is not asked for, and must indeed be
# unknown to its Kconfig.
#
# usage: config-kernel.sh KVER TREE DEBUG(0|1)
set -eu
STEP=config
. "$(dirname "$0")/lib.sh"

KVER=${1:?usage: config-kernel.sh KVER TREE DEBUG}
TREE=${2:?usage: config-kernel.sh KVER TREE DEBUG}
DEBUG=${3:-0}
check_kver "$KVER"

frags="$TOP/configs/base.config"
[ "$DEBUG" = 1 ] && frags="$frags $TOP/configs/debug.config"
# The tree's row: CONFIG_X=y lines to add, -CONFIG_X names to leave out.
delta=$(tree_field "$KVER" config)
[ "$delta" != - ] || delta=
add=$(echo "$delta" | tr ',' '\n' | grep -v '^-' || true)
gone=$(echo "$delta" | tr ',' '\n' | sed -n 's/^-//p' | tr '\n' ' ')
for o in $add; do
	echo "$o" | grep -qE '^CONFIG_[A-Za-z0-9_]+=.+$' || die "trees: '$o' for $KVER is not CONFIG_X=value"
done
# shellcheck disable=SC2086 # $frags: the fragments, one word each
want=$( { cat $frags; [ -z "$delta" ] || echo "$delta"; } | sha1sum | cut -d' ' -f1)
if [ -f "$TREE/.config" ] && [ "$(cat "$TREE/.config-stamp" 2>/dev/null)" = "$want" ]; then
	say "config up to date"
	exit 0
fi

# The build tree or, for an objects dir (O=), its source.
src=$TREE
[ ! -e "$TREE/source" ] || src=$TREE/source
for o in $gone; do
	echo "$o" | grep -qE '^CONFIG_[A-Za-z0-9_]+$' || die "trees: '-$o' for $KVER is not -CONFIG_X"
	! grep -rqsE --include='Kconfig*' "^[[:space:]]*(menu)?config[[:space:]]+${o#CONFIG_}[[:space:]]*$" "$src" ||
		die "trees: $KVER says its Kconfig has no $o, but it does"
done

rm -f "$TREE/.config-stamp"
echo "$add" >"$TREE/.config-tree"
say "tinyconfig + ${frags//"$TOP"\//}${add:+ + ./trees ($(echo "$add" | tr '\n' ' ' | sed 's/ $//'))}"
make -s -C "$TREE" tinyconfig >"$TREE/.config.log" 2>&1 || die "make tinyconfig failed (see $TREE/.config.log)"
# shellcheck disable=SC2086
(cd "$TREE" && ./scripts/kconfig/merge_config.sh -m .config $frags .config-tree) >>"$TREE/.config.log" 2>&1 ||
	die "merge_config.sh failed (see $TREE/.config.log)"
make -s -C "$TREE" olddefconfig >>"$TREE/.config.log" 2>&1 || die "make olddefconfig failed"

bad=
# shellcheck disable=SC2086 # $frags: the fragments, one word each
mapfile -t opts < <(sed -n 's/^\(CONFIG_[A-Za-z0-9_]*=.*\)$/\1/p' $frags "$TREE/.config-tree")
for opt in "${opts[@]}"; do
	case " $gone" in *" ${opt%%=*} "*) continue ;; esac
	case "$opt" in
	*=n) grep -q "^${opt%=n}=" "$TREE/.config" && bad="$bad $opt" ;;
	*) grep -qx "$opt" "$TREE/.config" || bad="$bad $opt" ;;
	esac
done
[ -z "$bad" ] || die "options lost by olddefconfig (missing dependency?):$bad"
echo "$want" >"$TREE/.config-stamp"
say "configured"
