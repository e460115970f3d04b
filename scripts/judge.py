#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judge one suite run: the guest's KTAP document and the console log.

The document is parsed with the kernel tree's own KTAP parser
(tools/testing/kunit/kunit_parser.py), not by hand.  The judge knows what it
expects: the binaries and cases of tests/cases, in that order, and each
case's result on this variant (tests/expect/VARIANT: "PATTERN RESULT #
reason", first match wins, default pass; without any --expect every case
must pass).  Anything else fails the run:

  - a binary missing, not executable, crashed, timed out,
    with fewer or more results than planned, or exiting non-zero although
    none of its cases failed; an expected case that did not report, a case
    nobody expects, a parse error;
  - a case whose result differs from its expectation (an expected "fail"
    that fails counts as passed and is listed as XFAIL);
  - a kernel report on the console (WARNING, BUG, Oops, KASAN, UBSAN,
    lockdep, RCU stall, lockup, ...), a non-zero taint after the run (its
    flags are printed), kmemleak objects under DEBUG=1, or a missing
    console log.

Writes results.json and JUnit XML when asked; the last line printed is
"VARIANT: N passed, N failed, N skipped".  Exit status 0 when nothing
deviates, 1 otherwise, 2 on bad input.
"""
import argparse
import contextlib
import fnmatch
import inspect
import io
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

# Kernel reports that fail a run whatever the tests said.  A real warning
# is "WARNING: CPU: N PID: ..." (or "WARNING: at ..."); 6.1 also prints a
# harmless "WARNING: The mand mount option has been deprecated".
SPLAT = re.compile(
    r'WARNING: (CPU: \d+ PID|at )|-+\[ cut here \]-+|'
    r'\bBUG: |kernel BUG at |\bBUG [a-z0-9_.:-]+ \(|invalid opcode: |'
    r'Oops|general protection fault|Kernel panic|KASAN: |UBSAN: |'
    r'possible (circular|recursive) locking|inconsistent lock state|'
    r'suspicious RCU usage|rcu_\w+ (self-)?detected .*stall|'
    r'(hard|soft) LOCKUP|watchdog: BUG|INFO: task .* blocked|'
    r'unreferenced object|list_(add|del) corruption|refcount_t: |'
    r'Call Trace:')

# /proc/sys/kernel/tainted bits (Documentation/admin-guide/tainted-kernels.rst)
TAINT_FLAGS = 'PFSRMBUDAWCIOELKXTN'
TAINT_NAMES = ['proprietary module', 'forced module load', 'SMP unsafe',
               'forced module unload', 'machine check', 'bad page',
               'user requested', 'died recently (OOPS or BUG)',
               'ACPI table overridden', 'kernel warning', 'staging driver',
               'firmware workaround', 'out-of-tree module', 'unsigned module',
               'soft lockup', 'live patched', 'auxiliary', 'randstruct',
               'test module']

# 6.1's __register_sysctl_table() ends its failure path with dump_stack():
# a stack trace with no bug behind it, printed when a sysctl directory
# could not be allocated (make fuzz's fail-nth walk of unshare with a
# network namespace makes that happen; 6.12 no longer dumps).  Excused
# only on --kver 6.1, and only whole and exact: the ENOMEM message, the
# "CPU: N PID: N" line right after it, "Call Trace:", dump_stack_lvl then
# __register_sysctl_table as the first frames, up to "</TASK>", with no
# other report inside.
SYSCTL_ENOMEM = re.compile(r'sysctl could not get directory: \S* -12$')
TS = r'^(?:\[ *\d+\.\d+\] )?'


def sysctl_dumps(lines):
    """The (first, last) line indices of 6.1's sysctl ENOMEM dump_stack()s."""
    dumps = []
    for i, l in enumerate(lines):
        if not SYSCTL_ENOMEM.search(l):
            continue
        block = lines[i + 1:i + 8]
        frames = [re.sub(TS, '', b).strip() for b in block[2:]]
        if (len(block) < 6 or not re.match(r'CPU: \d+ PID: \d+ ', re.sub(TS, '', block[0])) or
                re.sub(TS, '', block[1]) != 'Call Trace:' or frames[0] != '<TASK>' or
                not frames[1].startswith('dump_stack_lvl+') or
                not frames[2].startswith('__register_sysctl_table+')):
            continue
        end = next((j for j in range(i + 1, min(len(lines), i + 80))
                    if re.sub(TS, '', lines[j]).strip() == '</TASK>'), None)
        if end is None:
            continue
        inner = lines[i + 3:end]
        if any(SPLAT.search(b) for b in inner):
            continue
        dumps.append((i, end))
    return dumps


