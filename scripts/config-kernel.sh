#!/bin/bash
# Configure TREE: "make tinyconfig", then the fragments from configs/ merged
# with merge_config.sh.  All variants get the same fragments, so any
# difference between their test results comes from the source alone.
# Fails if an option asked for by a fragment did not survive olddefconfig
# (a missing dependency would otherwise silently drop a test feature).
#
# usage: config-kernel.sh TREE DEBUG(0|1)
set -eu
STEP=config
. "$(dirname "$0")/lib.sh"

TREE=${1:?usage: config-kernel.sh TREE DEBUG}
DEBUG=${2:-0}

frags="$TOP/configs/base.config"
[ "$DEBUG" = 1 ] && frags="$frags $TOP/configs/debug.config"
# shellcheck disable=SC2086
want=$(cat $frags | sha1sum | cut -d' ' -f1)
if [ -f "$TREE/.config" ] && [ "$(cat "$TREE/.config-stamp" 2>/dev/null)" = "$want" ]; then
	say "config up to date"
	exit 0
fi

rm -f "$TREE/.config-stamp"
say "tinyconfig + ${frags//"$TOP"\//}"
make -s -C "$TREE" tinyconfig >"$TREE/.config.log" 2>&1 || die "make tinyconfig failed (see $TREE/.config.log)"
# shellcheck disable=SC2086
(cd "$TREE" && ./scripts/kconfig/merge_config.sh -m .config $frags) >>"$TREE/.config.log" 2>&1 ||
	die "merge_config.sh failed (see $TREE/.config.log)"
make -s -C "$TREE" olddefconfig >>"$TREE/.config.log" 2>&1 || die "make olddefconfig failed"

bad=
# shellcheck disable=SC2086 # $frags: the fragments, one word each
mapfile -t opts < <(sed -n 's/^\(CONFIG_[A-Za-z0-9_]*=.*\)$/\1/p' $frags)
for opt in "${opts[@]}"; do
	case "$opt" in
	*=n) grep -q "^${opt%=n}=" "$TREE/.config" && bad="$bad $opt" ;;
	*) grep -qx "$opt" "$TREE/.config" || bad="$bad $opt" ;;
	esac
done
[ -z "$bad" ] || die "options lost by olddefconfig (missing dependency?):$bad"
echo "$want" >"$TREE/.config-stamp"
say "configured"
