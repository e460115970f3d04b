# shellcheck shell=bash
# Helpers shared by the pipeline scripts: progress lines and failures that
# name the step.  Sourced, never run.

: "${STEP:=$(basename "$0" .sh)}"
_t0=$(date +%s)

say() {
	printf '[%s +%ss] %s\n' "$STEP" "$(($(date +%s) - _t0))" "$*" >&2
}

die() {
	printf 'ERROR [%s]: %s\n' "$STEP" "$*" >&2
	exit 1
}

# The top of this repository (every script lives in scripts/).
TOP=$(cd "$(dirname "$0")/.." && pwd)

# Stop before a step that writes about $2 MiB under directory $1 (which
# need not exist yet) when its file system has less free, naming step $3:
# a full disk otherwise surfaces as some git or compiler error deep inside
# the step, or as a run that ends without its summary (CI once did, in
# prepare-variant).  What the steps write, in MiB, rounded up from 6.12,
# the larger tree: an extracted tree, its git repository and checkout
# (2243), a variant's worktree with its kernel built (1640 before the
# build, which adds about 100), the DEBUG=1 one built (1910).  A default
# make check wrote 9068 MiB under build/, for 10900 counted here.  The
# environment may set them (test-tooling does, to see make check stop).
: "${DISK_TREE_MIB:=2600}" "${DISK_VARIANT_MIB:=1900}" "${DISK_DEBUG_MIB:=2600}"
need_space() {
	_d=$1
	until [ -d "$_d" ]; do _d=$(dirname "$_d"); done
	_free=$(free_mib "$_d")
	[ "$_free" -ge "$2" ] ||
		die "$3 needs about $2 MiB free under $1, its file system has $_free MiB: free some space (make clean, old clones) or build elsewhere (O=dir)"
}

# The MiB free on the file system of directory $1.
free_mib() {
	df -Pm "$1" | awk 'NR == 2 { print $4 }'
}

# The MiB the tree directory $1 of build/KVER/ takes, made and built:
# stock is the extracted tree, NAME-debug a DEBUG=1 variant.
disk_mib() {
	case "$1" in
	stock) echo "$DISK_TREE_MIB" ;;
	*-debug) echo "$DISK_DEBUG_MIB" ;;
	*) echo "$DISK_VARIANT_MIB" ;;
	esac
}

# Reject a KVER we have no Debian source package for.
check_kver() {
	case "$1" in
	6.1 | 6.12) ;;
	*) die "unknown KVER '$1' (supported: 6.1 6.12)" ;;
	esac
}

# The entries of a list file $1 (the series file, tests/cases), without
# comments and blank lines; nothing if there is no such file.
series_names() {
	[ -f "$1" ] || return 0
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$1"
}

# The series file for the format-patch output in directory $1: every
# patch but the cover letter, in order.
exported_series() {
	ls "$1" | grep -v '^0000-cover-letter'
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
	*) die "no b4 change-id for $1 (lib.sh: series_change_id)" ;;
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

check_variant() {
	case "$1" in
	stock | base | patched) ;;
	*) die "unknown VARIANT '$1' (supported: stock base patched)" ;;
	esac
}

# ---- identities --------------------------------------------------------
# The files under patches/ carry no identity: no From: header, no
# Signed-off-by: or Co-developed-by: line.  The build trees need one for
# "git am" and every commit they make: the pipeline identity below, which
# never leaves them (format-series.sh strips it, the validator refuses it).
# Whoever mails the series signs it with their own identity (mail.sh).
PIPELINE_NAME="Cgroupns Pipeline"
PIPELINE_EMAIL="pipeline@cgroupns.invalid"
# The cover letter's shortlog heading in patches/ ("Patches (N):"); the
# mail has the sender's name there, as git writes it.
SHORTLOG_HEADING="Patches"

pipeline_identity() {
	printf '%s <%s>\n' "$PIPELINE_NAME" "$PIPELINE_EMAIL"
}

# Make every commit of this process (and its children) the pipeline's, at
# a fixed commit date: the commit ids of the base and patched trees must
# not depend on who runs the pipeline or when ("base-commit").
pipeline_env() {
	export GIT_AUTHOR_NAME="$PIPELINE_NAME" GIT_AUTHOR_EMAIL="$PIPELINE_EMAIL"
	export GIT_COMMITTER_NAME="$PIPELINE_NAME" GIT_COMMITTER_EMAIL="$PIPELINE_EMAIL"
	export GIT_COMMITTER_DATE="2000-01-01T00:00:00Z"
}

# Configure the build repository $1 (shared by all worktrees of a KVER):
# commits made there by hand (git commit, rebase, git notes edit) get the
# pipeline identity too, and rewriting a commit keeps its note.
setup_build_repo() {
	git -C "$1" config user.name "$PIPELINE_NAME"
	git -C "$1" config user.email "$PIPELINE_EMAIL"
	git -C "$1" config notes.rewriteRef refs/notes/commits
}

