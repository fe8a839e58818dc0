#!/usr/bin/env bash
# End-to-end test of puppet-ls in Neovim: starts headless Neovim with the documented
# configuration (editors/neovim/puppet-ls.lua), opens test/fixture/demo/manifests/init.pp
# and checks what Neovim received: an `unknown-variable` diagnostic, a hover on `$port`
# showing an Integer type, and the definition of `Demo::Port` in types/port.pp.
#
# Usage: run.sh [path-to-puppet-ls]
#   Without an argument: $PUPPET_LS, target/release/puppet-ls, target/debug/puppet-ls,
#   then puppet-ls on PATH.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"

server="${1:-${PUPPET_LS:-}}"
if [ -z "$server" ]; then
  for candidate in "$repo/target/release/puppet-ls" "$repo/target/debug/puppet-ls"; do
    if [ -x "$candidate" ]; then server="$candidate"; break; fi
  done
fi
if [ -z "$server" ]; then server="$(command -v puppet-ls || true)"; fi
if [ -z "$server" ] || [ ! -x "$server" ]; then
  echo "neovim test: no puppet-ls binary (give its path, or build it: cargo build --release -p puppet-ls)" >&2
  exit 2
fi
server="$(cd "$(dirname "$server")" && pwd)/$(basename "$server")"
if ! command -v nvim >/dev/null; then
  echo "neovim test: nvim is not installed (apt-get install neovim)" >&2
  exit 2
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# The documented configuration runs `puppet-ls` from PATH: put the binary under test there.
mkdir -p "$work/bin" "$work/config" "$work/data" "$work/state" "$work/cache"
ln -s "$server" "$work/bin/puppet-ls"

out="$work/result.json"
echo "neovim test: $(nvim --version | head -1), server $server"
status=0
PATH="$work/bin:$PATH" \
  XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data" XDG_STATE_HOME="$work/state" XDG_CACHE_HOME="$work/cache" \
  PUPPET_LS_CONFIG="$here/../puppet-ls.lua" \
  PUPPET_LS_FIXTURE="$here/fixture/demo/manifests/init.pp" \
  PUPPET_LS_OUT="$out" \
  timeout 120 nvim --headless -n -i NONE -u "$here/lsp_test.lua" >"$work/nvim.log" 2>&1 || status=$?
if [ ! -s "$out" ]; then
  echo "neovim test: FAILED: Neovim wrote no result (exit status $status); its output:" >&2
  cat "$work/nvim.log" >&2
  exit 1
fi
if [ -n "${PUPPET_LS_KEEP_RESULT:-}" ]; then cp "$out" "$PUPPET_LS_KEEP_RESULT"; fi

show_lsp_log() {
  # Neovim's LSP log (the server's stderr is logged there) helps when the server misbehaves.
  local log
  log="$(find "$work/state" "$work/cache" -name 'lsp.log' 2>/dev/null | head -1)"
  if [ -n "$log" ] && [ -s "$log" ]; then
    echo "--- last lines of Neovim's LSP log:" >&2
    tail -n 20 "$log" >&2
  fi
}

if ! python3 - "$out" <<'PY'
import json, sys

with open(sys.argv[1]) as f:
    r = json.load(f)
checks = []

def check(name, ok, detail):
    checks.append((name, ok, detail))

for e in r.get("errors", []):
    check("no errors in the Neovim script", False, e)

diags = (r.get("diagnostics") or {}).get("diagnostics") or []
codes = [d.get("code") for d in diags]
check("diagnostic with code unknown-variable", "unknown-variable" in codes,
      f"received codes {codes}")
unknown = [d for d in diags if d.get("code") == "unknown-variable"]
check("the unknown-variable diagnostic is on $prot (line 11)",
      any(d["range"]["start"]["line"] == 10 for d in unknown),
      f"ranges {[d['range'] for d in unknown]}")

def hover_text(h):
    if not isinstance(h, dict):
        return ""
    c = h.get("contents")
    parts = c if isinstance(c, list) else [c]
    text = []
    for p in parts:
        if isinstance(p, str):
            text.append(p)
        elif isinstance(p, dict):
            text.append(str(p.get("value", "")))
    return "\n".join(text)

hover = hover_text(r.get("hover"))
check("hover on $port shows an Integer type", "Integer" in hover, f"hover text {hover!r}")

d = r.get("definition")
locations = d if isinstance(d, list) else ([d] if d else [])
uris = [l.get("targetUri") or l.get("uri") for l in locations if isinstance(l, dict)]
check("definition of Demo::Port is types/port.pp",
      any(u and u.endswith("/types/port.pp") for u in uris), f"uris {uris}")

failed = [c for c in checks if not c[1]]
for name, ok, detail in checks:
    print(f"  {'ok  ' if ok else 'FAIL'} {name}" + ("" if ok else f": {detail}"))
print(f"neovim test ran on Neovim {r.get('nvim_version')}")
print(f"neovim: {len(checks) - len(failed)} passed, {len(failed)} failed")
sys.exit(1 if failed else 0)
PY
then
  show_lsp_log
  echo "neovim test: FAILED" >&2
  exit 1
fi
