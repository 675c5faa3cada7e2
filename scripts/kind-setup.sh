#!/usr/bin/env bash
# Everything the container suites need, each step idempotent and cached outside the repo
# (~/.cache/warmstart): the Docker engine (with the runc wrapper), the control-plane binaries, the node
# binaries and kind CLI, the kind node image and the manager image. Prints each step's time on stderr and,
# on stdout, the environment the suites read (WARMSTART_KIND_BIN=..., WARMSTART_KIND_NODE_IMAGE=...,
# WARMSTART_MANAGER_IMAGE=..., WARMSTART_APISERVER_IMAGE=...), also written to $WARMSTART_CACHE_DIR/container-env.
#
# Usage: bash scripts/kind-setup.sh
set -euo pipefail
cd "$(dirname "$0")/.."
CACHE="${WARMSTART_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/warmstart}"
timed() { # LABEL command...  -> runs it, prints "[kind-setup] LABEL: Ns" on stderr, stdout passes through
  local label="$1" t0; shift; t0=$(date +%s)
  "$@"
  printf '[kind-setup] %-34s %4ss\n' "$label" "$(( $(date +%s) - t0 ))" >&2
}
timed "docker engine" bash scripts/docker-setup.sh
timed "control-plane binaries" bash e2e/scripts/build-k8s-binaries.sh >/dev/null
NODE_BIN=$(timed "node binaries + kind CLI" bash e2e/scripts/build-node-binaries.sh | tail -1)
NODE_IMAGE=$(timed "kind node image" bash e2e/scripts/build-node-image.sh | tail -1)
MANAGER_IMAGE=$(timed "manager image" bash scripts/build-manager-image.sh | tail -1)
APISERVER_IMAGE=$(timed "etcd + kube-apiserver image" bash e2e/scripts/build-apiserver-image.sh | tail -1)
env_text="WARMSTART_KIND_BIN=$NODE_BIN/kind
WARMSTART_KIND_NODE_IMAGE=$NODE_IMAGE
WARMSTART_MANAGER_IMAGE=$MANAGER_IMAGE
WARMSTART_APISERVER_IMAGE=$APISERVER_IMAGE"
printf '%s\n' "$env_text" > "$CACHE/container-env"
printf '%s\n' "$env_text"
