# shellcheck shell=bash
# Comparing warnings before and after a patch (make kdoc, make gates), and
# running kernel-doc.  Sourced after lib.sh.

# The lines of file $2 that file $1 does not have, compared as multisets of
# "file: message": positions (":line:col", cocci's ":line:col-col",
# kernel-doc's "Warning: file:line message" from 7.3 on) and "line N" in
# messages do not count.  A missing file is empty.
new_lines() {
	_b=$1 _a=$2
	[ -f "$_b" ] || _b=/dev/null
	[ -f "$_a" ] || _a=/dev/null
	awk -v before="$_b" '
	function key(s,   f) {
		sub(/^Warning: /, "", s)
		sub(/^\.\//, "", s)
		if (match(s, /^[^ :]+:[0-9]+(:[0-9]+(-[0-9]+)?)?[: ]/)) {
			f = substr(s, 1, index(s, ":") - 1)
			s = f ":" substr(s, RLENGTH + 1)
		}
		gsub(/line [0-9]+/, "line N", s)
		return s
	}
	# Not FNR == NR: that is true all along when "before" is empty.
	FILENAME == before { n[key($0)]++; next }
	{ k = key($0); if (n[k] > 0) n[k]--; else print }' "$_b" "$_a"
}

# The kernel-doc options for the tree at $1: -none, with -Wall where its
# scripts/kernel-doc has it (6.12's has, 6.1's has not).
kdoc_opts() {
	if "$1/scripts/kernel-doc" -Wall -none /dev/null >/dev/null 2>&1; then
		echo "-none -Wall"
	else
		echo "-none"
	fi
}

# The warnings of kernel-doc $1 with options $2 (kdoc_opts) on file $4,
# run in directory $3 so that they name it as given.  -none exits 0
# whatever it warns about: another status is a crash, and a check that
# cannot run must not pass.
kdoc_warnings() {
	_kw_rc=0
	# shellcheck disable=SC2086
	_kw=$(cd "$3" && "$1" $2 "$4" 2>&1 >/dev/null) || _kw_rc=$?
	[ "$_kw_rc" -eq 0 ] ||
		die "kernel-doc failed ($_kw_rc) on $4: $(printf '%s\n' "$_kw" | tail -1)"
	[ -z "$_kw" ] || printf '%s\n' "$_kw"
}