RESULT_LINE = re.compile(r'^(ok|not ok) (\d+) ([^#]*?)\s*(?:# (.*))?$')


def bad_input(msg):
    print(f'ERROR [judge]: {msg}', file=sys.stderr)
    sys.exit(2)


def load_cases(paths, kver=None):
    """The expected binaries (in order) and their cases (in order), from
    one or more case lists read one after the other.  A case that only
    some trees have names them: "BINARY:CASE KVER[,KVER]"."""
    order, cases = [], {}
    for path in paths:
        read_cases(path, kver, order, cases)
    if not order:
        bad_input(f'{", ".join(paths)} list no case')
    return order, cases


def read_cases(path, kver, order, cases):
    try:
        with open(path) as f:
            for n, line in enumerate(f, 1):
                words = line.split('#', 1)[0].split()
                if not words:
                    continue
                line = words[0]
                if ':' not in line or len(words) > 2:
                    bad_input(f'{path}:{n}: "{line}" is not BINARY:CASE [KVER[,KVER]]')
                if len(words) == 2 and kver not in words[1].split(','):
                    continue
                binary, case = line.split(':', 1)
                if binary not in cases:
                    order.append(binary)
                    cases[binary] = []
                if case in cases[binary]:
                    bad_input(f'{path}:{n}: {line} listed twice')
                cases[binary].append(case)
    except OSError as e:
        bad_input(f'cannot read the case list: {e}')


def load_expect(path):
    """Rules "PATTERN RESULT [/REGEX/]  # reason": an expected failure may
    name what the case must log, so that it fails for the known reason
    and not for any other."""
    rules = []
    try:
        with open(path) as f:
            for n, line in enumerate(f, 1):
                rule, _, reason = line.partition('#')
                words = rule.split(None, 2)
                if not words:
                    continue
                regex = None
                if len(words) == 3:
                    m = re.fullmatch(r'/(.+)/', words[2].strip())
                    if not m:
                        bad_input(f'{path}:{n}: "{words[2].strip()}" is not /REGEX/')
                    regex = re.compile(m.group(1))
                if len(words) < 2 or words[1] not in ('pass', 'fail', 'skip'):
                    bad_input(f'{path}:{n}: want "PATTERN pass|fail|skip [/REGEX/]  # reason"')
                # Only a failure's log is searched: a /REGEX/ elsewhere
                # would read as a check that nothing makes.
                if regex is not None and words[1] != 'fail':
                    bad_input(f'{path}:{n}: a /REGEX/ names what a failing case logs; '
                              f'a {words[1]} rule cannot have one')
                if words[0].endswith(':(leftovers)') and (
                        words[1] != 'fail' or regex is None or '*' in words[0]):
                    bad_input(f'{path}:{n}: want "BINARY:(leftovers) fail /REGEX/  # reason" '
                              '(one binary; every line it leaves must match REGEX)')
                rules.append((words[0], words[1], regex, reason.strip()))
    except OSError as e:
        bad_input(f'cannot read the expectations: {e}')
    return rules


def expected(rules, key):
    for pattern, result, regex, reason in rules:
        if fnmatch.fnmatchcase(key, pattern):
            return result, regex, reason
    return 'pass', None, ''


def parse_ktap(kunit_dir, text):
    """Parse with the tree's kunit_parser; its progress output is returned."""
    sys.path.insert(0, kunit_dir)
    try:
        import kunit_parser
        import kunit_printer
    except ImportError as e:
        bad_input(f'no KTAP parser in {kunit_dir}: {e}')
    # The parser prints its progress through a Printer (to sys.stdout,
    # coloured on a terminal): give it one of its own on a buffer, made by
    # the public constructor (no colour: not a tty).  Up to 6.12 the parser
    # uses the Printer it imported as kunit_parser.stdout; from 7.3 on
    # parse_run_tests() takes the Printer as an argument.
    out = io.StringIO()
    printer = kunit_printer.Printer(output=out)
    kunit_parser.stdout = printer
    args = [text.split('\n')]
    if 'printer' in inspect.signature(kunit_parser.parse_run_tests).parameters:
        args.append(printer)
    with contextlib.redirect_stdout(out):
        root = kunit_parser.parse_run_tests(*args)
    return kunit_parser, root, out.getvalue()


