# shellcheck shell=bash
# Reading and rewriting patch files: headers, subject, notes for
# reviewers, identities.  Sourced after lib.sh; brings lib-identity.sh.
# Each function runs a subcommand of patchfile.py, whose docstrings say
# the rest.
. "$(dirname "${BASH_SOURCE[0]}")/lib-identity.sh"
PATCHFILE_PY=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/patchfile.py

# Print patch file $2 as a mail from IDENT ($1, "Name <addr>"): a From:
# header of it replaces any From: header the file may carry.
with_from() { "$PATCHFILE_PY" with-from "$1" "$2"; }

# Print the subject of patch file $1 as git commits it: folded header
# lines joined, the "[PATCH ...]" prefix dropped.
patch_subject() { "$PATCHFILE_PY" subject "$1"; }

# Print the reviewers' notes of patch file $1: the text between its "---"
# line and the diffstat, the indented form of "git format-patch --notes"
# undone.
patch_notes() { "$PATCHFILE_PY" notes "$1"; }

# Remove identities from the patch or cover letter file $1, in place: the
# From: header, an in-body From: line, Signed-off-by: and Co-developed-by:
# lines of the message (with the blank line that led to a trailer block
# left empty), and the name in the cover letter's shortlog headings
# ("Name (N):" becomes "$SHORTLOG_HEADING (N):").  With $2 ("Name <addr>"), only
# that identity's lines go.  Prints what went, one line each.
strip_identity() {
	"$PATCHFILE_PY" strip-identity "$SHORTLOG_HEADING" "$1" "${2:-}"
}

# Print patch file $1 as it will be mailed by NAME ($2) <ADDRESS ($3)>:
# their From: header and their Signed-off-by: at the end of the message
# (by git interpret-trailers, as git commit -s would place it).  For
# checkpatch; mail.sh has git format-patch do the same, header encoding
# included.
mailed_form() { "$PATCHFILE_PY" mailed-form "$1" "$2" "$3"; }
