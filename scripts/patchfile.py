#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Read and rewrite the patch files of the series: headers, subject, notes
for reviewers, identities.

usage: patchfile.py with-from IDENT FILE
       patchfile.py subject FILE
       patchfile.py notes FILE
       patchfile.py strip-identity HEADING FILE [IDENT]
       patchfile.py mailed-form FILE NAME ADDR

The pipeline calls it through the shell functions of lib-patch.sh, one per
subcommand (with_from, patch_subject, patch_notes, strip_identity,
mailed_form); the functions below say what each does.  A file is read as
bytes, line by line; a last line without its newline counts as a line, and
every line printed or written ends in a newline.  Identities ("Name
<addr>", NAME, ADDR) and the shortlog HEADING are taken as they are.

Exit status 0; 2 when FILE cannot be read (or strip-identity's result
cannot be written), or on a wrong usage; 1 when strip-identity would leave
nothing of FILE.
"""
import os
import re
import signal
import subprocess
import sys

DIFFSTAT_END = re.compile(rb' [0-9]+ files? changed')
DIFFSTAT_LINE = re.compile(rb' .*\|')
HEADING_LINE = re.compile(rb'[^ ].* \([0-9]+\):')


def read_lines(path):
    with open(path, 'rb') as f:
        lines = f.read().split(b'\n')
    if lines[-1] == b'':
        lines.pop()
    return lines


def find(lines, value, start=0):
    """The index of the first VALUE in LINES from START on, or len(LINES)."""
    return lines.index(value, start) if value in lines[start:] else len(lines)


def text(lines):
    return b''.join(line + b'\n' for line in lines)


def blank(line):
    return line.strip(b' \t') == b''


def folded(line):
    return line.startswith((b' ', b'\t'))


def with_from(ident, lines):
    """The patch file of LINES as a mail from IDENT ("Name <addr>"): a
    From: header of it replaces any From: header (with its folded lines)
    the file may carry.  It goes first, or right after the "From <sha> Mon
    Sep 17 ..." line that starts a file of git format-patch.  An empty
    file stays empty."""
    if not lines:
        return []
    start = 1 if re.match(rb'From [0-9a-f]+ ', lines[0]) else 0
    out = lines[:start] + [b'From: ' + ident]
    end = find(lines, b'', start)
    i = start
    while i < end:
        if lines[i].startswith(b'From: '):
            i += 1
            while i < end and folded(lines[i]):
                i += 1
        else:
            out.append(lines[i])
            i += 1
    return out + lines[end:]


def subject(lines):
    """The subject of the patch file of LINES as git commits it: folded
    header lines joined, the "[PATCH ...]" prefix dropped."""
    subj, folding = b'', False
    for line in lines:
        if line == b'':
            break
        if folding and folded(line):
            subj += b' ' + line.lstrip(b' \t')
            continue
        folding = line.startswith(b'Subject: ')
        if folding:
            subj = line[len(b'Subject: '):]
    return re.sub(rb'^\[[^]]*\] *', b'', subj, count=1)


def notes(lines):
    """The reviewers' notes of the patch file of LINES: the text between
    the "---" line after the headers and the diffstat (or the first "diff "
    line), without the blank lines around it.  "git format-patch --notes"
    writes them as a "Notes:" line with the note indented by four spaces;
    that form is undone here, so that exporting the note again gives the
    same bytes.  Free text without the "Notes:" line is taken as it is."""
    dash = find(lines, b'---', find(lines, b'') + 1)
    note = []
    for line in lines[dash + 1:]:
        if line.startswith(b'diff '):
            break
        note.append(line)
    for end, line in enumerate(note):
        if DIFFSTAT_END.match(line):
            while end > 0 and DIFFSTAT_LINE.match(note[end - 1]):
                end -= 1
            del note[end:]
            break
    while note and blank(note[0]):
        del note[0]
    while note and blank(note[-1]):
        del note[-1]
    if note[:1] == [b'Notes:']:
        note = [b'' if blank(line) else line.removeprefix(b'    ')
                for line in note[1:]]
    return note


def strip_identity(path, ident, heading):
    """Remove identities from the patch or cover letter file PATH, in
    place: the From: header (with its folded lines), an in-body From: line
    (with the blank line after it), Signed-off-by: and Co-developed-by:
    lines of the message (with the blank line that led to a trailer block
    left empty), and the name in the cover letter's shortlog heading
    ("Name (N):" becomes "HEADING (N):").  With IDENT ("Name <addr>"),
    only that identity's lines go, and only its name's heading.  Prints
    what went, one line each.  The file is replaced by a new one, written
    next to it as PATH.strip; when nothing of it would be left, it stays
    as it is and the exit status is 1."""
    name = path.rsplit(b'/', 1)[-1]
    lines = read_lines(path)
    n = len(lines)
    gone = set()

    def line(i):
        return lines[i] if 0 <= i < n else b''

    def ours(v):
        return ident == b'' or v == ident

    def remove(i, what=b''):
        gone.add(i)
        if what:
            sys.stdout.buffer.write(name + b': removed ' + what + b'\n')

    # headers: up to the first empty line
    i = 0
    while i < n and lines[i] != b'':
        if lines[i].startswith(b'From: ') and ours(lines[i][6:]):
            remove(i, lines[i])
            while i + 1 < n and folded(lines[i + 1]):
                i += 1
                remove(i)
        i += 1
    body = i + 1
    if line(body).startswith(b'From: ') and ours(line(body)[6:]):
        remove(body, b'in-body ' + line(body))
        if line(body + 1) == b'':
            remove(body + 1)
    # the message: up to the "---" line (the whole body of a cover letter)
    for i in range(body, n):
        if lines[i] == b'---':
            break
        tag, sep, value = lines[i].partition(b': ')
        if sep and tag in (b'Signed-off-by', b'Co-developed-by') \
                and ours(value):
            remove(i, lines[i])
    # a blank line before removed lines goes when nothing but a blank
    # line, the "---" line or the end follows them; never the blank line
    # after the headers
    for i in range(body + 1, n):
        if i in gone and i - 1 not in gone and lines[i - 1] == b'':
            j = i
            while j < n and j in gone:
                j += 1
            if j == n or lines[j] in (b'', b'---'):
                remove(i - 1)
    # a cover letter (no diff of its own): the shortlog right before the
    # diffstat, a "Name (N):" line and indented subjects
    if not any(s.startswith(b'diff --git ') for s in lines[body:]):
        d = n - 1               # the diffstat's first line
        while d >= body and not DIFFSTAT_END.match(lines[d]):
            d -= 1
        while d > body and DIFFSTAT_LINE.match(line(d - 1)):
            d -= 1
        i = d - 1               # the line above the subjects
        while i > body and (line(i) == b'' or line(i).startswith(b'  ')):
            i -= 1
        old = line(i)           # the name is all before the last " ("
        k = old.rfind(b' (')
        new = old if k < 0 else heading + old[k:]
        who, sep, _ = ident.partition(b' <')
        if (i < d - 1 and HEADING_LINE.fullmatch(old)
                and line(i + 1).startswith(b'  ') and new != old
                and (ident == b'' or sep and old.startswith(who + b' ('))):
            sys.stdout.buffer.write(b'%s: shortlog heading "%s" is now "%s"\n'
                                    % (name, old, new))
            lines[i] = new
    kept = [s for i, s in enumerate(lines) if i not in gone]
    if not kept:
        print(f'{os.fsdecode(path)}: nothing would be left, left as it is',
              file=sys.stderr)
        return 1
    with open(path + b'.strip', 'wb') as f:
        f.write(text(kept))
    os.replace(path + b'.strip', path)
    return 0


def mailed_form(lines, name, addr):
    """The patch file of LINES as it will be mailed by NAME <ADDR>: their
    From: header (with_from) and their Signed-off-by: at the end of the
    message (by git interpret-trailers, as git commit -s would place it).
    For checkpatch; mail.sh has git format-patch do the same, header
    encoding included."""
    ident = name + b' <' + addr + b'>'
    mail = text(with_from(ident, lines))
    headers = mail[:mail.find(b'\n\n') + 2] if b'\n\n' in mail else mail
    h = find(lines, b'')
    dash = find(lines, b'---', h + 1)
    message = lines[h + 1:dash]
    # interpret-trailers takes the first paragraph for a subject
    signed = subprocess.run(
        ['git', 'interpret-trailers', '--no-divider',
         '--if-exists', 'addIfDifferentNeighbor',
         '--trailer', b'Signed-off-by: ' + ident],
        input=b'subject\n' + (b'\n' + text(message) if message else b''),
        stdout=subprocess.PIPE).stdout.split(b'\n', 2)
    signed = signed[2] if len(signed) == 3 else b''
    return headers + signed + text(lines[dash:])


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    cmd, *args = sys.argv[1:] or ['']
    nargs = {'with-from': [2], 'subject': [1], 'notes': [1],
             'strip-identity': [2, 3], 'mailed-form': [3]}
    if len(args) not in nargs.get(cmd, []):
        print(__doc__[__doc__.index('usage'):__doc__.index('\n\nThe')],
              file=sys.stderr)
        return 2
    args = [os.fsencode(a) for a in args]
    try:
        if cmd == 'strip-identity':
            heading, path, ident = (args + [b''])[:3]
            return strip_identity(path, ident, heading)
        lines = read_lines(args[1] if cmd == 'with-from' else args[0])
    except OSError as e:
        print(f'patchfile.py: {e}', file=sys.stderr)
        return 2
    if cmd == 'with-from':
        out = text(with_from(args[0], lines))
    elif cmd == 'subject':
        out = subject(lines) + b'\n'
    elif cmd == 'notes':
        out = text(notes(lines))
    else:
        out = mailed_form(lines, args[1], args[2])
    sys.stdout.buffer.write(out)
    return 0


if __name__ == '__main__':
    sys.exit(main())