def status_word(kp, status):
    return {kp.TestStatus.SUCCESS: 'pass', kp.TestStatus.FAILURE: 'fail',
            kp.TestStatus.SKIPPED: 'skip'}.get(status, 'crash')


class Verdicts:
    def __init__(self, variant):
        self.variant = variant
        self.records = []

    def add(self, group, name, got, want, reason='', detail=''):
        if got == want:
            verdict = 'skipped' if got == 'skip' else 'passed'
        else:
            verdict = 'failed'
        self.records.append({'binary': group, 'case': name, 'result': got,
                             'expected': want, 'verdict': verdict,
                             'reason': reason, 'detail': detail})
        key = f'{group}:{name}'
        if verdict == 'failed':
            print(f'FAIL  {key}: got {got}, expected {want}'
                  + (f' ({detail})' if detail else ''))
        elif got == 'fail':
            print(f'XFAIL {key} (expected on {self.variant}: {reason})')

    def count(self, verdict):
        return sum(1 for r in self.records if r['verdict'] == verdict)


def case_directives(raw_lines):
    """{binary: {case: (ok or not ok, directive)}} from the cases' own
    result lines (indented; a binary's come before its own line).  The
    parser folds "# XFAIL", "# XPASS" and "# TODO" into a pass and
    "not ok ... # SKIP" into a skip: the judge needs them apart."""
    found, pending = {}, {}
    for line in raw_lines:
        m = RESULT_LINE.match(line)
        if m:
            found[m.group(3)] = pending
            pending = {}
            continue
        # A case's line is a result line indented by four spaces.
        m = line.startswith('    ') and RESULT_LINE.match(line[4:])
        if m and m.group(3) and m.group(4):
            pending[m.group(3)] = (m.group(1), m.group(4).split()[0].upper())
    return found


def case_result(kp, case, directive):
    """A case's result word: pass, fail, skip, crash, or the directive
    (xfail, xpass, todo) that no rule expects unless it names it."""
    okword, word = directive or ('', '')
    if word in ('XFAIL', 'XPASS', 'TODO'):
        return word.lower()
    if word == 'SKIP' and okword == 'not ok':
        return 'fail'
    # A case that passed over failed results of its own (nested subtests).
    if case.status == kp.TestStatus.SUCCESS and (case.counts.failed or case.counts.crashed):
        return 'fail'
    return status_word(kp, case.status)


