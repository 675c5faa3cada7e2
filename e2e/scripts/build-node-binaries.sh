#!/usr/bin/env bash
# Builds what a kind node needs beyond the control-plane binaries of build-k8s-binaries.sh: kubelet,
# kubeadm, kubectl, kube-proxy, kube-scheduler (same wrapper-module technique, same Go build cache),
# CoreDNS (Go module proxy), pause (Kubernetes' pause.c, gcc -static) and the kind CLI. Everything lands in
# a cache keyed by version; a binary already there is never rebuilt.
#
# Usage: build-node-binaries.sh [--k8s 1.37.2] [--kind 0.33.0] [--cache DIR]
# Prints the bin directory on the last line of stdout. Progress goes to stderr.
set -euo pipefail

K8S_VERSION="${WARMSTART_K8S_VERSION:-1.37.2}"
KIND_VERSION="${WARMSTART_KIND_VERSION:-0.33.0}"
CACHE="${WARMSTART_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/warmstart}"
while [ $# -gt 0 ]; do
  case "$1" in
    --k8s) K8S_VERSION="$2"; shift 2 ;;
    --kind) KIND_VERSION="$2"; shift 2 ;;
    --cache) CACHE="$2"; shift 2 ;;
    *) echo "build-node-binaries: unknown argument $1" >&2; exit 2 ;;
  esac
done