# Print why NAME ($1) and address ($2) may not sign and send mail, or
# nothing and succeed when they may: a person's name and a deliverable
# address of their own, no placeholder, role, robot or reserved domain.
identity_problem() {
	_n=$1 _e=$2
	_ln=$(printf '%s' "$_n" | tr '[:upper:]' '[:lower:]')
	_le=$(printf '%s' "$_e" | tr '[:upper:]' '[:lower:]')
	_dom=${_le#*@}
	if [ -z "$(printf '%s' "$_n" | tr -d '[:space:]')" ]; then
		echo "the name is empty"
	elif [ -z "$_e" ]; then
		echo "the address is empty"
	elif printf '%s%s' "$_n" "$_e" | grep -q '[<>"]'; then
		echo "name or address contains <, > or a double quote"
	else
		case "$_ln" in
		*" team" | team | *" maintainers" | *" maintainer" | maintainers | \
			*" pipeline" | pipeline | *" bot" | bot | *" robot" | *"[bot]" | \
			*" daemon" | root)
			echo "'$_n' is not a person's name"
			return 1
			;;
		esac
		case "$_le" in
		*@*@* | @* | *@ | *[[:space:]]*)
			echo "'$_e' is not a mail address"
			return 1
			;;
		*@*) ;;
		*)
			echo "'$_e' has no @domain"
			return 1
			;;
		esac
		case "$_dom" in
		*.*) ;;
		*)
			echo "'$_e' has no domain name"
			return 1
			;;
		esac
		case "$_dom" in
		.* | *. | *..*)
			echo "'$_e' has no valid domain name"
			return 1
			;;
		example | example.com | example.org | example.net | *.example.com | \
			*.example.org | *.example.net | *.example | *.invalid | invalid | \
			*.test | test | *.localhost | localhost | *.localdomain | \
			localdomain | *.local | local)
			echo "'$_dom' is a reserved or local domain, not one that delivers mail to you"
			return 1
			;;
		esac
		case "$_le" in
		*noreply* | *no-reply* | *no_reply* | *donotreply* | *do-not-reply*)
			echo "'$_e' is a no-reply address"
			return 1
			;;
		esac
		return 0
	fi
	return 1
}

# Split an identity "Name <addr>" (the form git var prints, optionally with
# its trailing "timestamp zone") into IDENT_NAME and IDENT_EMAIL.
# shellcheck disable=SC2034
split_identity() {
	IDENT_NAME=$(printf '%s\n' "$1" | sed -n 's/^\(.*[^ ]\) *<[^<>]*>.*$/\1/p')
	IDENT_EMAIL=$(printf '%s\n' "$1" | sed -n 's/^.*<\([^<>]*\)>.*$/\1/p')
}

# ---- patch files ---------------------------------------------------------
# Print patch file $2 as a mail from IDENT ($1, "Name <addr>"): a From:
# header of it replaces any From: header the file may carry.
with_from() {
	awk -v from="From: $1" '
	NR == 1 && /^From [0-9a-f]+ / { print; print from; hdr = 1; next }
	NR == 1 { print from; hdr = 1 }
	hdr && /^$/ { hdr = 0 }
	hdr && /^From: / { skip = 1; next }
	hdr && skip && /^[ \t]/ { next }
	{ skip = 0; print }' "$2"
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

# Print the subject of patch file $1 as git commits it: folded header
# lines joined, the "[PATCH ...]" prefix dropped.
patch_subject() {
	awk '/^$/ { exit }
	s && /^[ \t]/ { sub(/^[ \t]+/, " "); subj = subj $0; next }
	s { s = 0 }
	/^Subject: / { subj = substr($0, 10); s = 1 }
	END { sub(/^\[[^]]*\] */, "", subj); print subj }' "$1"
}