def judge_binaries(v, kp, root, raw_lines, order, cases, rules):
    # The runner's own result lines carry the reason of a binary's end.
    top = {}
    for line in raw_lines:
        m = RESULT_LINE.match(line)
        if m:
            top[m.group(3)] = (m.group(1), m.group(4) or '')
    directives = case_directives(raw_lines)
    exits = {}
    leaks = {}
    for line in raw_lines:
        m = re.match(r'^# cgns: (\S+): exit status (\d+)', line)
        if m:
            exits[m.group(1)] = int(m.group(2))
        m = re.match(r'^# cgns: leak: (\S+): (.*)$', line)
        if m:
            leaks.setdefault(m.group(1), []).append(m.group(2))

    seen = {}
    for sub in root.subtests:
        name = sub.name.strip()
        if name in seen:
            v.add(name, '(binary)', 'reported twice', 'ran once')
        seen[name] = sub
    for name in seen:
        if name not in cases:
            v.add(name, '(binary)', 'ran', 'not in tests/cases')
    for name in leaks:
        if name not in cases:
            v.add(name, '(leftovers)', f'{len(leaks[name])} left behind', 'none',
                  detail='; '.join(leaks[name][:5]))
    if root.counts.errors and not root.subtests:
        v.add('suite', '(KTAP document)', 'unparsable', 'a KTAP document')

    for binary in order:
        sub = seen.get(binary)
        if sub is None:
            v.add(binary, '(binary)', 'did not report', 'ran')
            continue
        verdict, reason = top.get(binary, ('', ''))
        if reason.startswith(('missing', 'not executable', 'timed out', 'crashed')):
            v.add(binary, '(binary)', reason.split(':')[0], 'ran', detail=reason)
        elif binary not in exits:
            v.add(binary, '(binary)', 'no exit status', 'ran',
                  detail='the document ends inside this binary')
        results = {}
        for case in sub.subtests:
            cname = case.name.strip()
            if not cname:
                v.add(binary, '(unnamed case)', status_word(kp, case.status), 'a name')
                continue
            if cname in results:
                v.add(binary, cname, 'reported twice', 'once')
                continue
            results[cname] = case
        # tests/cases is the plan that counts; a binary's own plan, when
        # it prints one (6.1's test_core does not), must agree with what
        # it reported.
        if sub.expected_count is not None and len(sub.subtests) != sub.expected_count:
            v.add(binary, '(plan)', f'{len(sub.subtests)} results', f'{sub.expected_count}')
        own_errors = sub.counts.errors - sum(c.counts.errors for c in sub.subtests)
        if own_errors or any(c.counts.errors for c in sub.subtests):
            v.add(binary, '(KTAP)', 'parse errors', 'none',
                  detail='see the .kunit file next to the results')
        failed_cases = 0
        for cname in cases[binary]:
            key = f'{binary}:{cname}'
            want, regex, why = expected(rules, key)
            case = results.pop(cname, None)
            if case is None:
                v.add(binary, cname, 'did not run', want)
                continue
            got = case_result(kp, case, directives.get(binary, {}).get(cname))
            failed_cases += got not in ('pass', 'skip')
            if got == want == 'fail' and regex and \
                    not any(regex.search(l) for l in case.log):
                v.add(binary, cname, 'fail for another reason', 'fail',
                      detail=f'no line of its log matches /{regex.pattern}/')
                continue
            v.add(binary, cname, got, want, why)
        for cname in results:
            v.add(binary, cname, status_word(kp, results[cname].status), 'not in tests/cases')
        # "not ok" or a non-zero exit of the program itself, beyond what
        # its failed cases explain (4 is kselftest's "skipped").
        code = exits.get(binary, 0)
        if code not in (0, 4) and not failed_cases:
            v.add(binary, '(exit status)', str(code), '0 when no case failed')
        elif sub.status == kp.TestStatus.FAILURE and not failed_cases:
            v.add(binary, '(result)', 'not ok', 'ok when no case failed')
        # Leftovers fail a binary, unless an expectation names them:
        # "BINARY:(leftovers) fail /REGEX/  # why", every line left
        # matching REGEX (a test of the kernel's own that cannot clean up
        # after a setup failure the variant causes).  Such a rule that
        # finds nothing fails too.
        rule = next((r for r in rules if r[0] == f'{binary}:(leftovers)'), None)
        left = leaks.get(binary, [])
        unexplained = [l for l in left if not (rule and rule[2].search(l))]
        if unexplained:
            v.add(binary, '(leftovers)', f'{len(left)} left behind', 'none',
                  detail='; '.join(unexplained[:5]))
        elif left:
            v.add(binary, '(leftovers)', 'fail', 'fail', rule[3])
        elif rule:
            v.add(binary, '(leftovers)', 'none', 'fail', rule[3])


def judge_kernel(v, raw, console, debug, kver):
    if console is None:
        v.add('kernel', 'console', 'missing', 'a console log')
    else:
        lines = console.splitlines()
        dumps = sysctl_dumps(lines) if kver == '6.1' else []
        excused = {i for first, last in dumps for i in range(first, last + 1)}
        splats = [l for i, l in enumerate(lines) if SPLAT.search(l) and i not in excused]
        notes = []
        if splats:
            notes.append(f'{len(splats)} line(s) of kernel reports')
        if dumps:
            notes.append(f'{len(dumps)} sysctl ENOMEM dump_stack() (6.1, no bug) not counted')
            print(f'NOTE  kernel:console: {notes[-1]}')
        for l in splats[:10]:
            print(f'KERNEL {l}')
        v.add('kernel', 'console', 'report' if splats else 'clean', 'clean',
              detail='; '.join(notes))
    m = re.findall(r'^# cgns: tainted (\d+)$', raw, re.M)
    if not m:
        v.add('kernel', 'taint', 'not reported', '0',
              detail='the run ended before the guest read /proc/sys/kernel/tainted')
    else:
        t = int(m[-1])
        flags = ''.join(c if t >> i & 1 else '' for i, c in enumerate(TAINT_FLAGS))
        names = ', '.join(n for i, n in enumerate(TAINT_NAMES) if t >> i & 1)
        v.add('kernel', 'taint', str(t), '0',
              detail=f'flags {flags}: {names}' if t else '')
    if debug:
        m = re.findall(r'^# cgns: kmemleak (\d+)$', raw, re.M)
        v.add('kernel', 'kmemleak', m[-1] if m else 'not reported', '0')


