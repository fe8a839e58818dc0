#!/usr/bin/env bash
# Re-runs every lookup recorded in this directory against the installed Puppet
# and rewrites the recorded answers in place:
#   cases.json          outcome/found/value/error/exit/stderr (inputs: command)
#   explain/*.txt       `--explain` text for cases that name an "explain" file
#   interpolation.json  result/error/exit/stderr (inputs: key, value, or hiera_yaml + files)
#   config_cases.json   result/error/exit/stderr (inputs: hiera_yaml, files, key)
# Usage: ./regenerate.sh        (needs `puppet` and python3; takes a few minutes)
# Commands in cases.json run from this directory with $ENVPATH set to a temporary
# directory whose `production` entry is a symlink to ./env.
set -euo pipefail
cd "$(dirname "$0")"
exec python3 - <<'PY'
import json, os, re, shutil, subprocess, tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.getcwd()
ANSI = re.compile(r'\x1b\[[0-9;]*m')
TMP = tempfile.mkdtemp(prefix='hiera_lookup.')
FACTS = 'env/facts/web01.example.com.yaml'  # facts used for scratch environments
POOL = ThreadPoolExecutor(max_workers=os.cpu_count() or 2)


def clean(text, envpath):
    return ANSI.sub('', text).replace(envpath, '$ENVPATH')


def run(cmd, envpath):
    env = dict(os.environ, ENVPATH=envpath)
    p = subprocess.run(['bash', '-c', cmd], cwd=HERE, env=env,
                       capture_output=True, text=True)
    return p.returncode, clean(p.stdout, envpath), clean(p.stderr, envpath)


def explain_message(text):
    """The message `--explain` prints after its trace: the trailing unindented lines."""
    lines = text.rstrip('\n').split('\n')
    tail = []
    while lines and lines[-1] and not lines[-1][0].isspace() \
            and not lines[-1].startswith('Searching for'):
        tail.insert(0, lines.pop())
    return '\n'.join(tail) or None


def stderr_error(err):
    m = re.search(r'^Error: (?:Could not run: )?(.*)', err, re.S | re.M)
    return m.group(1).strip() if m else None


def lookup(cmd, envpath):
    """Runs a `puppet lookup ... --render-as json KEY` command and classifies it."""
    rc, out, err = run(cmd, envpath)
    res = {'exit': rc}
    if rc == 0:
        res.update(outcome='found', found=True, value=json.loads(out), error=None)
    else:
        error = stderr_error(err)
        if error is None:
            # `puppet lookup` exits 1 without a word when the lookup raises a
            # LookupError (not found, interpolation error...); --explain prints it.
            _, eout, eerr = run(cmd.replace('--render-as json', '--explain'), envpath)
            error = stderr_error(eerr) or explain_message(eout)
        not_found = bool(error) and error.startswith('Function lookup() did not find a value')
        res.update(outcome='not_found' if not_found else 'error', found=False,
                   value=None, error=error)
    res['stderr'] = err.strip() or None
    return res


def scratch_env(name, hiera_yaml, files):
    envpath = os.path.join(TMP, name)
    root = os.path.join(envpath, 'production')
    os.makedirs(root)
    with open(os.path.join(root, 'hiera.yaml'), 'w') as f:
        f.write(hiera_yaml)
    for rel, content in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'w') as f:
            f.write(content)
    return envpath


def scratch_command(key):
    return ('puppet lookup --environmentpath "$ENVPATH" --environment production '
            f'--node web01.example.com --facts {FACTS} --render-as json \'{key}\'')


def rewrite(path, items):
    with open(path, 'w') as f:
        json.dump(items, f, indent=2, ensure_ascii=False)
        f.write('\n')


# --- cases.json: the fixture environment ./env -----------------------------------
envpath = os.path.join(TMP, 'envs')
os.makedirs(envpath)
os.symlink(os.path.join(HERE, 'env'), os.path.join(envpath, 'production'))
cases = json.load(open('cases.json'))


def do_case(case):
    case.update(lookup(case['command'], envpath))
    if case.get('explain'):
        ecmd = case['command'].replace('--render-as json', '--explain')
        _, out, _ = run(ecmd, envpath)
        os.makedirs('explain', exist_ok=True)
        with open(case['explain'], 'w') as f:
            f.write(f"# {ecmd}\n" + out)
    return f"{case['outcome']:9} {case['node']:18} {case['key']} {case['merge'] or ''}"


for line in POOL.map(do_case, cases):
    print(line)
rewrite('cases.json', cases)

# --- interpolation.json: interpolation in data values and in hierarchy paths -------
SUPPORT = 'k: "v"\narr: [1, 2]\nh: {a: 1}\n'
DATA_HIERA = ('---\nversion: 5\ndefaults: {datadir: data, data_hash: yaml_data}\n'
              'hierarchy:\n  - name: common\n    path: common.yaml\n')
interp = json.load(open('interpolation.json'))
data_cases = [c for c in interp if 'hiera_yaml' not in c]
common = SUPPORT + ''.join(f"{json.dumps(c['key'])}: {json.dumps(c['value'])}\n"
                           for c in data_cases)
data_env = scratch_env('interp_data', DATA_HIERA, {'data/common.yaml': common})


def do_interp(ic):
    i, c = ic
    if 'hiera_yaml' in c:
        env = scratch_env(f'interp_path{i}', c['hiera_yaml'], c.get('files', {}))
    else:
        env = data_env
    c['command'] = scratch_command(c['key'])
    r = lookup(c['command'], env)
    c['result'] = r['value'] if r['found'] else None
    c.update({k: r[k] for k in ('outcome', 'error', 'exit', 'stderr')})
    return f"{c['outcome']:9} {c['value']}"


for line in POOL.map(do_interp, enumerate(interp)):
    print(line)
rewrite('interpolation.json', interp)

# --- config_cases.json: hiera.yaml validity ---------------------------------------
configs = json.load(open('config_cases.json'))


def do_config(ic):
    i, c = ic
    env = scratch_env(f'config{i}', c['hiera_yaml'], c.get('files', {}))
    c['command'] = scratch_command(c['key'])
    r = lookup(c['command'], env)
    c['result'] = r['value'] if r['found'] else None
    c.update({k: r[k] for k in ('outcome', 'error', 'exit', 'stderr')})
    return f"{c['outcome']:9} {c['name']}"


for line in POOL.map(do_config, enumerate(configs)):
    print(line)
rewrite('config_cases.json', configs)

shutil.rmtree(TMP)
PY
