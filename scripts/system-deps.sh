#!/usr/bin/env bash
# Installs the Debian packages the project needs, only those missing. Go comes with the machine image;
# everything else (Node 24, pnpm) is bootstrapped from the npm registry by scripts/bootstrap.sh.
set -euo pipefail
need=()
command -v openssl >/dev/null || need+=(openssl)
command -v curl >/dev/null || need+=(curl)
# The dashboard's browser test drives Debian's Chromium (never a browser download).
[ -x /usr/bin/chromium ] || need+=(chromium)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ] && ! command -v sudo >/dev/null; then
    echo "system-deps: missing ${need[*]}; install them (apt-get install -y ${need[*]}) and rerun" >&2
    exit 1
  fi
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  echo "[system-deps] installing ${need[*]} from Debian" >&2
  log=$(mktemp /tmp/warmstart-apt-XXXXXX.log)
  if ! { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}"; } >"$log" 2>&1; then
    tail -30 "$log" >&2
    echo "system-deps: apt-get install ${need[*]} failed (full log: $log)" >&2
    exit 1
  fi
  echo "[system-deps] installed ${need[*]}" >&2
fi
command -v go >/dev/null || { echo "system-deps: Go >= 1.26 is required to build kube-apiserver and etcd (install it from go.dev or your distribution)" >&2; exit 1; }