def write_junit(path, v):
    suites = ET.Element('testsuites', name=v.variant)
    groups = {}
    for r in v.records:
        groups.setdefault(r['binary'], []).append(r)
    for binary, records in groups.items():
        s = ET.SubElement(suites, 'testsuite', name=binary, tests=str(len(records)),
                          failures=str(sum(r['verdict'] == 'failed' for r in records)),
                          skipped=str(sum(r['verdict'] == 'skipped' for r in records)))
        for r in records:
            c = ET.SubElement(s, 'testcase', classname=f'{v.variant}.{binary}', name=r['case'])
            if r['verdict'] == 'failed':
                ET.SubElement(c, 'failure', message=f"got {r['result']}, expected {r['expected']}").text = r['detail']
            elif r['verdict'] == 'skipped':
                ET.SubElement(c, 'skipped', message=r['reason'])
    ET.ElementTree(suites).write(path, encoding='utf-8', xml_declaration=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--variant', required=True)
    ap.add_argument('--kver', help='the tree (a KVER of ./trees): which cases it has (tests/cases)')
    ap.add_argument('--ktap', required=True, help="the guest's KTAP document")
    ap.add_argument('--console', required=True, help='the kernel console log')
    ap.add_argument('--cases', required=True, action='append',
                    help='tests/cases (again: more cases, after those)')
    ap.add_argument('--expect', action='append', default=[],
                    help='tests/expect/KVER/VARIANT, tests/expect/VARIANT: '
                    'repeatable, the rules of all in order (first match wins); '
                    'none: every case must pass')
    ap.add_argument('--kunit', required=True, help='tools/testing/kunit of a kernel tree')
    ap.add_argument('--debug', action='store_true', help='DEBUG=1 kernel: kmemleak must be 0')
    ap.add_argument('--json', help='write results.json here')
    ap.add_argument('--junit', help='write JUnit XML here')
    ap.add_argument('--parser-log', help="write kunit_parser's output here")
    a = ap.parse_args()

    order, cases = load_cases(a.cases, a.kver)
    rules = [r for path in a.expect for r in load_expect(path)]
    try:
        with open(a.ktap, errors='backslashreplace') as f:
            raw = f.read()
    except OSError:
        raw = ''
    try:
        with open(a.console, errors='backslashreplace') as f:
            console = f.read()
    except OSError:
        console = None

    v = Verdicts(a.variant)
    kp, root, log = parse_ktap(a.kunit, raw)
    if a.parser_log:
        with open(a.parser_log, 'w') as f:
            f.write(log)
    if not raw.strip():
        v.add('suite', '(KTAP document)', 'empty', 'a KTAP document')
    judge_binaries(v, kp, root, raw.split('\n'), order, cases, rules)
    judge_kernel(v, raw, console, a.debug, a.kver)

    passed, failed, skipped = (v.count(x) for x in ('passed', 'failed', 'skipped'))
    if a.json:
        with open(a.json, 'w') as f:
            json.dump({'variant': a.variant,
                       'kernel': (re.findall(r'^# cgns: kernel (.*)$', raw, re.M) or [''])[0],
                       'ktap': os.path.abspath(a.ktap),
                       'console': os.path.abspath(a.console),
                       'summary': {'passed': passed, 'failed': failed, 'skipped': skipped},
                       'results': v.records}, f, indent=1)
            f.write('\n')
    if a.junit:
        write_junit(a.junit, v)
    print(f'{a.variant}: {len(order)} binaries, {len(v.records)} checks')
    print(f'{a.variant}: {passed} passed, {failed} failed, {skipped} skipped')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
