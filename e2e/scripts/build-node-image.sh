#!/usr/bin/env bash
# Builds a kind node image with no container registry: a debootstrap'd Debian rootfs (systemd, containerd,
# runc, CNI plugins, iptables) plus our node files (node-files.sh), the Kubernetes binaries built from the Go
# module proxy, and the control-plane images kubeadm asks for (FROM scratch, or the rootfs for kube-proxy,
# which needs iptables), imported into the node's containerd. Cached twice: the docker image, and a saved
# gzipped tarball in the cache keyed by the content of everything that went in, so a new machine that has the
# cache (or a warm one) loads it in about a minute instead of building.
#
# Usage: build-node-image.sh     prints the image tag on the last line of stdout; progress on stderr
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=e2e/scripts/node-files.sh
source "$here/node-files.sh"

K8S_VERSION="${WARMSTART_K8S_VERSION:-1.37.2}"
ETCD_VERSION="${WARMSTART_ETCD_VERSION:-3.6.16}"
CACHE="${WARMSTART_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/warmstart}"
NODE_PKGS="systemd,dbus,containerd,runc,containernetworking-plugins,iptables,jq,conntrack,iproute2,ethtool,util-linux,mount,kmod,libseccomp2,ca-certificates,procps,socat"
log() { printf '[node-image %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { printf 'build-node-image: %s\n' "$*" >&2; exit 1; }
docker info >/dev/null 2>&1 || die "no Docker engine answers (run scripts/docker-setup.sh first)."
T_ALL=$(date +%s)

CP_BIN="$CACHE/bin/k8s-v${K8S_VERSION}-etcd-v${ETCD_VERSION}"
for b in etcd kube-apiserver kube-controller-manager; do
  [ -x "$CP_BIN/$b" ] || die "$CP_BIN/$b is missing: run e2e/scripts/build-k8s-binaries.sh first."
done
NODE_BIN=$(bash "$here/build-node-binaries.sh" | tail -1)
ROOTFS=$(bash "$here/rootfs.sh" kind-node "$NODE_PKGS" | tail -1)

# The cache key: every input's content. Binaries are hashed by size+mtime+name (they are only ever replaced
# whole by the build scripts), the rest by content.
key=$(
  {
    echo "$K8S_VERSION $ETCD_VERSION $(basename "$ROOTFS")"
    for f in "$CP_BIN"/etcd "$CP_BIN"/kube-apiserver "$CP_BIN"/kube-controller-manager "$NODE_BIN"/*; do
      [ -f "$f" ] && stat -Lc '%n %s %Y' "$f"
    done
    cat "$here/node-files.sh" "$here/build-node-image.sh"
  } | sha256sum | cut -c1-12
)
TAG="warmstart/kind-node:v${K8S_VERSION}-${key}"
SAVED="$CACHE/images/kind-node-v${K8S_VERSION}-${key}.tar.gz"

if docker image inspect "$TAG" >/dev/null 2>&1; then
  log "cached image $TAG"
  echo "$TAG"; exit 0
fi
if [ -f "$SAVED" ]; then
  log "loading $SAVED"
  t0=$(date +%s)
  gzip -dc "$SAVED" | docker load >/dev/null
  log "loaded $TAG in $(( $(date +%s) - t0 ))s"
  echo "$TAG"; exit 0
fi

work=$(mktemp -d /tmp/warmstart-node-image-XXXXXX)
builder=""
cleanup() { [ -n "$builder" ] && docker rm -f "$builder" >/dev/null 2>&1; rm -rf "$work"; }
trap cleanup EXIT

# --- base: the rootfs with legacy iptables (kube-proxy and the node share it) ---------------------------
BASE="warmstart/kind-node-base:${key}"
log "base image from $(basename "$ROOTFS")"
docker import "$ROOTFS" "${BASE}-rootfs" >/dev/null
mkdir -p "$work/base"
cat > "$work/base/Dockerfile" <<DOCKERFILE
FROM ${BASE}-rootfs
RUN update-alternatives --set iptables /usr/sbin/iptables-legacy \
 && update-alternatives --set ip6tables /usr/sbin/ip6tables-legacy
DOCKERFILE
docker build -q -t "$BASE" "$work/base" >/dev/null

# --- the images kubeadm deploys -------------------------------------------------------------------------
mapfile -t IMAGES < <("$NODE_BIN/kubeadm" config images list --kubernetes-version "v${K8S_VERSION}" 2>/dev/null)
[ ${#IMAGES[@]} -ge 6 ] || die "kubeadm config images list printed ${#IMAGES[@]} images: ${IMAGES[*]}"
scratch_image() { # NAME BINARY DEST [ENTRYPOINT]
  local name="$1" bin="$2" dest="$3" entry="${4:-}" d="$work/img-$RANDOM"
  mkdir -p "$d$(dirname "$dest")" "$d/tmp" "$d/etc"
  cp "$bin" "$d$dest"
  echo 'nobody:x:65534:65534:nobody:/:/sbin/nologin' > "$d/etc/passwd"
  local changes=(--change 'ENV PATH=/usr/local/bin:/usr/bin:/bin')
  [ -n "$entry" ] && changes+=(--change "ENTRYPOINT [\"$entry\"]")
  tar --numeric-owner --owner=0 --group=0 -C "$d" -cf - . | docker import "${changes[@]}" - "$name" >/dev/null
}
for img in "${IMAGES[@]}"; do
  case "$img" in
    */kube-apiserver:*) scratch_image "$img" "$CP_BIN/kube-apiserver" /usr/local/bin/kube-apiserver ;;
    */kube-controller-manager:*) scratch_image "$img" "$CP_BIN/kube-controller-manager" /usr/local/bin/kube-controller-manager ;;
    */kube-scheduler:*) scratch_image "$img" "$NODE_BIN/kube-scheduler" /usr/local/bin/kube-scheduler ;;
    */etcd:*) scratch_image "$img" "$CP_BIN/etcd" /usr/local/bin/etcd ;;
    */coredns:*) scratch_image "$img" "$NODE_BIN/coredns" /coredns /coredns ;;
    */pause:*) scratch_image "$img" "$NODE_BIN/pause" /pause /pause ;;
    */kube-proxy:*)
      mkdir -p "$work/proxy"; cp "$NODE_BIN/kube-proxy" "$work/proxy/"
      printf 'FROM %s\nCOPY kube-proxy /usr/local/bin/kube-proxy\n' "$BASE" > "$work/proxy/Dockerfile"
      docker build -q -t "$img" "$work/proxy" >/dev/null ;;
    *) die "kubeadm lists an image this script does not know how to build: $img" ;;
  esac
  log "image $img"
