#!/bin/sh
# Smoke test of an installed skiff (a release binary or the npm package): its
# version, a pane round trip and a ledger round trip, in throwaway folders.
#
#   scripts/smoke.sh SKIFF [--compiled]
#
# --compiled also requires `skiff --version --json` to say it runs compiled.
# Prints "smoke: ok …" and exits 0, or one "smoke: …" line and exits 1.
set -eu
skiff=$1
want_compiled=${2:-}

work=$(mktemp -d 2>/dev/null || mktemp -d -t skiff-smoke)
export HOME="$work/home" SHELL=/bin/sh
export SKIFF_CONFIG_DIR="$work/config" SKIFF_STATE_DIR="$work/state"
export SKIFF_SOCKET="$work/run/skiffd.sock" SKIFF_LEDGER="$work/ledger.db"
unset SKIFF_PANE SKIFF_SESSION
mkdir -p "$HOME"
cleanup() {
  "$skiff" daemon stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "smoke: $*" >&2
  exit 1
}

version=$("$skiff" --version) || fail "'skiff --version' failed"
case $version in "skiff "[0-9]*) ;; *) fail "'skiff --version' printed '$version'" ;; esac
report=$("$skiff" --version --json) || fail "'skiff --version --json' failed"
case $report in *'"compiled":true'*) compiled=yes ;; *) compiled=no ;; esac
if [ "$want_compiled" = --compiled ] && [ "$compiled" != yes ]; then
  fail "not a compiled binary: $report"
fi

pane=$("$skiff" new -- sh) || fail "'skiff new' failed"
"$skiff" keys "$pane" 'echo smoke-$((6*7))' Enter || fail "'skiff keys' failed"
tries=0
until "$skiff" capture "$pane" | grep -q '^smoke-42$'; do
  tries=$((tries + 1))
  [ "$tries" -lt 100 ] || fail "the pane never showed the echo: $("$skiff" capture "$pane")"
  sleep 0.1
done
"$skiff" kill "$pane" || fail "'skiff kill' failed"

uid=$("$skiff" ledger add --task "Smoke test" | cut -d ' ' -f 1) || fail "'skiff ledger add' failed"
"$skiff" ledger ls --json | grep -q "\"uid\":\"$uid\"" || fail "'skiff ledger ls' lacks $uid"
"$skiff" ledger done "$uid" >/dev/null || fail "'skiff ledger done' failed"
"$skiff" daemon stop >/dev/null || fail "'skiff daemon stop' failed"

echo "smoke: ok ($version, compiled: $compiled)"
