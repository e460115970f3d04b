#!/bin/bash
# The commands under test run in "sh -c '...' - ARG..." with their own $1:
# shellcheck disable=SC2016
# pass and fail always succeed: "COND && pass ... || fail ..." is if-else.
# shellcheck disable=SC2015
# "make test-tooling": the tooling's own tests, on nothing but git and a
# scratch repository (no kernel tree, no network, nothing sent):
#  - the identity validator (lib-identity.sh: identity_problem) on good and bad
#    identities, and the mail gate: SEND=1 refuses a bad one;
#  - no file under patches/ carries an identity (From:, Signed-off-by:,
#    Co-developed-by:);
#  - the apply/export round trip (apply_patch, format-series.sh) gives the
#    files back byte for byte, notes for reviewers below "---" included,
#    also after "git commit --amend" and "git rebase";
#  - the mail form: From: and Signed-off-by: of the sender, no pipeline
#    identity, and "git am" of it gives the same tree.
#  - need_space: a step that would fill the disk stops first, named.
#  - which series is which (lib-series.sh): the cgroup namespace series,
#    the fixes series and the next series, their files, starts, change-ids
#    and versions, a next series without a fixes series refused; the
#    export of a series that starts on stock and of one that starts on
#    fixes (prerequisites); the next series end to end on a scratch tree
#    (prepare-variant.sh, make roundtrip, make check's steps).
#  - with the scripts of an extracted tree, when there is one:
#    checkpatch.sh checks the form of commit citations; mail.sh's
#    recipients (get_maintainer.pl per patch) and b4 change-id.
# Every assertion prints "ok" or "FAIL"; the last line is
# "test-tooling: N passed, N failed".
#
# usage: test-tooling.sh
set -eu
STEP=test-tooling
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-disk.sh"
. "$(dirname "$0")/lib-series.sh"

S=$(cd "$(dirname "$0")" && pwd)
TOP=$(dirname "$S")
# The scripts under test pick their series from CGNS_SERIES: the default.
unset CGNS_SERIES
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
P=0 F=0

pass() { P=$((P + 1)); echo "ok   $*"; }
fail() { F=$((F + 1)); echo "FAIL $*"; }
# check DESCRIPTION COMMAND...: the command must succeed
check() {
	_d=$1
	shift
	if "$@" >"$TMP/check.out" 2>&1; then pass "$_d"; else
		fail "$_d"
		sed 's/^/    /' "$TMP/check.out"
	fi
}

# ---- the guest's scripts parse (busybox sh runs them; a stray quote
# in run-tests' awk program breaks every boot) ----
for f in initramfs/init initramfs/run-tests fuzz/trinity.sh fuzz/stress.sh; do
	[ -f "$TOP/$f" ] || continue
	check "$f parses (sh -n)" sh -n "$TOP/$f"
done

# ---- the identity validator ----
good() {
	if _w=$(identity_problem "$1" "$2"); then pass "accepts '$1 <$2>'"
	else fail "accepts '$1 <$2>' (refused: $_w)"; fi
}
bad() {
	if _w=$(identity_problem "$1" "$2"); then fail "refuses '$1 <$2>' (accepted)"
	else pass "refuses '$1 <$2>': $_w"; fi
}
good "Jane Doe" "jane.doe@kernel.org"
good "José Müller" "jose@mueller-family.de"
good "A. U. Thor" "a.u.thor+lkml@mail.cs.example-university.edu"
good "Li Ci" "li.ci@huawei.com"
bad "" "jane@kernel.org"
bad "   " "jane@kernel.org"
bad "Jane Doe" ""
bad "Jane Doe" "jane"
bad "Jane Doe" "jane@"
bad "Jane Doe" "@kernel.org"
bad "Jane Doe" "jane@kernel"
bad "Jane Doe" "jane@kernel.org."
bad "Jane Doe" "jane@@kernel.org"
bad "Jane Doe" "jane doe@kernel.org"
bad "Jane Doe" "jane@example"
bad "Jane Doe" "jane@example.com"
bad "Jane Doe" "jane@example.org"
bad "Jane Doe" "jane@EXAMPLE.NET"
bad "Jane Doe" "jane@mail.example.com"
bad "Jane Doe" "jane@corp.example"
bad "Jane Doe" "jane@host.invalid"
bad "Jane Doe" "jane@lab.test"
bad "Jane Doe" "jane@box.localhost"
bad "Jane Doe" "jane@localhost"
bad "Jane Doe" "root@vm.localdomain"
bad "Jane Doe" "noreply@kernel.org"
bad "Jane Doe" "no-reply@kernel.org"
bad "Jane Doe" "12345+jane@users.noreply.github.com"
bad "Cgroupns Dev Team" "cgroupns-dev@kernel.org"
bad "Seed 9dbbeb5d maintainers" "maintainers@kernel.org"
bad "Build Pipeline" "build@kernel.org"
bad "Kernel Test Bot" "lkp@intel.com"
bad "dependabot[bot]" "support@github.com"
bad "Cgroupns Dev Team" "cgroupns-dev@example.org"
bad "Seed 9dbbeb5d maintainers" "maintainers@users.noreply.a-seed-9dbbeb5d.example"
bad "$PIPELINE_NAME" "$PIPELINE_EMAIL"
bad "Jane <Doe" "jane@kernel.org"

# ---- the mail gate: SEND=1 refuses without touching a tree ----
# gate NAME EMAIL SEND: status and stderr of "mail.sh --gate" as NAME <EMAIL>
gate() {
	_rc=0
	GIT_AUTHOR_NAME=$1 GIT_AUTHOR_EMAIL=$2 SEND=$3 "$S/mail.sh" --gate \
		>"$TMP/gate.out" 2>"$TMP/gate.err" || _rc=$?
}
gate "Cgroupns Dev Team" "cgroupns-dev@example.org" 1
if [ "$_rc" -ne 0 ] && [ "$(wc -l <"$TMP/gate.err")" -eq 1 ] &&
	grep -q '^ERROR \[mail\]: refusing to send as .*example\.org.*git config user\.name "Your Name"; git config user\.email you@yourdomain' "$TMP/gate.err"; then
	pass "SEND=1 with a placeholder identity: refused, one ERROR [mail] line saying how to set it"
else
	fail "SEND=1 with a placeholder identity: status $_rc, stderr: $(cat "$TMP/gate.err")"
fi
gate "Jane Doe" "" 1
[ "$_rc" -ne 0 ] && grep -q '^ERROR \[mail\]:' "$TMP/gate.err" &&
	pass "SEND=1 without an address: refused" ||
	fail "SEND=1 without an address: status $_rc, stderr: $(cat "$TMP/gate.err")"