# Print the reviewers' notes of patch file $1: the text between its "---"
# line and the diffstat.  "git format-patch --notes" writes them as a
# "Notes:" line with the note indented by four spaces; that form is
# undone here, so that exporting the note again gives the same bytes.
# Free text without the "Notes:" line is taken as it is.
patch_notes() {
	awk '
	hdr == 0 { if ($0 == "") hdr = 1; next }
	!dash { if ($0 == "---") dash = 1; next }
	/^diff / { exit }
	{ l[++n] = $0 }
	END {
		end = n
		for (i = 1; i <= n; i++)
			if (l[i] ~ /^ [0-9]+ files? changed/) {
				for (end = i - 1; end > 0 && l[end] ~ /^ .*\|/; end--) ;
				break
			}
		s = 1
		while (s <= end && l[s] ~ /^[ \t]*$/) s++
		while (end >= s && l[end] ~ /^[ \t]*$/) end--
		indented = (s <= end && l[s] == "Notes:")
		if (indented) s++
		for (i = s; i <= end; i++) {
			if (indented) {
				if (l[i] ~ /^[ \t]*$/) l[i] = ""
				else sub(/^    /, "", l[i])
			}
			print l[i]
		}
	}' "$1"
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

# Remove identities from the patch or cover letter file $1, in place: the
# From: header, an in-body From: line, Signed-off-by: and Co-developed-by:
# lines of the message (with the blank line that led to a trailer block
# left empty), and the name in the cover letter's shortlog headings
# ("Name (N):" becomes "$SHORTLOG_HEADING (N):").  With $2 ("Name <addr>"), only
# that identity's lines go.  Prints what went, one line each.
strip_identity() {
	awk -v id="${2:-}" -v out="$1.strip" -v name="${1##*/}" -v heading="$SHORTLOG_HEADING" '
	function ours(v) { return id == "" || v == id }
	function gone(i, what) { del[i] = 1; if (what != "") printf "%s: removed %s\n", name, what }
	{ l[++n] = $0 }
	END {
		# headers: up to the first empty line
		for (i = 1; i <= n && l[i] != ""; i++) {
			if (l[i] ~ /^From: / && ours(substr(l[i], 7))) {
				gone(i, l[i])
				while (i < n && l[i + 1] ~ /^[ \t]/) gone(++i, "")
			}
		}
		body = i + 1
		if (l[body] ~ /^From: / && ours(substr(l[body], 7))) {
			gone(body, "in-body " l[body])
			if (l[body + 1] == "") gone(body + 1, "")
		}
		# the message: up to the "---" line (the whole body of a cover letter)
		for (i = body; i <= n && l[i] != "---"; i++)
			if (l[i] ~ /^(Signed-off-by|Co-developed-by): / &&
			    ours(substr(l[i], index(l[i], ": ") + 2)))
				gone(i, l[i])
		# a blank line before removed lines goes when nothing but a
		# blank line, the "---" line or the end follows them
		for (i = body + 1; i <= n; i++) {	# never the blank line after the headers
			if (!del[i] || del[i - 1] || l[i - 1] != "" || i - 1 < body) continue
			for (j = i; j <= n && del[j]; j++) ;
			if (j > n || l[j] == "" || l[j] == "---") gone(i - 1, "")
		}
		# a cover letter (no diff of its own): the shortlog right before
		# the diffstat, a "Name (N):" line and indented subjects
		cover = 1
		for (i = body; i <= n; i++) if (l[i] ~ /^diff --git /) { cover = 0; break }
		if (cover) {
			for (d = n; d >= body && l[d] !~ /^ [0-9]+ files? changed/; d--) ;
			while (d > body && l[d - 1] ~ /^ .*\|/) d--
			for (i = d - 1; i > body && (l[i] == "" || l[i] ~ /^  /); i--) ;
			h = l[i]
			sub(/.* \(/, heading " (", h)
			if (i < d - 1 && l[i] ~ /^[^ ].* \([0-9]+\):$/ && l[i + 1] ~ /^  / && h != l[i] &&
			    (id == "" || index(l[i], substr(id, 1, index(id, " <") - 1) " (") == 1)) {
				printf "%s: shortlog heading \"%s\" is now \"%s\"\n", name, l[i], h
				l[i] = h
			}
		}
		for (i = 1; i <= n; i++) if (!del[i]) print l[i] > out
	}' "$1" && mv "$1.strip" "$1"
}

# Print patch file $1 as it will be mailed by NAME ($2) <ADDRESS ($3)>:
# their From: header and their Signed-off-by: at the end of the message
# (by git interpret-trailers, as git commit -s would place it).  For
# checkpatch; mail.sh has git format-patch do the same, header encoding
# included.
mailed_form() {
	with_from "$2 <$3>" "$1" | awk '{ print } /^$/ { exit }'
	# interpret-trailers takes the first paragraph for a subject
	{
		echo subject
		awk 'h && $0 == "---" { exit } h && !p++ { print "" } h { print } /^$/ { h = 1 }' "$1"
	} | git interpret-trailers --no-divider --if-exists addIfDifferentNeighbor \
		--trailer "Signed-off-by: $2 <$3>" | tail -n +3
	awk 'd { print; next } h && $0 == "---" { d = 1; print } /^$/ { h = 1 }' "$1"
}

# The lines of file $2 that file $1 does not have, compared as multisets of
# "file: message": positions (":line:col", cocci's ":line:col-col") and
# "line N" in messages do not count.  A missing file is empty.
new_lines() {
	_b=$1 _a=$2
	[ -f "$_b" ] || _b=/dev/null
	[ -f "$_a" ] || _a=/dev/null
	awk -v before="$_b" '
	function key(s,   f) {
		sub(/^\.\//, "", s)
		if (match(s, /^[^ :]+:[0-9]+(:[0-9]+(-[0-9]+)?)?:/)) {
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
