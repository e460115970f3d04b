#!/bin/bash
# Remove every identity from patch and cover letter files, in place: the
# From: header (and an in-body From: line), Signed-off-by: and
# Co-developed-by: lines of the message, and the name in the cover
# letter's shortlog heading.  The files under patches/ carry none: the
# pipeline applies them as its own identity, and whoever sends them signs
# them at mail time (make mail).  Prints one line per removal; a file
# without identities is left byte for byte as it was.  "make refresh" runs
# this over what it exports.
#
# usage: strip-identity.sh FILE...
set -eu
STEP=${STEP:-strip-identity}
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-patch.sh"

[ $# -gt 0 ] || die "usage: strip-identity.sh FILE..."
for f in "$@"; do
	[ -f "$f" ] || die "no such file: $f"
	strip_identity "$f"
done
