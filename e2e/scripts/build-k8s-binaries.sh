#!/usr/bin/env bash
# Builds etcd, kube-apiserver and kube-controller-manager from the Go module proxy into a cache keyed by
# version. k8s.io/kubernetes cannot be `go install`ed (its go.mod replaces every staging module with a
# local path), so each build goes through a throwaway wrapper module that replaces the staging modules with
# their published v0.X.Y twins. Idempotent: a binary already in the cache is not rebuilt.
#
# Usage: build-k8s-binaries.sh [--k8s 1.37.2] [--etcd 3.6.16] [--cache DIR]
# Prints the bin directory on the last line of stdout. Progress goes to stderr.
set -euo pipefail

K8S_VERSION="${WARMSTART_K8S_VERSION:-1.37.2}"
ETCD_VERSION="${WARMSTART_ETCD_VERSION:-3.6.16}"
CACHE="${WARMSTART_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/warmstart}"
while [ $# -gt 0 ]; do
  case "$1" in
    --k8s) K8S_VERSION="$2"; shift 2 ;;
    --etcd) ETCD_VERSION="$2"; shift 2 ;;
    --cache) CACHE="$2"; shift 2 ;;
    *) echo "build-k8s-binaries: unknown argument $1" >&2; exit 2 ;;
  esac
done

log() { printf '[build-k8s %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { printf 'build-k8s-binaries: %s\n' "$*" >&2; exit 1; }

command -v go >/dev/null || die "Go is not installed. Install Go >= 1.26 (it builds kube-apiserver and etcd from the Go module proxy)."
GO_MINOR=$(go env GOVERSION | sed -E 's/^go1\.([0-9]+).*/\1/')
[ "${GO_MINOR:-0}" -ge 26 ] || die "Go $(go env GOVERSION) is too old: Kubernetes ${K8S_VERSION} needs Go >= 1.26."

export GOWORK=off CGO_ENABLED=0 GOFLAGS=-mod=mod
BIN="$CACHE/bin/k8s-v${K8S_VERSION}-etcd-v${ETCD_VERSION}"
SRC="$CACHE/src"
mkdir -p "$BIN" "$SRC"

# --- etcd -----------------------------------------------------------------------------------------
if [ ! -x "$BIN/etcd" ]; then
  log "etcd v${ETCD_VERSION}: resolving go.etcd.io/etcd/server/v3 through the module proxy"
  W="$SRC/etcd-v${ETCD_VERSION}"; rm -rf "$W"; mkdir -p "$W"; cd "$W"
  go mod init warmstart.local/etcd >/dev/null 2>&1
  go get "go.etcd.io/etcd/server/v3@v${ETCD_VERSION}" >&2 \
    || die "could not fetch go.etcd.io/etcd/server/v3@v${ETCD_VERSION}: is the Go module proxy reachable ($(go env GOPROXY))?"
  log "etcd v${ETCD_VERSION}: compiling"
  t0=$(date +%s)
  go build -trimpath -ldflags "-s -w" -o "$BIN/etcd.tmp" go.etcd.io/etcd/server/v3 >&2
  mv "$BIN/etcd.tmp" "$BIN/etcd"
  log "etcd v${ETCD_VERSION}: built in $(( $(date +%s) - t0 ))s"
else
  log "etcd v${ETCD_VERSION}: cached"
fi

# --- kube-apiserver + kube-controller-manager ----------------------------------------------------
if [ ! -x "$BIN/kube-apiserver" ] || [ ! -x "$BIN/kube-controller-manager" ]; then
  MINOR=$(echo "$K8S_VERSION" | cut -d. -f2)
  STAGING="0.${K8S_VERSION#*.}"
  W="$SRC/kubernetes-v${K8S_VERSION}"; rm -rf "$W"; mkdir -p "$W"; cd "$W"
  log "kubernetes v${K8S_VERSION}: downloading go.mod of k8s.io/kubernetes"
  GM=$(go mod download -json "k8s.io/kubernetes@v${K8S_VERSION}" | sed -n 's/.*"GoMod": "\(.*\)".*/\1/p')
  [ -n "$GM" ] && [ -f "$GM" ] || die "could not download k8s.io/kubernetes@v${K8S_VERSION} from the Go module proxy ($(go env GOPROXY))."
  GO_LINE=$(sed -n 's/^go \([0-9.]*\)$/\1/p' "$GM" | head -1)
  GODEBUG_LINE=$(sed -n 's/^godebug \(default=go[0-9.]*\)$/\1/p' "$GM" | head -1)
  go mod init warmstart.local/kubernetes >/dev/null 2>&1
  go mod edit -go="${GO_LINE:-1.26.0}"
  [ -n "$GODEBUG_LINE" ] && go mod edit -godebug="$GODEBUG_LINE"
  # The authoritative staging list is the set of `=> ./staging/...` replaces in the release's own go.mod.
  n=0
  for m in $(sed -n 's#^[[:space:]]*\(k8s\.io/[a-z0-9-]*\) => \./staging/.*#\1#p' "$GM"); do
    go mod edit -replace="$m=$m@v${STAGING}"; n=$((n+1))
  done
  [ "$n" -gt 0 ] || die "found no staging replaces in $GM; the wrapper recipe no longer matches this release."
  log "kubernetes v${K8S_VERSION}: go ${GO_LINE}, ${GODEBUG_LINE:-no godebug}, ${n} staging modules pinned to v${STAGING}"
  cat > tools.go <<GO
//go:build tools

package tools

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
)
GO
  go get "k8s.io/kubernetes@v${K8S_VERSION}" >&2 || die "go get k8s.io/kubernetes@v${K8S_VERSION} failed (see above)."
  log "kubernetes v${K8S_VERSION}: resolving dependencies (go mod tidy; downloads several hundred MB once)"
  go mod tidy >&2 || die "go mod tidy failed for k8s.io/kubernetes@v${K8S_VERSION} (see above)."
  L="-s -w"
  for p in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    L="$L -X $p.gitVersion=v${K8S_VERSION} -X $p.gitMajor=1 -X $p.gitMinor=${MINOR} -X $p.gitTreeState=clean"
  done
  for cmd in kube-apiserver kube-controller-manager; do
    log "kubernetes v${K8S_VERSION}: compiling ${cmd} (a cold build takes many minutes on 2 cores)"
    t0=$(date +%s)
    go build -trimpath -ldflags "$L" -o "$BIN/${cmd}.tmp" "k8s.io/kubernetes/cmd/${cmd}" >&2
    mv "$BIN/${cmd}.tmp" "$BIN/${cmd}"
    log "kubernetes v${K8S_VERSION}: ${cmd} built in $(( $(date +%s) - t0 ))s"
  done
else
  log "kubernetes v${K8S_VERSION}: cached"
fi

"$BIN/kube-apiserver" --version >&2
echo "$BIN"
