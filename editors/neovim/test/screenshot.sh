#!/usr/bin/env bash
# Screenshot of puppet-ls in Neovim for the top-level README: Neovim with the documented
# configuration (editors/neovim/puppet-ls.lua) in an xterm on a virtual X server (Xvfb),
# the fixture manifest open, its diagnostics shown and a hover on `$port`.
#
# Usage: screenshot.sh [path-to-puppet-ls] [output.png]
#   Default output: docs/images/neovim-hover.png.
# Needs: nvim, Xvfb, xterm, ImageMagick (import), a monospace font
#   (apt-get install neovim xvfb xterm imagemagick fonts-dejavu-core).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"

server="${1:-${PUPPET_LS:-}}"
if [ -z "$server" ]; then
  for candidate in "$repo/target/release/puppet-ls" "$repo/target/debug/puppet-ls"; do
    if [ -x "$candidate" ]; then server="$candidate"; break; fi
  done
fi
if [ -z "$server" ] || [ ! -x "$server" ]; then
  echo "screenshot: no puppet-ls binary (give its path, or cargo build --release -p puppet-ls)" >&2
  exit 2
fi
server="$(cd "$(dirname "$server")" && pwd)/$(basename "$server")"
output="${2:-$repo/docs/images/neovim-hover.png}"
for tool in nvim Xvfb xterm import; do
  command -v "$tool" >/dev/null || { echo "screenshot: $tool is not installed" >&2; exit 2; }
done

work="$(mktemp -d)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/bin" "$work/config" "$work/data" "$work/state" "$work/cache"
ln -s "$server" "$work/bin/puppet-ls"

# A free display number.
display=99
while [ -e "/tmp/.X11-unix/X$display" ] || [ -e "/tmp/.X$display-lock" ]; do display=$((display + 1)); done
Xvfb ":$display" -screen 0 1010x540x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X$display" ] && break; sleep 0.1; done

cd "$here/fixture/demo"
DISPLAY=":$display" PATH="$work/bin:$PATH" \
  XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data" XDG_STATE_HOME="$work/state" XDG_CACHE_HOME="$work/cache" \
  PUPPET_LS_CONFIG="$here/../puppet-ls.lua" PUPPET_LS_READY="$work/ready" \
  xterm -geometry 100x26+0+0 -bg '#1e1e1e' -fg '#d4d4d4' -fa 'DejaVu Sans Mono' -fs 12 \
    -xrm 'XTerm*termName: xterm-256color' \
    -e nvim -n -i NONE -u "$here/screenshot_init.lua" manifests/init.pp >"$work/xterm.log" 2>&1 &
pids+=($!)

for _ in $(seq 300); do [ -s "$work/ready" ] && break; sleep 0.1; done
if [ ! -s "$work/ready" ]; then
  echo "screenshot: Neovim did not get ready in 30 s" >&2
  exit 1
fi
if [ "$(cat "$work/ready")" != ok ]; then
  echo "screenshot: warning: no diagnostics from the server; capturing anyway" >&2
fi
mkdir -p "$(dirname "$output")"
DISPLAY=":$display" import -window root -crop 1004x524+0+0 +repage "$output"
echo "screenshot: wrote $output"
