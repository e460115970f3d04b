# shellcheck shell=bash
# Identities: the pipeline's own, and who may sign and send the series.
# Sourced after lib.sh.

# The files under patches/ carry no identity: no From: header, no
# Signed-off-by: or Co-developed-by: line.  The build trees need one for
# "git am" and every commit they make: the pipeline identity below, which
# never leaves them (format-series.sh strips it, the validator refuses it).
# Whoever mails the series signs it with their own identity (mail.sh).
PIPELINE_NAME="Cgroupns Pipeline"
PIPELINE_EMAIL="pipeline@cgroupns.invalid"
# The cover letter's shortlog heading in patches/ ("Patches (N):"); the
# mail has the sender's name there, as git writes it.
# shellcheck disable=SC2034 # used by lib-patch.sh and format-series.sh
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
