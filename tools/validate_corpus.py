#!/usr/bin/env python3
"""Puppet's verdict on every file of the Debian corpus (../shared/corpus), with
`puppet parser validate` (.pp) and `puppet epp validate --continue_on_error`
(.epp), many files per process (~3 minutes for the corpus), for Puppet 7
(`puppet`) or Puppet 8 (`puppet8`). Not CI: it needs the corpus and Puppet.

Writes OUT.tsv (`path  verdict  error`, the corpus's verdicts.tsv columns;
error is `LINE:COL [ISSUE_CODE] message` from `--render-as json`, which
with --max_errors 1 gives the first error of a file) and prints the files whose verdict differs
from the recorded Puppet 7 one.

usage: tools/validate_corpus.py PUPPET_CMD OUT.tsv [--in-place]
  PUPPET_CMD   puppet | puppet8
  --in-place   keep Puppet's module path, which holds /usr/share/puppet/modules,
               so the module-layout checks apply (compared with layout.tsv);
               default: an empty --basemodulepath, as verdicts.tsv was recorded.
CORPUS=dir overrides the corpus directory (default: ../shared/corpus from the
project root).

A file whose failure is not a ParseError (ast.pp: "Attempt to redefine entity")
ends `parser validate` for the whole batch; the batch is then split until
that file is alone.
"""
import json, os, re, subprocess, sys, tempfile

CORPUS = os.environ.get('CORPUS', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'shared', 'corpus'))
ROOT = '/usr/share/puppet/modules'
BATCH = 150

puppet = sys.argv[1]
out = sys.argv[2]
in_place = '--in-place' in sys.argv[3:]
empty = tempfile.mkdtemp(prefix='emptymods')
extra = [] if in_place else ['--basemodulepath', empty]

rows = [l.rstrip('\n').split('\t') for l in open(os.path.join(CORPUS, 'verdicts.tsv'))][1:]
pp = [r[0] for r in rows if r[0].endswith('.pp')]
epp = [r[0] for r in rows if r[0].endswith('.epp')]

ANSI = re.compile(r'\x1b\[[0-9;]*m')
result = {}


def fmt(line, pos, code, msg):
    return f"{line if line is not None else '?'}:{pos if pos is not None else '?'} [{code or 'NO_ISSUE_CODE'}] {msg}"


def classify(code):
    # Puppet's lexer/parser issue codes; everything else comes from the validator
    # or from loading the definitions
    return 'syntax-error' if code in (
        'SYNTAX_ERROR', 'UNCLOSED_QUOTE', 'UNCLOSED_MLCOMMENT', 'UNBALANCED_BRACES',
        'ILLEGAL_NUMBER', 'NOT_HEX', 'NOT_OCTAL', 'NOT_DECIMAL', 'NO_INPUT',
        'UNRECOGNIZED_ESCAPE', 'ILLEGAL_CLASS_REFERENCE', 'ILLEGAL_FULLY_QUALIFIED_CLASS_REFERENCE',
        'ILLEGAL_FULLY_QUALIFIED_NAME', 'ILLEGAL_NAME_OR_BARE_WORD', 'ILLEGAL_VARIABLE_NAME',
        'HEREDOC_MISSING_ENDTAG', 'HEREDOC_INVALID_ESCAPE', 'HEREDOC_INVALID_SYNTAX',
        'HEREDOC_WITHOUT_END_TAGGED_LINE', 'HEREDOC_WITHOUT_TEXT', 'HEREDOC_UNCLOSED_PARENTHESIS',
        'HEREDOC_MULTIPLE_AT_ESCAPES', 'UNCLOSED_EPP_TAG', 'ILLEGAL_EPP_PARAMETERS',
        'EPP_UNBALANCED_TAG', 'EPP_UNBALANCED_COMMENT', 'EPP_UNBALANCED_EXPRESSION',
        'INVALID_UTF8') else 'validation-error'


def run_pp(files):
    p = subprocess.run([puppet, 'parser', 'validate', '--render-as', 'json', '--max_errors', '1', *extra, *files],
                       cwd=ROOT, capture_output=True, text=True)
    if p.returncode == 0:
        for f in files:
            result[f] = ('ok', '')
        return
    try:
        data = json.loads(p.stdout)
    except ValueError:
        data = None
    if data is None:
        # an exception that is not a ParseError ends the whole run: split the batch
        if len(files) == 1:
            msg = ' | '.join(l for l in ANSI.sub('', p.stderr).splitlines()
                             if not l.startswith("Error: Try 'puppet help"))
            msg = re.sub(r'^Error: ', '', msg)
            result[files[0]] = ('validation-error', fmt(None, None, None, msg))
            return
        h = len(files) // 2
        run_pp(files[:h]); run_pp(files[h:])
        return
    for f in files:
        e = data.get(f)
        if e is None:
            result[f] = ('ok', '')
        else:
            result[f] = (classify(e.get('issue_code')),
                         fmt(e.get('line'), e.get('pos'), e.get('issue_code'), e.get('message')))


def run_epp(files):
    p = subprocess.run([puppet, 'epp', 'validate', '--continue_on_error', *extra, *files],
                       cwd=ROOT, capture_output=True, text=True)
    errs = [ANSI.sub('', l) for l in p.stderr.splitlines()]
    errs = [l for l in errs if l.startswith('Error:') and 'Errors while validating epp' not in l
            and "Try 'puppet help" not in l]
    for f in files:
        result[f] = ('ok', '')
    if p.returncode == 0:
        return
    if len(files) > 1:
        for f in files:
            run_epp([f])
        return
    result[files[0]] = ('validation-error', fmt(None, None, None, ' | '.join(errs) or p.stderr.strip()))


for i in range(0, len(pp), BATCH):
    run_pp(pp[i:i + BATCH])
    print(f'{puppet}: pp {min(i + BATCH, len(pp))}/{len(pp)}', file=sys.stderr)
for i in range(0, len(epp), BATCH):
    run_epp(epp[i:i + BATCH])

with open(out, 'w') as o:
    o.write('path\tverdict\terror\n')
    for r in rows:
        v, e = result[r[0]]
        o.write(f'{r[0]}\t{v}\t{e}\n')

# What differs from the recorded Puppet 7 verdicts (issue codes compared too).
recorded = {r[0]: (r[2], r[3]) for r in rows}
if in_place:
    for l in list(open(os.path.join(CORPUS, 'layout.tsv')))[1:]:
        p, v, e = l.rstrip('\n').split('\t')
        recorded[p] = (v, e)
code = lambda e: re.match(r'[^ ]* \[([A-Z0-9_]+)\]', e).group(1) if e else ''
counts = {}
for r in rows:
    v, e = result[r[0]]
    counts[v] = counts.get(v, 0) + 1
    rv, re_ = recorded[r[0]]
    if (v, code(e)) != (rv, code(re_)):
        print(f'{r[0]}\n  recorded: {rv} {re_}\n  {puppet}: {v} {e}')
print(f'{puppet}: {len(rows)} files, ' + ', '.join(f'{n} {v}' for v, n in sorted(counts.items())))
