#!/usr/bin/env bash
# CI for the editor integrations (issue 8):
#   VS Code: npm ci, compile, lint, unit tests, grammar tests, package the .vsix; then the
#            end-to-end test: the .vsix installed into a real VS Code (code-server) driven
#            by a headless Chromium against the server (editors/vscode/test/e2e).
#   Neovim: the harness self-check with the stand-in server, then the end-to-end test with
#           puppet-ls when nvim and a server binary are there.
#   Emacs: the batch load test when emacs is there.
# Usage: editors/ci.sh [path-to-puppet-ls]
#   Without an argument the server is target/release/puppet-ls, else target/debug/puppet-ls.
#   PUPPET_LS_REQUIRE_NEOVIM=1 makes a missing nvim or server an error instead of a skip;
#   PUPPET_LS_REQUIRE_VSCODE=1 the same for the VS Code end-to-end test (Chromium, server).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
start=$SECONDS

step() { printf '\n== editors: %s\n' "$*"; }

server="${1:-}"
if [ -z "$server" ]; then
  for candidate in "$repo/target/release/puppet-ls" "$repo/target/debug/puppet-ls"; do
    if [ -x "$candidate" ]; then server="$candidate"; break; fi
  done
fi

# skip_or_fail REQUIRE_VARIABLE MESSAGE: an error when the variable is set, else a skip.
skip_or_fail() {
  if [ -n "${!1:-}" ]; then
    echo "editors: $2" >&2
    exit 1
  fi
  echo "editors: skipped: $2"
}

step "VS Code extension"
cd "$here/vscode"
npm ci --no-audit --no-fund
npm run compile
npm run lint
npm test
npm run test:grammar
npm run package
test -s puppet-ls.vsix
echo "editors: packaged $(pwd)/puppet-ls.vsix ($(wc -c <puppet-ls.vsix) bytes)"

if [ -z "$server" ]; then
  skip_or_fail PUPPET_LS_REQUIRE_VSCODE "no puppet-ls binary for the VS Code end-to-end test (build: cargo build --release -p puppet-ls)"
elif ! missing="$("$here/vscode/test/e2e/run.sh" --check)"; then
  skip_or_fail PUPPET_LS_REQUIRE_VSCODE "the VS Code end-to-end test needs: $missing"
else
  step "VS Code end-to-end test: the .vsix in code-server, driven by headless Chromium, with $server"
  e2e_start=$SECONDS
  "$here/vscode/test/e2e/run.sh" "$server" "$here/vscode/puppet-ls.vsix"
  echo "editors: VS Code end-to-end test in $((SECONDS - e2e_start)) s; screenshots in $here/vscode/test/e2e/screenshots"
fi

if command -v nvim >/dev/null; then
  step "Neovim harness self-check (scripted stand-in server, not puppet-ls)"
  "$here/neovim/test/run.sh" "$here/neovim/test/stand-in-server.py"
  if STAND_IN_MODE=wrong "$here/neovim/test/run.sh" "$here/neovim/test/stand-in-server.py" >/dev/null 2>&1; then
    echo "editors: the Neovim test passed with wrong answers from the stand-in server" >&2
    exit 1
  fi
  echo "editors: the Neovim test rejects wrong answers"
  if [ -n "$server" ]; then
    step "Neovim end-to-end test with $server"
    "$here/neovim/test/run.sh" "$server"
  else
    skip_or_fail PUPPET_LS_REQUIRE_NEOVIM "no puppet-ls binary for the Neovim test (build: cargo build --release -p puppet-ls)"
  fi
else
  skip_or_fail PUPPET_LS_REQUIRE_NEOVIM "nvim is not installed (apt-get install neovim): no Neovim test"
fi

if command -v emacs >/dev/null; then
  step "Emacs configuration"
  emacs --batch -l "$here/emacs/test/load-test.el"
else
  echo "editors: skipped: emacs is not installed: no Emacs load test"
fi

echo
echo "editors: all checks passed in $((SECONDS - start)) s"
