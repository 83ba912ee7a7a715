#!/usr/bin/env bash
# Install the pinned agent CLIs used by Skiff's real-agent tests.
#
# Usage: tests/agents/install.sh [agent ...]
#   With no arguments every agent in tests/agents/versions.json is installed.
#   Each agent goes into its own npm folder: ${SKIFF_AGENTS_DIR:-<repo>/.tools/agents}/<agent>/
#   An agent already installed at the pinned version is skipped.
#
# Install scripts run with HOME pointing at a throwaway directory, because some
# postinstall steps (opencode) start the CLI, which creates folders under HOME.
# npm's own cache and user config are kept so repeated installs stay fast.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
versions="$here/versions.json"
agents_dir="${SKIFF_AGENTS_DIR:-$repo/.tools/agents}"

command -v node >/dev/null || { echo "install.sh: node is required" >&2; exit 1; }
command -v npm >/dev/null || { echo "install.sh: npm is required" >&2; exit 1; }

# Read one field of one agent from versions.json.
pin() {
  node -e '
    const t = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const a = t[process.argv[2]];
    if (!a) process.exit(3);
    process.stdout.write(String(a[process.argv[3]]));
  ' "$versions" "$1" "$2"
}

# Version of an installed package, or empty.
installed_version() {
  local pkg_json="$1/node_modules/$2/package.json"
  [[ -f "$pkg_json" ]] || return 0
  node -e 'process.stdout.write(require(process.argv[1]).version || "")' "$pkg_json"
}

if [[ $# -gt 0 ]]; then
  wanted=("$@")
else
  mapfile -t wanted < <(node -e 'console.log(Object.keys(require(process.argv[1])).join("\n"))' "$versions")
fi

real_cache="$(npm config get cache)"
real_userconfig="$(npm config get userconfig)"
scratch_home="$(mktemp -d "${TMPDIR:-/tmp}/skiff-agent-install-home.XXXXXX")"
trap 'rm -rf "$scratch_home"' EXIT

mkdir -p "$agents_dir"
status=0
for agent in "${wanted[@]}"; do
  if ! pkg="$(pin "$agent" package)"; then
    echo "$agent: unknown agent (not in $versions)" >&2
    status=1
    continue
  fi
  ver="$(pin "$agent" version)"
  dir="$agents_dir/$agent"
  have="$(installed_version "$dir" "$pkg")"
  if [[ "$have" == "$ver" ]]; then
    echo "$agent: $pkg@$ver already installed in $dir (skipped)"
    continue
  fi
  echo "$agent: installing $pkg@$ver into $dir${have:+ (replacing $have)}"
  mkdir -p "$dir"
  [[ -f "$dir/package.json" ]] || printf '{ "name": "skiff-agent-%s", "private": true }\n' "$agent" >"$dir/package.json"
  if (
    cd "$dir"
    HOME="$scratch_home" \
      XDG_CONFIG_HOME="$scratch_home/.config" \
      XDG_DATA_HOME="$scratch_home/.local/share" \
      XDG_STATE_HOME="$scratch_home/.local/state" \
      XDG_CACHE_HOME="$scratch_home/.cache" \
      npm_config_cache="$real_cache" \
      npm_config_userconfig="$real_userconfig" \
      npm_config_update_notifier=false \
      npm_config_fund=false \
      npm_config_audit=false \
      DISABLE_AUTOUPDATER=1 \
      OPENCODE_DISABLE_AUTOUPDATE=1 \
      npm install --save-exact --loglevel=error "$pkg@$ver" >"$dir/install.log" 2>&1
  ); then
    got="$(installed_version "$dir" "$pkg")"
    if [[ "$got" == "$ver" ]]; then
      echo "$agent: installed $pkg@$got"
    else
      echo "$agent: npm finished but found version '${got:-none}' (log: $dir/install.log)" >&2
      status=1
    fi
  else
    echo "$agent: npm install failed (log: $dir/install.log)" >&2
    tail -n 20 "$dir/install.log" >&2 || true
    status=1
  fi
done

# opencode installs its plugin kit (@opencode-ai/plugin, the version of the CLI) into
# ~/.config/opencode with npm on every start that finds a plugin there and no kit: 40-50 s,
# and minutes under load. The tests give it a copy of this one (tests/agents/agent_env.ts).
if [[ " ${wanted[*]} " == *" opencode "* ]]; then
  ver="$(pin opencode version)"
  kit="$agents_dir/opencode-config"
  if [[ "$(installed_version "$kit" "@opencode-ai/plugin")" == "$ver" ]]; then
    echo "opencode: its plugin kit @opencode-ai/plugin@$ver already in $kit (skipped)"
  else
    rm -rf "$kit"
    mkdir -p "$kit"
    printf '{\n  "dependencies": {\n    "@opencode-ai/plugin": "%s"\n  }\n}\n' "$ver" >"$kit/package.json"
    if (
      cd "$kit"
      HOME="$scratch_home" npm_config_cache="$real_cache" npm_config_userconfig="$real_userconfig" \
        npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false \
        npm install --loglevel=error >"$kit.log" 2>&1
    ); then
      echo "opencode: plugin kit @opencode-ai/plugin@$ver installed in $kit"
    else
      echo "opencode: the plugin kit's npm install failed (log: $kit.log)" >&2
      tail -n 20 "$kit.log" >&2 || true
      status=1
    fi
  fi
fi
exit "$status"
