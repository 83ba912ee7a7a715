#!/usr/bin/env bash
# Prints the path of a Deno that can run Skiff. Uses `deno` from PATH when it
# is 2.9 or newer; otherwise installs deno@2.9.6 from npm into .tools/deno.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
pinned="2.9.6"
usable() {
  local v
  v="$("$1" --version 2>/dev/null | head -n1 | awk '{print $2}')" || return 1
  local major minor
  major="${v%%.*}"; minor="${v#*.}"; minor="${minor%%.*}"
  [ -n "$major" ] && { [ "$major" -gt 2 ] || { [ "$major" -eq 2 ] && [ "$minor" -ge 9 ]; }; }
}
local_deno="$here/.tools/deno/node_modules/deno/deno"
if [ "${SKIFF_USE_PINNED_DENO:-}" != "1" ] && command -v deno >/dev/null 2>&1 && usable deno; then
  command -v deno
  exit 0
fi
if [ -x "$local_deno" ] && usable "$local_deno"; then
  echo "$local_deno"
  exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
  echo "skiff: Deno 2.9+ is needed, and npm is not here to install it. Install Deno from https://deno.com" >&2
  exit 4
fi
echo "skiff: installing deno@$pinned from npm into .tools/deno (once)…" >&2
mkdir -p "$here/.tools/deno"
# npm's chatter (counts, update notices) stays out of the way; its log is shown only when it fails.
npm_log="$(mktemp)"
trap 'rm -f "$npm_log"' EXIT
if ! npm install --prefix "$here/.tools/deno" --loglevel=error --no-update-notifier --no-audit --no-fund \
  "deno@$pinned" >"$npm_log" 2>&1 || ! usable "$local_deno"; then
  cat "$npm_log" >&2
  echo "skiff: could not install deno@$pinned from npm (see npm's error above); install Deno 2.9+ from https://deno.com or fix npm's access to its registry" >&2
  exit 4
fi
echo "$local_deno"