log() { printf '[node-bins %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { printf 'build-node-binaries: %s\n' "$*" >&2; exit 1; }
command -v go >/dev/null || die "Go >= 1.26 is required (it builds the node's Kubernetes binaries from the Go module proxy)."
command -v gcc >/dev/null || die "gcc is required to build pause statically (apt-get install gcc libc6-dev)."

export GOWORK=off CGO_ENABLED=0 GOFLAGS=-mod=mod
BIN="$CACHE/bin/kind-node-v${K8S_VERSION}"
SRC="$CACHE/src"
mkdir -p "$BIN" "$SRC"
T_ALL=$(date +%s)

# kubeadm knows which CoreDNS and pause versions it deploys; build exactly those.
CONSTANTS="$(go env GOMODCACHE)/k8s.io/kubernetes@v${K8S_VERSION}/cmd/kubeadm/app/constants/constants.go"
[ -f "$CONSTANTS" ] || go mod download "k8s.io/kubernetes@v${K8S_VERSION}" >&2
COREDNS_VERSION=$(sed -n 's/^[[:space:]]*CoreDNSVersion = "v\([0-9.]*\)"/\1/p' "$CONSTANTS")
[ -n "$COREDNS_VERSION" ] || die "could not read CoreDNSVersion from $CONSTANTS"

# --- pause ------------------------------------------------------------------------------------------
if [ ! -x "$BIN/pause" ]; then
  PAUSE_C="$(go env GOMODCACHE)/k8s.io/kubernetes@v${K8S_VERSION}/build/pause/linux/pause.c"
  [ -f "$PAUSE_C" ] || die "pause.c is missing from the k8s.io/kubernetes@v${K8S_VERSION} module ($PAUSE_C)"
  log "pause: gcc -static"
  gcc -Os -Wall -Werror -static -DVERSION="v${K8S_VERSION}-warmstart" -o "$BIN/pause.tmp" "$PAUSE_C"
  strip "$BIN/pause.tmp"; mv "$BIN/pause.tmp" "$BIN/pause"
fi

# --- kind CLI ---------------------------------------------------------------------------------------
if [ ! -x "$BIN/kind-v${KIND_VERSION}" ]; then
  log "kind v${KIND_VERSION}: go install sigs.k8s.io/kind"
  t0=$(date +%s)
  GOBIN="$BIN/.kind" go install -trimpath -ldflags "-s -w" "sigs.k8s.io/kind@v${KIND_VERSION}" >&2 \
    || die "go install sigs.k8s.io/kind@v${KIND_VERSION} failed (see above)."
  mv "$BIN/.kind/kind" "$BIN/kind-v${KIND_VERSION}"; rmdir "$BIN/.kind"
  log "kind v${KIND_VERSION}: built in $(( $(date +%s) - t0 ))s"
fi
# --- Kubernetes node binaries -------------------------------------------------------------------
CMDS=(kubeadm kubelet kubectl kube-proxy kube-scheduler)
missing=()
for c in "${CMDS[@]}"; do [ -x "$BIN/$c" ] || missing+=("$c"); done
if [ ${#missing[@]} -gt 0 ]; then
  MINOR=$(echo "$K8S_VERSION" | cut -d. -f2)
  STAGING="0.${K8S_VERSION#*.}"
  # Own wrapper directory: build-k8s-binaries.sh deletes and recreates kubernetes-v*, never this one.
  W="$SRC/kubernetes-node-v${K8S_VERSION}"; rm -rf "$W"; mkdir -p "$W"; cd "$W"
  log "kubernetes v${K8S_VERSION}: go.mod of k8s.io/kubernetes"
  GM=$(go mod download -json "k8s.io/kubernetes@v${K8S_VERSION}" | sed -n 's/.*"GoMod": "\(.*\)".*/\1/p')
  [ -n "$GM" ] && [ -f "$GM" ] || die "could not download k8s.io/kubernetes@v${K8S_VERSION} from the Go module proxy ($(go env GOPROXY))."
  GO_LINE=$(sed -n 's/^go \([0-9.]*\)$/\1/p' "$GM" | head -1)
  GODEBUG_LINE=$(sed -n 's/^godebug \(default=go[0-9.]*\)$/\1/p' "$GM" | head -1)
  go mod init warmstart.local/kubernetes-node >/dev/null 2>&1
  go mod edit -go="${GO_LINE:-1.26.0}"
  [ -n "$GODEBUG_LINE" ] && go mod edit -godebug="$GODEBUG_LINE"
  n=0
  for m in $(sed -n 's#^[[:space:]]*\(k8s\.io/[a-z0-9-]*\) => \./staging/.*#\1#p' "$GM"); do
    go mod edit -replace="$m=$m@v${STAGING}"; n=$((n+1))
  done
  [ "$n" -gt 0 ] || die "found no staging replaces in $GM; the wrapper recipe no longer matches this release."
  {
    printf '//go:build tools\n\npackage tools\n\nimport (\n'
    for c in "${CMDS[@]}"; do printf '\t_ "k8s.io/kubernetes/cmd/%s"\n' "$c"; done
    printf ')\n'
  } > tools.go
  go get "k8s.io/kubernetes@v${K8S_VERSION}" >&2 || die "go get k8s.io/kubernetes@v${K8S_VERSION} failed (see above)."
  log "kubernetes v${K8S_VERSION}: go mod tidy"
  go mod tidy >&2 || die "go mod tidy failed (see above)."
  L="-s -w"
  for p in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    L="$L -X $p.gitVersion=v${K8S_VERSION} -X $p.gitMajor=1 -X $p.gitMinor=${MINOR} -X $p.gitTreeState=clean"
  done
  for c in "${missing[@]}"; do
    log "kubernetes v${K8S_VERSION}: compiling ${c} (cold: many minutes on 2 cores; shares the Go build cache)"
    t0=$(date +%s)
    go build -trimpath -ldflags "$L" -o "$BIN/${c}.tmp" "k8s.io/kubernetes/cmd/${c}" >&2
    mv "$BIN/${c}.tmp" "$BIN/${c}"
    log "kubernetes v${K8S_VERSION}: ${c} built in $(( $(date +%s) - t0 ))s"
  done
else
  log "kubernetes v${K8S_VERSION} node binaries: cached"
fi

# --- CoreDNS ----------------------------------------------------------------------------------------
if [ ! -x "$BIN/coredns" ]; then
  log "coredns v${COREDNS_VERSION}: go install from the module proxy"
  t0=$(date +%s)
  GOBIN="$BIN/.coredns" go install -trimpath -ldflags "-s -w" "github.com/coredns/coredns@v${COREDNS_VERSION}" >&2 \
    || die "go install github.com/coredns/coredns@v${COREDNS_VERSION} failed (see above)."
  mv "$BIN/.coredns/coredns" "$BIN/coredns"; rmdir "$BIN/.coredns"
  log "coredns v${COREDNS_VERSION}: built in $(( $(date +%s) - t0 ))s"
fi

ln -sf "kind-v${KIND_VERSION}" "$BIN/kind"
# Rewritten only when it changes: build-node-image.sh keys its cache on these files' mtimes.
[ "$(cat "$BIN/coredns.version" 2>/dev/null)" = "$COREDNS_VERSION" ] || printf '%s\n' "$COREDNS_VERSION" > "$BIN/coredns.version"

log "node binaries ready in $(( $(date +%s) - T_ALL ))s: $BIN"
echo "$BIN"