done
PAUSE_IMAGE=$(printf '%s\n' "${IMAGES[@]}" | grep '/pause:')
docker save -o "$work/images.tar" "${IMAGES[@]}"

# --- the node --------------------------------------------------------------------------------------------
mkdir -p "$work/node/files" "$work/node/bin"
write_node_files "$work/node/files" "$K8S_VERSION" "$PAUSE_IMAGE"
for b in kubelet kubeadm kubectl; do cp "$NODE_BIN/$b" "$work/node/bin/"; done
cat > "$work/node/Dockerfile" <<DOCKERFILE
FROM ${BASE}
# systemd stops cleanly on SIGRTMIN+3 (docker stop).
STOPSIGNAL SIGRTMIN+3
COPY files/ /
COPY bin/ /usr/bin/
RUN find /lib/systemd/system/sysinit.target.wants/ -name systemd-tmpfiles-setup.service -delete \
 && rm -f /lib/systemd/system/multi-user.target.wants/* /etc/systemd/system/*.wants/* \
      /lib/systemd/system/local-fs.target.wants/* /lib/systemd/system/sockets.target.wants/*udev* \
      /lib/systemd/system/sockets.target.wants/*initctl* /lib/systemd/system/basic.target.wants/* \
 && echo ReadKMsg=no >> /etc/systemd/journald.conf \
 && ln -sf /lib/systemd/systemd /sbin/init \
 && systemctl enable kubelet.service containerd.service \
 && systemctl mask systemd-binfmt.service
DOCKERFILE
docker build -q -t "${TAG}-noimages" "$work/node" >/dev/null
log "node filesystem built; importing ${#IMAGES[@]} images into its containerd"

# Import the images into the node's containerd content store (not unpacked: the kubelet's runtime unpacks
# on first use) and commit the result with the node's real entrypoint.
builder="warmstart-node-build-$$"
docker run -d --name "$builder" --privileged --label warmstart.e2e=node-build \
  -v "$work/images.tar:/images.tar:ro" --entrypoint sleep "${TAG}-noimages" infinity >/dev/null
docker exec "$builder" bash -c '
  set -e
  containerd >/var/log/containerd-build.log 2>&1 &
  for i in $(seq 1 100); do ctr version >/dev/null 2>&1 && break; sleep 0.2; done
  ctr --namespace=k8s.io images import --all-platforms --no-unpack --digests /images.tar >/dev/null
  # Pinned: the kubelet never garbage-collects them (nothing could pull them back).
  for i in $(ctr --namespace=k8s.io images list -q); do
    ctr --namespace=k8s.io images label "$i" io.cri-containerd.pinned=pinned >/dev/null
  done
  ctr --namespace=k8s.io images list -q | grep -v "^sha256:" | sort
  kill %1; wait || true
  rm -f /var/log/containerd-build.log
' >&2
docker commit \
  --change 'ENTRYPOINT ["/usr/local/bin/entrypoint", "/sbin/init"]' \
  --change 'CMD []' \
  "$builder" "$TAG" >/dev/null
docker rm -f "$builder" >/dev/null; builder=""
docker rmi "${TAG}-noimages" "${BASE}-rootfs" >/dev/null 2>&1 || true

log "saving $TAG to $SAVED"
mkdir -p "$CACHE/images"
rm -f "$CACHE"/images/kind-node-v"${K8S_VERSION}"-*.tar.gz
docker save "$TAG" | gzip -1 > "$SAVED.tmp" && mv "$SAVED.tmp" "$SAVED"
log "node image $TAG built in $(( $(date +%s) - T_ALL ))s ($(du -h "$SAVED" | cut -f1) gzipped)"
echo "$TAG"
