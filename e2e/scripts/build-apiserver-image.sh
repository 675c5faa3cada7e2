#!/usr/bin/env bash
# A FROM-scratch image holding etcd and kube-apiserver (the binaries build-k8s-binaries.sh made), for the
# container provider's member clusters. Tagged by the binaries' identity, so it is built once per version.
# Usage: build-apiserver-image.sh     prints the tag on the last line of stdout
set -euo pipefail
K8S_VERSION="${WARMSTART_K8S_VERSION:-1.37.2}"
ETCD_VERSION="${WARMSTART_ETCD_VERSION:-3.6.16}"
CACHE="${WARMSTART_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/warmstart}"
BIN="$CACHE/bin/k8s-v${K8S_VERSION}-etcd-v${ETCD_VERSION}"
for b in etcd kube-apiserver; do
  [ -x "$BIN/$b" ] || { echo "build-apiserver-image: $BIN/$b is missing: run e2e/scripts/build-k8s-binaries.sh" >&2; exit 1; }
done
key=$(stat -Lc '%n %s %Y' "$BIN/etcd" "$BIN/kube-apiserver" | sha256sum | cut -c1-12)
TAG="warmstart/apiserver:v${K8S_VERSION}-etcd-v${ETCD_VERSION}-${key}"
if ! docker image inspect "$TAG" >/dev/null 2>&1; then
  d=$(mktemp -d)
  mkdir -p "$d/usr/local/bin" "$d/tmp" "$d/var/lib/etcd" "$d/etc/kubernetes"
  cp "$BIN/etcd" "$BIN/kube-apiserver" "$d/usr/local/bin/"
  tar --numeric-owner --owner=0 --group=0 -C "$d" -cf - . \
    | docker import --change 'ENV PATH=/usr/local/bin' - "$TAG" >/dev/null
  rm -rf "$d"
  echo "[apiserver-image] built $TAG" >&2
fi
echo "$TAG"