gate "" "jane@kernel.org" 1
[ "$_rc" -ne 0 ] && grep -q '^ERROR \[mail\]:' "$TMP/gate.err" &&
	pass "SEND=1 without a name (git has no identity): refused" ||
	fail "SEND=1 without a name: status $_rc, stderr: $(cat "$TMP/gate.err")"
gate "Jane Doe" "jane.doe@kernel.org" 1
[ "$_rc" -eq 0 ] && [ ! -s "$TMP/gate.err" ] &&
	pass "SEND=1 with a person's identity: the gate lets it through" ||
	fail "SEND=1 with a person's identity: status $_rc, stderr: $(cat "$TMP/gate.err")"
gate "Cgroupns Dev Team" "cgroupns-dev@example.org" 0
[ "$_rc" -eq 0 ] &&
	pass "dry run (no SEND) with a placeholder identity: not refused" ||
	fail "dry run with a placeholder identity: status $_rc, stderr: $(cat "$TMP/gate.err")"

# ---- patches/ carries no identity ----
for f in "$TOP"/patches/*/*.patch "$TOP"/patches/base/*/*.patch \
	"$TOP"/patches/fixes/*/*.patch; do
	[ -f "$f" ] || continue
	if grep -n -E '^(From: |Signed-off-by:|Co-developed-by:)' "$f" >"$TMP/id.out"; then
		fail "no identity in ${f#"$TOP"/}: $(head -3 "$TMP/id.out" | tr '\n' ' ')(make refresh strips them; scripts/strip-identity.sh FILE)"
	else
		pass "no identity in ${f#"$TOP"/}"
	fi
done
for c in "$TOP"/patches/*/0000-cover-letter.patch "$TOP"/patches/fixes/*/0000-cover-letter.patch; do
	[ -f "$c" ] || continue
	if grep -q -E "^[^ ].* \([0-9]+\):$" "$c" &&
		! grep -q -E "^$SHORTLOG_HEADING \([0-9]+\):$" "$c"; then
		fail "${c#"$TOP"/}: the shortlog heading is '$SHORTLOG_HEADING (N):', no name"
	else
		pass "${c#"$TOP"/}: the shortlog heading carries no name"
	fi
done

# ---- apply/export round trip on a scratch repository ----
R=$TMP/repo
git init -q "$R"
(
	cd "$R"
	export GIT_AUTHOR_NAME="Alice Dev" GIT_AUTHOR_EMAIL="alice@kernel.org"
	export GIT_COMMITTER_NAME="$GIT_AUTHOR_NAME" GIT_COMMITTER_EMAIL="$GIT_AUTHOR_EMAIL"
	export GIT_AUTHOR_DATE="2026-01-02T03:04:05Z" GIT_COMMITTER_DATE="2026-01-02T03:04:05Z"
	printf 'one\ntwo\nthree\n' >a.c
	printf 'x\n' >b.c
	git add a.c b.c
	git commit -q -m "base"
	git tag base
	printf 'one\ntwo\nthree\nfour\n' >a.c
	git commit -q -a -m "a: add four" -m "Four comes after three.

Co-developed-by: Bob Dev <bob@kernel.org>
Signed-off-by: Bob Dev <bob@kernel.org>
Reviewed-by: Carol Rev <carol@kernel.org>
Signed-off-by: Alice Dev <alice@kernel.org>"
	git notes add -m "v2: four instead of 4.

checkpatch: FILE_PATH_CHANGES: covered by an existing F: line.
	an indented line

    four spaces, then # not a comment" HEAD
	printf 'y\n' >b.c
	git commit -q -a -m "b: x becomes y" -m "Signed-off-by: Alice Dev <alice@kernel.org>"
	printf 'z\n' >>b.c
	git commit -q -a -m "b: a subject that is long enough to be wrapped by the shortlog of the cover letter" \
		-m "No sign-off, one note line." -m "Signed-off-by: Alice Dev <alice@kernel.org>"
	git notes add -m "Only this." HEAD
) >"$TMP/setup.log" 2>&1 || { cat "$TMP/setup.log"; die "could not set up the scratch repository"; }

# "patches/" of the scratch series: its export with identities stripped,
# and a cover letter with a subject and a text.
COVER=/dev/null "$S/format-series.sh" "$R" "$TMP/p0" >/dev/null
"$S/strip-identity.sh" "$TMP"/p0/*.patch >"$TMP/stripped"
check "strip-identity.sh names what it removes" \
	grep -q 'removed Co-developed-by: Bob Dev' "$TMP/stripped"
awk '/^Subject: / { print "Subject: [PATCH 0/3] scratch series"; next }
	$0 == "*** BLURB HERE ***" { print "A text for reviewers.\n\nWith two  paragraphs (1):\n  - and a list."; next }
	{ print }' "$TMP/p0/0000-cover-letter.patch" >"$TMP/cover"
mv "$TMP/cover" "$TMP/p0/0000-cover-letter.patch"
check "stripped files carry no identity" \
	sh -c '! grep -E "^(From: |Signed-off-by:|Co-developed-by:)|Alice|Bob|Cgroupns" "$1"/*.patch' - "$TMP/p0"
check "strip-identity.sh keeps other trailers (Reviewed-by)" \
	grep -q '^Reviewed-by: Carol Rev' "$TMP/p0/0001-a-add-four.patch"
check "a message without trailers ends right before ---" \
	sh -c 'grep -B1 -x -- --- "$1" | head -1 | grep -qx "No sign-off, one note line."' - "$TMP"/p0/0003-*.patch
mkdir "$TMP/p0again"
cp "$TMP"/p0/*.patch "$TMP/p0again/"
"$S/strip-identity.sh" "$TMP"/p0again/*.patch >"$TMP/stripped2"
check "strip-identity.sh leaves identity-free files byte for byte" \
	sh -c '! [ -s "$1" ] && diff -r "$2" "$3"' - "$TMP/stripped2" "$TMP/p0" "$TMP/p0again"

# Apply them as prepare-variant.sh does, export them as refresh does.
W=$TMP/work
git -C "$R" worktree add -q --detach "$W" base
setup_build_repo "$R"
(
	pipeline_env
	for f in "$TMP"/p0/0*.patch; do
		case "$f" in *0000-cover-letter.patch) continue ;; esac
		apply_patch "$W" "$f"
	done
) >"$TMP/apply.log" 2>&1 || { cat "$TMP/apply.log"; die "apply_patch failed on the scratch series"; }
check "applied commits are the pipeline's" \
	sh -c '[ "$(git -C "$1" log --format="%an <%ae>|%cn <%ce>" base..HEAD | sort -u)" = "$2|$2" ]' - "$W" "$(pipeline_identity)"
check "the notes below --- became git notes (blank lines, indentation, # kept)" \
	sh -c 'git -C "$1" notes show HEAD~2 | grep -qx "    four spaces, then # not a comment" &&
		[ "$(git -C "$1" notes show HEAD~2 | sed -n 2p)" = "" ] &&
		! git -C "$1" notes show HEAD~1 2>/dev/null' - "$W"
roundtrip() {	# roundtrip DESCRIPTION: export W and compare with p0
	rm -rf "$TMP/p1"
	COVER=$TMP/p0/0000-cover-letter.patch "$S/format-series.sh" "$W" "$TMP/p1" >"$TMP/export.log" 2>&1 &&
		diff -ru "$TMP/p0" "$TMP/p1" >"$TMP/rt.diff" && pass "$1" ||
		{ fail "$1"; sed 's/^/    /' "$TMP/export.log" "$TMP/rt.diff" | head -40; }
}
roundtrip "export(apply(files)) == files, byte for byte (notes, no notes, cover letter)"
(cd "$W" && git commit -q --amend --no-edit) && roundtrip "the note survives git commit --amend"
(cd "$W" && git rebase -q --force-rebase base) && roundtrip "the notes survive git rebase"
check "the exported files carry no identity" \
	sh -c '! grep -E "^(From: |Signed-off-by:)|pipeline|Pipeline" "$1"/*.patch' - "$TMP/p1"

# A series that starts on stock (the fixes series) exports stock..HEAD,
# with the stock commit as its base-commit.
git -C "$W" tag stock HEAD~2
rm -rf "$TMP/pf"
check "format-series.sh with CGNS_SERIES=fixes: the commits on top of stock, base-commit the stock commit" \
	sh -c 'CGNS_SERIES=fixes COVER=/dev/null "$1/format-series.sh" "$2" "$3" &&
		[ "$(ls "$3" | tr "\n" " ")" = "0000-cover-letter.patch 0001-b-x-becomes-y.patch 0002-b-a-subject-that-is-long-enough-to-be-wrapped-by-the.patch " ] &&
		grep -qx "base-commit: $(git -C "$2" rev-parse stock)" "$3/0000-cover-letter.patch"' - "$S" "$W" "$TMP/pf"
# A series that starts on another (next on fixes) exports fixes..HEAD; its
# base-commit is the stock commit, then b4's change-id, then the fixes
# commits as prerequisite-patch-id: lines (git's stable patch ids).
git -C "$W" tag fixes HEAD~1
{ cat "$TMP/p0/0000-cover-letter.patch"; printf '%s\n' "base-commit: 0123" "change-id: 20260101-next-0123456789ab"; } >"$TMP/ncover"
rm -rf "$TMP/pn"
check "format-series.sh with CGNS_SERIES=next: the commits on top of fixes, base-commit stock, change-id, the fixes as prerequisites" \
	sh -c 'CGNS_SERIES=next COVER=$4 "$1/format-series.sh" "$2" "$3" &&
		[ "$(ls "$3" | tr "\n" " ")" = "0000-cover-letter.patch 0001-b-a-subject-that-is-long-enough-to-be-wrapped-by-the.patch " ] &&
		tail -3 "$3/0000-cover-letter.patch" | tr "\n" "|" |
			grep -qx "base-commit: $(git -C "$2" rev-parse stock)|change-id: 20260101-next-0123456789ab|prerequisite-patch-id: $(git -C "$2" show fixes | git patch-id --stable | cut -d" " -f1)|"' \
	- "$S" "$W" "$TMP/pn" "$TMP/ncover"
# A start tag that is not below HEAD (another tree made it from other
# fixes) would export more than the series: refused.
git -C "$W" tag -f fixes "$(git -C "$W" commit-tree -p stock -m other 'HEAD^{tree}')" >/dev/null
check "format-series.sh: a start tag that is not below HEAD is refused in one ERROR line" \
	sh -c '! CGNS_SERIES=next COVER=/dev/null "$1/format-series.sh" "$2" "$3" >"$3.out" 2>&1 &&
		[ "$(wc -l <"$3.out")" = 1 ] && grep -q "^ERROR \[format\]: the tag fixes is not below HEAD in $2" "$3.out"' \
	- "$S" "$W" "$TMP/pn2"
git -C "$R" tag -d stock fixes >/dev/null

# ---- the mail form ----
SENDER_NAME="José Müller" SENDER_EMAIL="jose@kernel.org" \
	COVER=$TMP/p0/0000-cover-letter.patch "$S/format-series.sh" "$W" "$TMP/mail" -v 2 --thread=shallow >/dev/null 2>&1
check "mail: every mail is from the sender (RFC 2047 encoded)" \
	sh -c '[ "$(grep -c "^From: =?UTF-8?q?Jos=C3=A9=20M=C3=BCller?= <jose@kernel.org>$" "$1"/*.patch | grep -c ":1$")" = 4 ]' - "$TMP/mail"
check "mail: every patch is signed off once by the sender, right before ---" \
	sh -c 'for f in "$1"/v2-000[1-9]*.patch; do
		[ "$(grep -c -x "Signed-off-by: José Müller <jose@kernel.org>" "$f")" = 1 ] &&
		grep -B1 -x -- --- "$f" | head -1 | grep -qx "Signed-off-by: José Müller <jose@kernel.org>" || exit 1
	done' - "$TMP/mail"
check "mail: no pipeline identity, no in-body From:" \
	sh -c '! grep -i -e pipeline -e "^From: [^=]" "$1"/*.patch' - "$TMP/mail"
check "mail: the notes are below ---" \
	grep -qx '    checkpatch: FILE_PATH_CHANGES: covered by an existing F: line.' "$TMP/mail/v2-0001-a-add-four.patch"
check "mail: the cover letter is signed by the sender's name, in UTF-8" \
	sh -c 'grep -qx "José Müller (3):" "$1" && grep -qx "Content-Type: text/plain; charset=UTF-8" "$1"' - "$TMP/mail/v2-0000-cover-letter.patch"
git -C "$R" worktree add -q --detach "$TMP/am" base
check "mail: git am of the mbox gives the same tree" \
	sh -c 'cat "$1"/*.patch | (. "$3/lib.sh"; . "$3/lib-identity.sh"; pipeline_env; git -C "$2" am -q --empty=drop) &&
		[ "$(git -C "$2" rev-parse "HEAD^{tree}")" = "$(git -C "$4" rev-parse "HEAD^{tree}")" ] &&
		[ "$(git -C "$2" log -1 --format=%an)" = "José Müller" ]' - "$TMP/mail" "$TMP/am" "$S" "$W"

# ---- the form checkpatch sees ----
f=$TMP/p0/0001-a-add-four.patch
mailed_form "$f" "Jane Doe" "jane.doe@kernel.org" >"$TMP/mailed"
check "checkpatch form: From: header and a sign-off after the other trailers, nothing else changed" \
	sh -c '[ "$(sed -n 2p "$1")" = "From: Jane Doe <jane.doe@kernel.org>" ] &&
		grep -B2 -x -- --- "$1" | head -2 | tr "\n" "|" | grep -qx "Reviewed-by: Carol Rev <carol@kernel.org>|Signed-off-by: Jane Doe <jane.doe@kernel.org>|" &&
		diff "$2" "$1" | grep "^[<>]" | tr "\n" "|" | grep -qx "> From: Jane Doe <jane.doe@kernel.org>|> Signed-off-by: Jane Doe <jane.doe@kernel.org>|"' - "$TMP/mailed" "$f"
mailed_form "$TMP"/p0/0003-*.patch "Jane Doe" "jane.doe@kernel.org" >"$TMP/mailed"
check "checkpatch form: a message without trailers gets a blank line, then the sign-off" \
	sh -c 'grep -B3 -x -- --- "$1" | head -3 | tr "\n" "|" | grep -qx "No sign-off, one note line.||Signed-off-by: Jane Doe <jane.doe@kernel.org>|"' - "$TMP/mailed"
mailed_form "$TMP/p0/0002-b-x-becomes-y.patch" "Jane Doe" "jane.doe@kernel.org" >"$TMP/mailed"
check "checkpatch form: a message of a subject alone gets the sign-off after the headers" \
	sh -c 'grep -B2 -x -- --- "$1" | head -2 | tr "\n" "|" | grep -qx "|Signed-off-by: Jane Doe <jane.doe@kernel.org>|"' - "$TMP/mailed"

# ---- checkpatch.sh: the form of commit citations is checked ----
# With the checkpatch.pl of an extracted tree (skipped without one), run
# in a git repository that does not hold the cited commit, as the
# extracted trees are: checkpatch must not look the id up (a failed
# lookup turns its GIT_COMMIT_ID check off), so that a citation without
# its ("subject") fails here as it does for a maintainer.
cpt=
for k in $(known_trees); do
	d=${CGNS_BUILD:-$TOP/build}/$k/stock
	[ -f "$d/scripts/checkpatch.pl" ] && { cpt=$d; break; }
done
if [ -z "$cpt" ]; then
	echo "skip checkpatch.sh citation and mail.sh recipient tests: no extracted tree (make extract)"
else
	T=$TMP/cptree
	mkdir -p "$T/scripts" "$T/include" "$TMP/cp"
	for x in checkpatch.pl spelling.txt const_structs.checkpatch; do
		cp "$cpt/scripts/$x" "$T/scripts/"
	done
	git init -q "$T"
	cat >"$TMP/cp/good.patch" <<'PATCH'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
Date: Thu, 3 Dec 2026 14:00:00 +0000
Subject: [PATCH] foo: return 1 from foo()

Commit 0123456789ab ("foo: add foo()") made foo() return 0, which its
callers take for an error.
---
 kernel/foo.c | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)

diff --git a/kernel/foo.c b/kernel/foo.c
index 1111111..2222222 100644
--- a/kernel/foo.c
+++ b/kernel/foo.c
@@ -1,4 +1,4 @@
 int foo(void)
 {
-	return 0;
+	return 1;
 }
PATCH
	sed 's/^Commit 0123456789ab ("foo: add foo()") made/Commit 0123456789ab made/' \
		"$TMP/cp/good.patch" >"$TMP/cp/bad.patch"
	check "checkpatch.sh: a cited commit of unknown id, in the right form, passes" \
		"$S/checkpatch.sh" 6.1 "$T" "$TMP/cp/good.patch"
	check "checkpatch.sh: a citation without its (\"subject\") fails, named by the file's line (${cpt#"$TOP"/})" \
		sh -c '! "$1/checkpatch.sh" 6.1 "$2" "$3" >"$4" 2>&1 &&
			grep -q "^FAIL bad.patch: ERROR:GIT_COMMIT_ID" "$4" &&
			grep -q "/bad.patch:5: ERROR:GIT_COMMIT_ID:" "$4"' - "$S" "$T" "$TMP/cp/bad.patch" "$TMP/cp.out"

	# mail.sh's recipients, with that tree's get_maintainer.pl on a
	# scratch tree: To: the cgroup entry's M:, per patch Cc:, the union
	# on the cover letter; a K: that matches only a diff's context (the
	# selftests Makefile lists every target) Cc:s nobody.
	G=$TMP/gmtree
	mkdir -p "$G/scripts" "$G/kernel/cgroup" "$G/tools/testing/selftests"
	for x in Documentation arch drivers fs init ipc lib include; do mkdir -p "$G/$x"; touch "$G/$x/.keep"; done
	touch "$G/COPYING" "$G/CREDITS" "$G/Kbuild" "$G/Makefile" "$G/README"
	cp "$cpt/scripts/get_maintainer.pl" "$G/scripts/"
	cat >"$G/MAINTAINERS" <<'MAINT'
CONTROL GROUP (CGROUP)
M:	Tejun Heo <tj@kernel.org>
M:	Michal Koutný <mkoutny@suse.com>
L:	cgroups@vger.kernel.org
S:	Maintained
F:	kernel/cgroup/

KERNEL SELFTEST FRAMEWORK
M:	Shuah Khan <shuah@kernel.org>
L:	linux-kselftest@vger.kernel.org
S:	Maintained
F:	tools/testing/selftests/

PSTORE FILESYSTEM
M:	Kees Cook <kees@kernel.org>
S:	Maintained
F:	fs/pstore/
K:	\b(pstore|ramoops)

THE REST
M:	Linus Torvalds <torvalds@linux-foundation.org>
L:	linux-kernel@vger.kernel.org
S:	Buried alive in reporters
F:	*
F:	*/
MAINT
	printf 'TARGETS += cgroup\nTARGETS += pstore\n' >"$G/tools/testing/selftests/Makefile"
	printf 'int a;\n' >"$G/kernel/cgroup/a.c"
	(
		cd "$G"
		git init -q . && git config user.name "Alice Dev" && git config user.email alice@kernel.org
		git add -A && git commit -q -m base && git tag base
		printf 'int a = 1;\n' >kernel/cgroup/a.c
		git commit -q -a -m "cgroup: a is 1" -m "Because."
		printf 'TARGETS += cgroup\nTARGETS += cgroupns\nTARGETS += pstore\n' >tools/testing/selftests/Makefile
		git commit -q -a -m "selftests: add cgroupns" -m "Tests."
		printf 'int a = 2;\n' >kernel/cgroup/a.c
		git commit -q -a -m "cgroup: a is 2" -m "Because." -m "Cc: stable@vger.kernel.org # 5.7+"
	) >"$TMP/gm.log" 2>&1 || { cat "$TMP/gm.log"; die "could not set up the get_maintainer scratch tree"; }
	GIT_AUTHOR_NAME="Jane Doe" GIT_AUTHOR_EMAIL="jane.doe@kernel.org" \
		"$S/mail.sh" 6.1 "$G" "$TMP/mailout" 1 >"$TMP/mail.out" 2>&1 || cat "$TMP/mail.out"
	M=$TMP/mailout/patches
	hdr() {	# hdr FILE NAME: header NAME of mail FILE, unfolded
		awk -v n="$2: " '/^$/ { exit } index($0, n) == 1 { h = 1; v = $0; next }
			h && /^[ \t]/ { v = v " " $0; next } { h = 0 } END { print v }' "$1"
	}
	to_ok=1
	for f in "$M"/*.patch; do
		[ "$(hdr "$f" To)" = 'To: Tejun Heo <tj@kernel.org>,     "Michal Koutný" <mkoutny@suse.com>' ] || to_ok=0
	done
	if [ "$to_ok" = 1 ]; then pass "mail: To: of every mail is the cgroup entry's M: people"
	else fail "mail: To: of every mail is the cgroup entry's M: people: $(hdr "$M/0001-cgroup-a-is-1.patch" To)"; fi
	c1=$(hdr "$M/0001-cgroup-a-is-1.patch" Cc) c2=$(hdr "$M/0002-selftests-add-cgroupns.patch" Cc)
	c0=$(hdr "$M/0000-cover-letter.patch" Cc)
	if [ "$c1" = "Cc: cgroups@vger.kernel.org,     linux-kernel@vger.kernel.org" ]; then
		pass "mail: a cgroup patch Cc:s the cgroup list and LKML"
	else fail "mail: a cgroup patch: $c1"; fi
	case "$c2" in
	*kees@*) fail "mail: pstore Cc'd for a context line of the selftests Makefile: $c2" ;;
	*shuah@kernel.org*linux-kselftest@*)
		pass "mail: the selftests patch Cc:s the selftests people, not pstore (K: on +/- lines only)" ;;
	*) fail "mail: the selftests patch: $c2" ;;
	esac
	c3=$(hdr "$M/0003-cgroup-a-is-2.patch" Cc)
	if [ "$c3" = "Cc: cgroups@vger.kernel.org,     linux-kernel@vger.kernel.org,     stable@vger.kernel.org" ]; then
		pass "mail: a Cc: trailer is a recipient without its # comment (stable's 5.7+)"
	else fail "mail: a Cc: trailer with a # comment: $c3"; fi
	if [ "$c0" = "Cc: cgroups@vger.kernel.org,     linux-kernel@vger.kernel.org,     Shuah Khan <shuah@kernel.org>,     linux-kselftest@vger.kernel.org,     stable@vger.kernel.org" ]; then
		pass "mail: the cover letter Cc:s the union"
	else fail "mail: the cover letter: $c0"; fi
	check "mail: the cover letter ends with base-commit and b4's change-id" \
		sh -c 'tail -2 "$1" | tr "\n" "|" | grep -qx "base-commit: [0-9a-f]\{40\}|change-id: $2|"' \
		- "$M/0000-cover-letter.patch" "$(series_change_id 6.1)"
	check "mail: the dry run names each mail's Cc:" \
		grep -q '^\[mail .*\]   0002  Cc (4): cgroups@vger.kernel.org, shuah@kernel.org, linux-kselftest@vger.kernel.org, linux-kernel@vger.kernel.org$' "$TMP/mail.out"
fi

# ---- which series is which (lib-series.sh) ----
# series NAME...: the functions' output for the cgroup namespace series
# (no CGNS_SERIES), the fixes series by argument and by CGNS_SERIES.
check "series: a tree's is patches/KVER/, on base" \
	bash -c '. "$1/lib.sh"; . "$1/lib-series.sh"
		[ "$(series_file 6.1)" = "$TOP/patches/6.1/series" ] && [ "$(series_dir 6.1)" = "$TOP/patches/6.1" ] &&
		[ "$(series_file 6.12)" = "$TOP/patches/6.12/series" ] && [ "$(series_dir 6.12 patched)" = "$TOP/patches/6.12" ] &&
		[ "$(series_start)" = base ]' - "$S"
check "series: a fixes series is patches/fixes/KVER/, on stock, [PATCH i/n] (by argument and by CGNS_SERIES)" \
	bash -c '. "$1/lib.sh"; . "$1/lib-series.sh"
		[ "$(series_file 6.12 fixes)" = "$TOP/patches/fixes/6.12/series" ] &&
		[ "$(series_dir 6.1 fixes)" = "$TOP/patches/fixes/6.1" ] &&
		[ "$(series_start fixes)" = stock ] &&
		[ "$(CGNS_SERIES=fixes series_dir 6.12)" = "$TOP/patches/fixes/6.12" ] &&
		[ "$(CGNS_SERIES=fixes series_start)" = stock ] &&
		[ "$(series_args 6.12 fixes)" = "KVER=6.12 VARIANT=fixes" ]' - "$S"
check "series: a next series is patches/next/KVER/, on fixes, based on stock (by argument and by CGNS_SERIES)" \
	bash -c '. "$1/lib.sh"; . "$1/lib-series.sh"
		[ "$(series_of next)" = next ] && [ "$(CGNS_SERIES=next series_of)" = next ] &&
		[ "$(series_file 7.3 next)" = "$TOP/patches/next/7.3/series" ] &&
		[ "$(series_dir 7.3 next)" = "$TOP/patches/next/7.3" ] &&
		[ "$(CGNS_SERIES=next series_dir 6.12)" = "$TOP/patches/next/6.12" ] &&
		[ "$(series_start next)" = fixes ] && [ "$(CGNS_SERIES=next series_start)" = fixes ] &&
		[ "$(series_base next)" = stock ] && [ "$(CGNS_SERIES=next series_base)" = stock ] &&
		[ "$(series_base fixes)" = stock ] && [ "$(series_base)" = base ] &&
		[ "$(series_title 7.3 next)" = "the 7.3 next series" ] &&
		[ "$(CGNS_SERIES=next series_title 7.3)" = "the 7.3 next series" ] &&
		[ "$(series_title 6.12 fixes)" = "the 6.12 fixes series" ] && [ "$(series_title 6.1)" = "the 6.1 series" ] &&
		[ "$(series_args 7.3 next)" = "KVER=7.3 VARIANT=next" ] &&
		[ "$(CGNS_SERIES=next series_args 7.3)" = "KVER=7.3 VARIANT=next" ] && [ "$(series_args 6.1)" = KVER=6.1 ]' - "$S"
check "series: an unknown series is one ERROR line naming the three" \
	bash -c '. "$1/lib.sh"; . "$1/lib-series.sh"
		! out=$(series_dir 7.3 nxt 2>&1) && [ "$(echo "$out" | wc -l)" = 1 ] &&
		echo "$out" | grep -q "^ERROR \[.*\]: unknown series .nxt. (patched: .*; fixes: .*; next: the next series)$"' - "$S"
# A tree's series and the patches under each one's start (fixtures: tree
# 9.8 with a fixes and a next series, 9.9 with a next series alone).
for d in base/9.8 9.8 fixes/9.8 next/9.8 next/9.9; do
	mkdir -p "$TMP/nx/patches/$d"
	printf '%s\n' 0001-x.patch >"$TMP/nx/patches/$d/series"
	touch "$TMP/nx/patches/$d/0001-x.patch"
done
check "series: the start of each series is made of the base fixture, nothing, the fixes series" \
	bash -c '. "$1/lib.sh"; . "$1/lib-series.sh"; TOP=$2
		[ "$(start_patches 9.8)" = "$2/patches/base/9.8/0001-x.patch" ] &&
		[ -z "$(start_patches 9.8 fixes)" ] &&
		[ "$(start_patches 9.8 next)" = "$2/patches/fixes/9.8/0001-x.patch" ] &&
		[ "$(CGNS_SERIES=next start_patches 9.8)" = "$2/patches/fixes/9.8/0001-x.patch" ]' - "$S" "$TMP/nx"
check "series: a tree with a fixes and a next series has three series, patched first" \
	bash -c '. "$1/lib.sh"; . "$1/lib-series.sh"; TOP=$2
		[ "$(series_variants 9.8 | tr "\n" " ")" = "patched fixes next " ] && check_series 9.8 next &&
		[ "$(series_variants 9.7 | tr "\n" " ")" = "patched " ]' - "$S" "$TMP/nx"
mkdir -p "$TMP/nx/patches/fixes/9.6"
printf '%s\n' 0001-x.patch >"$TMP/nx/patches/fixes/9.6/series"
check "series: test_core comes from the next tree, else the fixes tree, else none (test_core_series)" \
	bash -c '. "$1/lib.sh"; . "$1/lib-series.sh"; TOP=$2
		[ "$(test_core_series 9.8)" = next ] &&
		[ "$(test_core_series 9.6)" = fixes ] &&
		[ -z "$(test_core_series 9.7)" ]' - "$S" "$TMP/nx"
check "series: a next series without a fixes series is one ERROR line (check_series, series_variants)" \
	bash -c '. "$1/lib.sh"; . "$1/lib-series.sh"; TOP=$2
		for f in "check_series 9.9 next" "series_variants 9.9" "CGNS_SERIES=next check_series 9.9"; do
			! out=$(eval "$f" 2>&1) && [ "$(echo "$out" | grep -c .)" = 1 ] &&
			echo "$out" | grep -qx "ERROR \[.*\]: 9.9 has a next series but no fixes series (no patches/fixes/9.9/series): a next series goes on top of the tree.s fixes series" || exit 1
		done' - "$S" "$TMP/nx"
check "series: a tree without a next series refuses it in one ERROR line" \
	bash -c '. "$1/lib.sh"; . "$1/lib-series.sh"; TOP=$2
		! out=$(check_series 9.7 next 2>&1) && [ "$(echo "$out" | wc -l)" = 1 ] &&
		echo "$out" | grep -qx "ERROR \[.*\]: 9.7 has no next series (no patches/next/9.7/series; only a tree with one has VARIANT=next)"' - "$S" "$TMP/nx"
# The next series end to end on a scratch tree 9.9 (a copy of the
# scripts, whose TOP is X): its files exported from commits made by hand,
# then prepare-variant.sh makes the fixes and the next tree from them and
# refresh.sh --check (make roundtrip) exports each series again.
X=$TMP/e2e
mkdir -p "$X/scripts" "$X/build/9.9/stock"
cp "$S"/*.sh "$S"/*.py "$X/scripts/"
printf '9.9\tlinux-source-9.9\thost\t-\n' >"$X/trees"
(
	cd "$X/build/9.9/stock"
	pipeline_env
	git init -q . && printf 'one\n' >a.c && printf 'two\n' >b.c && git add a.c b.c
	git commit -q -m stock && git tag stock
	git worktree add -q --detach "$TMP/e2ew" stock && cd "$TMP/e2ew"
	printf 'one\n1\n' >a.c && git commit -q -a -m "a: the first fix" && git tag fixes
	printf 'two\n2\n' >b.c && git commit -q -a -m "b: the next change"
	git notes add -m "v2: two lines." HEAD
	printf 'two\n2\n3\n' >b.c && git commit -q -a -m "b: another next change"
	tip=$(git rev-parse HEAD)
	git checkout -q fixes
	mkdir -p "$X/patches/fixes/9.9" "$X/patches/next/9.9"
	CGNS_SERIES=fixes COVER=/dev/null "$X/scripts/format-series.sh" . "$X/patches/fixes/9.9"
	git checkout -q "$tip"
	CGNS_SERIES=next COVER=/dev/null "$X/scripts/format-series.sh" . "$X/patches/next/9.9"
	for d in fixes next; do exported_series "$X/patches/$d/9.9" >"$TMP/e2e.series" && mv "$TMP/e2e.series" "$X/patches/$d/9.9/series"; done
	cd "$X/build/9.9/stock" && git worktree remove --force "$TMP/e2ew" && git tag -d fixes
) >"$TMP/e2e.log" 2>&1 || { cat "$TMP/e2e.log"; die "could not set up the next series' scratch tree"; }
export CGNS_TREES=$X/trees DISK_VARIANT_MIB=1
check "prepare-variant.sh next: stock, the fixes, the next series; the fixes commits are the fixes tree's, tagged fixes" \
	sh -c '"$1/prepare-variant.sh" 9.9 fixes "$2/fixes" && "$1/prepare-variant.sh" 9.9 next "$2/next" &&
		[ "$(git -C "$2/next" rev-list --count stock..HEAD)" = 3 ] &&
		[ "$(git -C "$2/next" rev-parse fixes)" = "$(git -C "$2/fixes" rev-parse HEAD)" ] &&
		[ "$(git -C "$2/next" log -1 --format=%s fixes)" = "a: the first fix" ] &&
		[ "$(git -C "$2/next" notes show HEAD~1)" = "v2: two lines." ]' - "$X/scripts" "$X/build/9.9"
check "refresh.sh --check (make roundtrip) of the fixes and the next series: what the trees export is the files" \
	sh -c 'CGNS_SERIES=fixes "$1/refresh.sh" --check 9.9 "$2/fixes" && CGNS_SERIES=next "$1/refresh.sh" --check 9.9 "$2/next"' \
	- "$X/scripts" "$X/build/9.9"
# make check of a tree with a next series: its kernel right after the
# fixes kernel, its series checks after the fixes series' (a make that
# writes down what it is asked and passes).
printf '%s\n' '#!/bin/sh' 'shift 3; echo "$*" >>"$CK_LOG"' >"$TMP/logmake"
chmod +x "$TMP/logmake"
printf '%s\n' "check-variant VARIANT=stock" "check-variant VARIANT=base" "check-variant VARIANT=patched" \
	"check-variant VARIANT=fixes" "check-variant VARIANT=next" "check-variant VARIANT=patched DEBUG=1" \
	kselftest-tar check-debian checkpatch kdoc roundtrip mail \
	"checkpatch VARIANT=fixes" "kdoc VARIANT=fixes" "roundtrip VARIANT=fixes" "mail VARIANT=fixes" \
	"checkpatch VARIANT=next" "kdoc VARIANT=next" "roundtrip VARIANT=next" "mail VARIANT=next" test-judge |
	sed 's/$/ KVER=9.9/' >"$TMP/ck.want"
check "make check KVER=9.9: the next kernel after the fixes kernel, the next series' checks after the fixes'; the default: no kernel" \
	sh -c 'export CK_LOG=$2/ck.log MAKE=$3 DISK_TREE_MIB=1 DISK_DEBUG_MIB=1 DISK_DEBIAN_MIB=1
		"$1/check.sh" "$2/ckb" 9.9 >"$2/ck.out" 2>&1 && grep -qx "  9.9 next checkpatch: ok" "$2/ck.out" &&
		printf "%s\n" test-tooling lint >>"$2/ck.want" && diff "$2/ck.want" "$CK_LOG" &&
		rm "$CK_LOG" && "$1/check.sh" "$2/ckb" 9.9/series >"$2/ck.out" 2>&1 &&
		! grep -v -e "^checkpatch" -e "^kdoc" -e "^roundtrip" -e "^mail" -e "^test-" -e "^lint" "$CK_LOG" &&
		grep -qx "checkpatch VARIANT=next KVER=9.9" "$CK_LOG"' \
	- "$X/scripts" "$TMP" "$TMP/logmake"
mv "$X/patches/fixes" "$X/patches/fixes.off"
check "prepare-variant.sh next on a tree without a fixes series: one ERROR line" \
	sh -c '! "$1/prepare-variant.sh" 9.9 next "$2/next" >"$2/nofixes.out" 2>&1 && [ "$(wc -l <"$2/nofixes.out")" = 1 ] &&
		grep -q "^ERROR \[prepare-variant\]: 9.9 has a next series but no fixes series" "$2/nofixes.out"' \
	- "$X/scripts" "$X/build/9.9"
unset CGNS_TREES DISK_VARIANT_MIB

# series_version: one more than the newest "Changes since vN:" of the
# cover letter, 1 without one (fixtures: tree 9.9, its fixes series).
mkdir -p "$TMP/sv/patches/9.9" "$TMP/sv/patches/fixes/9.9"
printf '%s\n' 'Subject: [PATCH 0/2] x' '' 'Changes since v3:' ' - a' '' 'Changes since v2:' ' - b' \
	'' 'Changes since v12 of another series: no' >"$TMP/sv/patches/9.9/0000-cover-letter.patch"
printf '%s\n' 'Subject: [PATCH 0/1] y' '' 'What changes since v1: nothing' >"$TMP/sv/patches/fixes/9.9/0000-cover-letter.patch"
check "series: the version is one more than the cover letter's newest \"Changes since vN:\", 1 without one" \
	bash -c '. "$1/lib.sh"; . "$1/lib-series.sh"
		[ "$(TOP=$2 series_version 9.9)" = 4 ] && [ "$(TOP=$2 series_version 9.9 fixes)" = 1 ]' - "$S" "$TMP/sv"

check "series: every series' cover letter has a b4 change-id in b4's form, and no two are the same" \
	bash -c '. "$1/lib.sh"; . "$1/lib-series.sh"
		n=0 ids=
		for k in $(known_trees); do for s in $(series_variants "$k"); do
			[ -f "$(series_file "$k" "$s")" ] || continue
			i=$(series_change_id "$k" "$s") || exit 1
			echo "$i" | grep -qE "^[0-9]{8}-[a-z0-9-]+-[0-9a-f]{12}$" || exit 1
			n=$((n + 1)) ids="$ids $i"
		done; done
		[ "$n" -ge 3 ] && [ "$(printf "%s\n" $ids | sort -u | wc -l)" = "$n" ]' - "$S"
check "series: a cover letter without a change-id: line is one ERROR line naming it" \
	bash -c '. "$1/lib.sh"; . "$1/lib-series.sh"
		mkdir -p "$2/patches/9.9"; printf "x\n\nbase-commit: 1234\n" >"$2/patches/9.9/0000-cover-letter.patch"
		! out=$(TOP=$2 series_change_id 9.9 2>&1) && [ "$(echo "$out" | wc -l)" = 1 ] &&
		echo "$out" | grep -q "^ERROR \[.*\]: patches/9.9/0000-cover-letter.patch has no change-id: line"' - "$S" "$TMP/cid"

# ---- the trees (./trees) ----
check "trees: every row of ./trees has a package, a suite and a config field" \
	bash -c '. "$1/lib.sh"; n=0
		for k in $(known_trees); do
			check_kver "$k" && tree_field "$k" package | grep -q "^linux-source-" &&
				tree_field "$k" suite >/dev/null && tree_field "$k" config >/dev/null || exit 1
			n=$((n + 1))
		done; [ "$n" -ge 2 ]' - "$S"
# A fixture of rows: a tree whose name is a prefix (and a number) of
# another's, a row with a field missing, a row twice.
cat >"$TMP/trees" <<'ROWS'
# KVER PACKAGE SUITE CONFIG
6.1	linux-source-6.1	host	-
6.10	linux-source-6.10	some-suite	CONFIG_A=y,-CONFIG_PROC_SYSCTL
9.0	linux-source-9.0	host
9.1	linux-source-9.1	host	-
9.1	linux-source-9.1b	host	-
ROWS
check "trees: KVERs are strings (6.1 is not 6.10), a short or repeated row is one ERROR line" \
	bash -c '. "$1/lib.sh"; export CGNS_TREES=$2
		[ "$(tree_field 6.1 package)" = linux-source-6.1 ] && [ "$(tree_field 6.10 suite)" = some-suite ] &&
		for k in 9.0 9.1; do
			! out=$(tree_field "$k" package 2>&1) && [ "$(echo "$out" | wc -l)" = 1 ] &&
				echo "$out" | grep -q "^ERROR \[.*\]: trees: no single row .$k. with a field .package." || exit 1
		done' - "$S" "$TMP/trees"
check "trees: an unknown KVER is one ERROR line listing the known ones" \
	bash -c '! out=$(. "$1/lib.sh"; CGNS_TREES=$2 check_kver 6 2>&1) && [ "$(echo "$out" | wc -l)" = 1 ] &&
		echo "$out" | grep -q "^ERROR \[.*\]: unknown KVER .6. (supported: 6.1 6.10 9.0 9.1 9.1; see ./trees)$"' - "$S" "$TMP/trees"
check "trees: a source from an unreachable archive is one ERROR line and leaves only the lock" \
	sh -c '! CGNS_TREES=$3 CGNS_MIRROR=http://127.0.0.1:9/debian CGNS_CACHE=$2/cache "$1/fetch-source.sh" 6.10 >"$2/f.out" 2>&1 &&
		[ "$(grep -c ^ERROR "$2/f.out")" = 1 ] && grep -q "^ERROR \[fetch\]: apt-get update of some-suite failed: is http://127.0.0.1:9/debian reachable?" "$2/f.out" &&
		[ "$(ls -A "$2/cache/src")" = .linux-source-6.10.lock ]' - "$S" "$TMP" "$TMP/trees"
check "trees: config-kernel.sh refuses a -CONFIG_X of its row that the tree's Kconfig still has" \
	sh -c 'mkdir -p "$2/kc" && printf "menu \"x\"\n  config PROC_SYSCTL \n\tbool\n" >"$2/kc/Kconfig" &&
		! CGNS_TREES=$3 "$1/config-kernel.sh" 6.10 "$2/kc" 0 >"$2/kc.out" 2>&1 &&
		grep -qx "ERROR \[config\]: trees: 6.10 says its Kconfig has no CONFIG_PROC_SYSCTL, but it does" "$2/kc.out" &&
		[ ! -e "$2/kc/.config" ]' - "$S" "$TMP" "$TMP/trees"

# ---- the guests' KTAP filter: a result line glued to a diagnostic ----
printf '%s\n' 'TAP version 13' '1..3' 'ok 1 test_a' '# Expect C (4000) > B (4000)not ok 2 test_b' \
	'# expected ok 1 thing' 'ok 3 test_c # SKIP why' >"$TMP/glued.in"
printf '%s\n' '    TAP version 13' '    # Subtest: bin' '    1..3' '    ok 1 test_a' \
	'    # Expect C (4000) > B (4000)' '    not ok 2 test_b' '    # expected ok 1 thing' \
	'    ok 3 test_c # SKIP why' >"$TMP/glued.want"
for a in mawk "busybox awk"; do
	check "KTAP_SUBTEST ($a): a result glued to a diagnostic without its newline becomes its own line" \
		bash -c '. "$1/initramfs/ktap.sh"; $2 -v name=bin "$KTAP_SUBTEST" <"$3/glued.in" | cmp - "$3/glued.want"' \
		- "$TOP" "$a" "$TMP"
done

# ---- new_lines: warnings compared without their positions ----
printf '%s\n' 'a.c:10:5: warning: x' 'a.c:20: warning: y in line 20' \
	'Warning: k.c:4 parameter b not described' >"$TMP/nl.before"
printf '%s\n' './a.c:12:7: warning: x' 'a.c:21: warning: y in line 21' \
	'Warning: k.c:9 parameter b not described' 'Warning: k.c:9 parameter b not described' \
	'a.c:3: warning: z' >"$TMP/nl.after"
check "new_lines: moved warnings (gcc, kernel-doc up to 6.12 and from 7.3) are not new; a repeated one and another are" \
	bash -c '. "$1/lib.sh"; . "$1/lib-check.sh"
		[ "$(new_lines "$2/nl.before" "$2/nl.after")" = "$(printf "%s\n" "Warning: k.c:9 parameter b not described" "a.c:3: warning: z")" ]' \
	- "$S" "$TMP"

# ---- need_space: a step that would fill the disk stops first, named ----
free=$(free_mib "$TMP")
check "need_space: enough room under a directory not made yet" \
	bash -c '. "$1/lib.sh"; . "$1/lib-disk.sh"; need_space "$2/not/yet" 1 demo' - "$S" "$TMP"
check "need_space: too little room is one error naming the step and both sizes" \
	bash -c '! out=$(. "$1/lib.sh"; . "$1/lib-disk.sh"; need_space "$2/not/yet" "$3" demo 2>&1) &&
		[ "$(echo "$out" | wc -l)" -eq 1 ] &&
		echo "$out" | grep -q "^ERROR \[.*\]: demo needs about $3 MiB free under $2/not/yet, its file system has [0-9]* MiB"' \
	- "$S" "$TMP" $((free + 1000000))
check "make check stops before its first step when the trees it would write do not fit" \
	bash -c '! DISK_TREE_MIB=$3 "$1/check.sh" "$2/build" 6.1/series >"$2/out" 2>&1 &&
		[ "$(wc -l <"$2/out")" -eq 1 ] && [ ! -e "$2/build" ] &&
		grep -q "^ERROR \[check\]: make check (6.1/series) needs about [0-9]* MiB free under $2/build" "$2/out"' \
	- "$S" "$TMP" $((free + 1000000))

# ---- make check: each step's own status ----
# A make that passes checkpatch silently and fails every other step: the
# steps after a passing one must not read its status.
printf '%s\n' '#!/bin/bash' 'case " $* " in *" checkpatch "*) exit 0 ;; esac' \
	'echo "ERROR [fake]: $*"; exit 2' >"$TMP/failmake"
chmod +x "$TMP/failmake"
check "make check: a step that fails after one that passed is a failure, and the total says so" \
	bash -c '! DISK_TREE_MIB=1 DISK_VARIANT_MIB=1 MAKE=$3 "$1/check.sh" "$2/ckbuild" 6.1/series >"$2/ck.out" 2>&1 &&
		grep -qx "  6.1 checkpatch: ok" "$2/ck.out" &&
		grep -qx "  6.1 kdoc: FAILED (see the ERROR above)" "$2/ck.out" &&
		grep -qx "check: 1 passed, 6 failed, 0 skipped" "$2/ck.out"' \
	- "$S" "$TMP" "$TMP/failmake"

git -C "$R" worktree remove --force "$TMP/am"
git -C "$R" worktree remove --force "$W"
echo "test-tooling: $P passed, $F failed"
[ "$F" -eq 0 ]
