#!/bin/bash
# "make lint": shellcheck on every shell script of the repository and
# pyflakes on every Python script, each at zero findings.  A finding that
# is meant is silenced where it applies, by a "# shellcheck disable=SCnnnn"
# with its reason on the line before (.shellcheckrc: how sourced files are
# found).  Prints "ok" or "FAIL" per file, the findings of those that
# fail, and last "lint: N passed, N failed".
#
# usage: lint.sh
set -eu
STEP=lint
. "$(dirname "$0")/lib.sh"

command -v shellcheck >/dev/null || die "shellcheck is not installed (make setup)"
command -v pyflakes3 >/dev/null || die "pyflakes3 is not installed (make setup)"
cd "$TOP"

# The repository's files (what git tracks: not a build directory that O=
# put inside it), or all of them outside build/ in a copy that is not a
# git checkout.
files() {
	git ls-files -c 2>/dev/null ||
		find . -path ./build -prune -o -path ./.git -prune -o -type f -print | sed 's|^\./||'
}

# "sh" or "python" for a script, nothing for any other file.
kind() {
	case "$1" in
	*.sh) echo sh; return ;;
	*.py) echo python; return ;;
	esac
	case "$(head -c 64 "$1" | head -1)" in
	'#!'*python*) echo python ;;
	'#!'*sh) echo sh ;;
	esac
}

P=0 F=0
while read -r f; do
	[ -f "$f" ] || continue
	case "$(kind "$f")" in
	sh) out=$(shellcheck -x "$f" 2>&1) || true ;;
	python) out=$(pyflakes3 "$f" 2>&1) || true ;;
	*) continue ;;
	esac
	if [ -z "$out" ]; then
		P=$((P + 1))
		echo "ok   $f"
	else
		F=$((F + 1))
		echo "FAIL $f"
		printf '%s\n' "$out" | sed 's/^/    /'
	fi
done < <(files | sort)
[ $((P + F)) -gt 0 ] || die "found no script to check"
echo "lint: $P passed, $F failed"
[ "$F" -eq 0 ]
