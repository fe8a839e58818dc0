#!/usr/bin/env bash
# End-to-end test of the VS Code extension in a real VS Code: installs the
# pinned code-server and playwright-core (package-lock.json) once, then runs
# run.mjs, which installs the .vsix into code-server and drives it in a
# headless Chromium.
#
# Usage: run.sh PUPPET_LS VSIX
#        run.sh --check     prints what is missing to run it (exit status 1 if anything is)
# Needs: Chromium (apt-get install chromium), and to build code-server's
# native modules a C++ toolchain, Node's headers and libkrb5-dev; code-server's
# search runs ripgrep, taken from Debian's ripgrep package (see below).
# Screenshots of every step go to screenshots/ (kept as the CI artifact).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# The arguments are taken from the directory run.sh is called in.
server="$(readlink -f -- "${1:-.}")"
vsix="$(readlink -f -- "${2:-.}")"
cd "$here"
# node_modules is reinstalled when package-lock.json changes (a stamp names its hash).
stamp="node_modules/.installed-$(sha256sum package-lock.json | cut -c1-16)"
node_prefix="$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")"

missing() {
  if [ -z "${CHROMIUM:-}" ] && ! command -v chromium >/dev/null && ! command -v chromium-browser >/dev/null; then
    echo "chromium (apt-get install chromium)"
  fi
  if [ ! -e "$stamp" ]; then
    # To install code-server: its native modules are built, and its search runs ripgrep.
    command -v rg >/dev/null || echo "rg (apt-get install ripgrep)"
    command -v c++ >/dev/null && command -v make >/dev/null || echo "a C++ toolchain (apt-get install build-essential)"
    [ -e /usr/include/gssapi/gssapi.h ] || echo "the Kerberos headers (apt-get install libkrb5-dev)"
    [ -n "${npm_config_nodedir:-}" ] || [ -e "$node_prefix/include/node/node.h" ] || echo "Node's headers (include/node beside the node binary)"
  fi
  return 0
}

if [ "${1:-}" = "--check" ]; then
  what="$(missing)"
  if [ -n "$what" ]; then
    echo "$what" | paste -sd ';' | sed 's/;/; /g'
    exit 1
  fi
  exit 0
fi
if [ $# -ne 2 ]; then
  echo "usage: $0 PUPPET_LS VSIX" >&2
  exit 2
fi
what="$(missing)"
if [ -n "$what" ]; then
  echo "vscode e2e: missing: $what" >&2
  exit 2
fi

start=$SECONDS
if [ ! -e "$stamp" ]; then
  rm -rf node_modules
  # The packages, without their install scripts: code-server's needs the
  # ripgrep cache below first.
  npm ci --ignore-scripts --no-audit --no-fund
  # code-server's postinstall installs VS Code's own dependencies (its
  # npm-shrinkwrap.json) and builds their native modules with node-gyp, from
  # the headers of the running Node (nothing is downloaded but packages).
  if [ -z "${npm_config_nodedir:-}" ]; then
    export npm_config_nodedir="$node_prefix"
  fi
  # @vscode/ripgrep downloads rg from GitHub in its postinstall unless its
  # cache (in TMPDIR) has the release archive: give it one holding Debian's rg
  # (the same ripgrep 13). The archive name is the one @vscode/ripgrep 1.15
  # asks for; a code-server with another ripgrep fails here loudly.
  rg_version="$(node -p 'require("./node_modules/code-server/lib/vscode/npm-shrinkwrap.json").packages["node_modules/@vscode/ripgrep"].version')"
  case "$(uname -m)" in
    x86_64) rg_target=x86_64-unknown-linux-musl ;;
    aarch64) rg_target=aarch64-unknown-linux-musl ;;
    *) echo "vscode e2e: no ripgrep archive name for $(uname -m)" >&2; exit 2 ;;
  esac
  scratch="$(mktemp -d)"
  trap 'rm -rf "$scratch"' EXIT
  mkdir -p "$scratch/tmp/vscode-ripgrep-cache-$rg_version" "$scratch/rg"
  cp "$(command -v rg)" "$scratch/rg/rg"
  tar czf "$scratch/tmp/vscode-ripgrep-cache-$rg_version/ripgrep-v13.0.0-10-$rg_target.tar.gz" -C "$scratch/rg" rg
  # npx in node-pty's install must be allowed to fetch node-gyp from npm.
  TMPDIR="$scratch/tmp" npm_config_yes=true npm rebuild code-server argon2 --unsafe-perm --no-audit --no-fund
  test -x node_modules/code-server/lib/vscode/node_modules/@vscode/ripgrep/bin/rg
  touch "$stamp"
  echo "vscode e2e: installed code-server and playwright-core in $((SECONDS - start)) s"
fi

node run.mjs "$server" "$vsix"
echo "vscode e2e: done in $((SECONDS - start)) s"
