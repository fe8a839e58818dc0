#!/usr/bin/env python3
"""The formatter against Puppet itself, once, on the whole corpus (not CI:
it needs Puppet 7 and puppet-lint installed, and takes minutes).

1. Copies every `.pp` file of the corpus to a scratch directory.
2. Runs `puppet parser dump` on each original file Puppet accepts.
3. Formats the copy with `puppet-ls fmt` (timed).
4. Runs `puppet parser dump` on the formatted files: every dump must be
   identical to the original's.
5. Runs puppet-lint's whitespace, alignment and quoting checks on the
   original and on the formatted corpus, and counts the warnings per check.

Usage:
    tools/format_proof.py PUPPET_LS_BINARY [CORPUS_DIR] [--keep DIR]

Exit status 1 if any dump differs. Figures go to docs/benchmarks.md by hand.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter

LINT_CHECKS = [
    "arrow_alignment",
    "trailing_whitespace",
    "hard_tabs",
    "2sp_soft_tabs",
    "double_quoted_strings",
    "only_variable_string",
    "arrow_on_right_operand_line",
]
BATCH = 150


def manifests(root):
    found = []
    for dirpath, _dirs, files in os.walk(root, followlinks=True):
        for name in files:
            if name.endswith(".pp"):
                found.append(os.path.relpath(os.path.join(dirpath, name), root))
    return sorted(found)


def dumps(root, paths):
    """`puppet parser dump` of each path (relative to root): its output, or
    None when Puppet rejects the file."""
    result = {}
    for start in range(0, len(paths), BATCH):
        batch = paths[start:start + BATCH]
        run = subprocess.run(
            ["puppet", "parser", "dump", *batch],
            cwd=root, capture_output=True, text=True,
        )
        # Each file's dump starts with `--- PATH`; a rejected file has none.
        markers = [(m.start(), m.group(1))
                   for m in re.finditer(r"^--- (\S+?\.pp)", run.stdout, re.M)]
        for i, (at, path) in enumerate(markers):
            end = markers[i + 1][0] if i + 1 < len(markers) else len(run.stdout)
            result[path] = run.stdout[at + len("--- ") + len(path):end]
        for path in batch:
            result.setdefault(path, None)
        print(f"  dumped {min(start + BATCH, len(paths))}/{len(paths)}", file=sys.stderr)
    return result


def lint(root):
    run = subprocess.run(
        ["puppet-lint", "--only-checks", ",".join(LINT_CHECKS),
         "--log-format", "%{path}:%{line}:%{check}", "."],
        cwd=root, capture_output=True, text=True,
    )
    counts = Counter()
    for line in run.stdout.splitlines():
        parts = line.rsplit(":", 1)
        if len(parts) == 2 and parts[1] in LINT_CHECKS:
            counts[parts[1]] += 1
    return counts, run.stdout


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--keep")]
    keep = None
    if "--keep" in sys.argv:
        keep = sys.argv[sys.argv.index("--keep") + 1]
        args = [a for a in args if a != keep]
    if not args:
        print(__doc__)
        return 2
    binary = os.path.abspath(args[0])
    corpus = args[1] if len(args) > 1 else "/usr/share/puppet/modules"
    scratch = keep or tempfile.mkdtemp(prefix="format-proof-")
    paths = manifests(corpus)
    print(f"{len(paths)} manifests under {corpus}; scratch copy in {scratch}", file=sys.stderr)
    for path in paths:
        target = os.path.join(scratch, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(os.path.join(corpus, path), target)

    print("puppet-lint on the original corpus...", file=sys.stderr)
    lint_before, _ = lint(scratch)
    print("puppet parser dump of the originals...", file=sys.stderr)
    before = dumps(scratch, paths)

    started = time.monotonic()
    fmt = subprocess.run([binary, "fmt", scratch], capture_output=True, text=True)
    elapsed = time.monotonic() - started
    not_formatted = [line for line in fmt.stderr.splitlines() if "error" in line]

    print("puppet parser dump of the formatted files...", file=sys.stderr)
    after = dumps(scratch, paths)
    print("puppet-lint on the formatted corpus...", file=sys.stderr)
    lint_after, lint_output = lint(scratch)

    accepted = [p for p in paths if before[p] is not None]
    differing = [p for p in accepted if before[p] != after[p]]
    print(f"puppet-ls fmt: {len(paths)} files in {elapsed:.2f} s "
          f"(exit status {fmt.returncode}, {len(not_formatted)} not formatted)")
    for line in not_formatted:
        print(f"  {line}")
    print(f"puppet parser dump: {len(accepted)} files accepted by Puppet, "
          f"{len(accepted) - len(differing)} identical after formatting, {len(differing)} differ")
    for path in differing:
        print(f"  differs: {path}")
    print("puppet-lint warnings (before -> after formatting):")
    for check in LINT_CHECKS:
        print(f"  {check}: {lint_before[check]} -> {lint_after[check]}")
    if lint_after:
        print("remaining puppet-lint warnings:")
        print(lint_output)
    if not keep:
        shutil.rmtree(scratch, ignore_errors=True)
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
