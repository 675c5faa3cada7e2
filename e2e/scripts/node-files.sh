#!/usr/bin/env bash
# Writes the files a kind node image carries besides its packages and binaries into a directory tree: the
# container entrypoint, the containerd config, the systemd units for kubelet and containerd, a bridge CNI
# config (single-node clusters, so no CNI daemon is needed) and kind's own markers (/kind/version).
# Sourced by build-node-image.sh: `write_node_files DIR K8S_VERSION PAUSE_IMAGE`.

write_node_files() {
  local root="$1" k8s_version="$2" pause_image="$3"
  mkdir -p "$root/usr/local/bin" "$root/etc/containerd" "$root/etc/systemd/system/kubelet.service.d" \
    "$root/etc/systemd/system/containerd.service.d" "$root/etc/default" "$root/etc/sysctl.d" \
    "$root/etc/cni/net.d" "$root/kind/manifests" "$root/etc/kubernetes/manifests"

  # --- entrypoint: prepares the container so systemd, containerd and the kubelet can run in it, then
  # hands over to systemd. cgroup v1 with a private cgroup namespace (kind passes --cgroupns=private).
  cat > "$root/usr/local/bin/entrypoint" <<'SH'
#!/bin/bash
# warmstart kind node entrypoint: make the container look enough like a machine for systemd and the
# kubelet, then exec systemd.
set -euo pipefail
say() { echo "warmstart-node: $*" >&2; }

# Mounts: /sys read-only like a real node's view through the runtime, and shared propagation so
# volumes mounted by the kubelet reach the pods.
mount -o remount,ro /sys || say "could not remount /sys read-only"
mount --make-rshared /

if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
  say "cgroup v2"
else
  say "cgroup v1"
  own=$(grep -E '^[^:]*:([^:]*,)?cpu(,[^,:]*)?:' /proc/self/cgroup | cut -d: -f3)
  [ "$own" = "/" ] || { say "the container has no private cgroup namespace (got $own); run it with --cgroupns=private"; exit 1; }
  # The misc controller is unknown to the kubelet's cgroup v1 code and makes it fail; hide it.
  if [ -d /sys/fs/cgroup/misc ]; then
    umount /sys/fs/cgroup/misc || true; rmdir /sys/fs/cgroup/misc || true
    grep -v misc /proc/cgroups > /kind/cgroups-without-misc && mount --bind /kind/cgroups-without-misc /proc/cgroups
  fi
  mount --make-rprivate /sys/fs/cgroup
  # The kubelet and systemd each create their own hierarchy roots; bind them onto themselves so both see
  # mount points where they expect them.
  for sub in $(findmnt -lun -o target -t cgroup); do
    for r in /kubelet /kubelet.slice; do
      mkdir -p "$sub$r"
      if [ "$sub" = /sys/fs/cgroup/cpuset ]; then
        cat "$sub/cpuset.cpus" > "$sub$r/cpuset.cpus"; cat "$sub/cpuset.mems" > "$sub$r/cpuset.mems"
      fi
      mount --bind "$sub$r" "$sub$r"
    done
  done
fi

# A machine id of its own per node, and a product name/uuid the kubelet reports.
rm -f /etc/machine-id && systemd-machine-id-setup >/dev/null
echo kind > /kind/product_name
[ -f /kind/product_uuid ] || cat /proc/sys/kernel/random/uuid > /kind/product_uuid
[ -f /sys/class/dmi/id/product_name ] && mount -o ro,bind /kind/product_name /sys/class/dmi/id/product_name
[ -f /sys/class/dmi/id/product_uuid ] && mount -o ro,bind /kind/product_uuid /sys/class/dmi/id/product_uuid
# Docker's embedded DNS answers on 127.0.0.11 inside this container only: a pod given this resolv.conf would
# send queries to itself (CoreDNS detects the loop and exits). Serve it on the default gateway's address
# instead, for the node and, through PREROUTING, for its pods.
gw=$(ip -4 route show default | cut -d' ' -f3)
if [ -n "$gw" ] && grep -q '127\.0\.0\.11' /etc/resolv.conf; then
  for v in nft legacy; do
    iptables-$v-save -t nat 2>/dev/null | grep -q DOCKER_OUTPUT || continue
    iptables-$v-save -t nat \
      | sed -e "s/-d 127\.0\.0\.11/-d $gw/g" \
            -e 's/^-A OUTPUT \(.*\) -j DOCKER_OUTPUT$/&\n-A PREROUTING \1 -j DOCKER_OUTPUT/' \
            -e "s/--to-source :53/--to-source $gw:53/g" \
      | iptables-$v-restore
  done
  sed "s/127\.0\.0\.11/$gw/" /etc/resolv.conf > /kind/resolv.conf && cat /kind/resolv.conf > /etc/resolv.conf
fi
say "starting systemd"
exec "$@"
SH
  chmod 755 "$root/usr/local/bin/entrypoint"

  # --- containerd (Debian's 1.6: config format 2). The VM's bounding set lacks CAP_SYS_RESOURCE, so
  # containerd must not try to lower a container's oom_score_adj below its own.
  cat > "$root/etc/containerd/config.toml" <<TOML
version = 2

[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "${pause_image}"
  restrict_oom_score_adj = true
  tolerate_missing_hugepages_controller = true
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    discard_unpacked_layers = true
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = true
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "/etc/cni/net.d"
TOML
  printf 'runtime-endpoint: unix:///run/containerd/containerd.sock\n' > "$root/etc/crictl.yaml"
  cat > "$root/etc/systemd/system/containerd.service.d/10-warmstart.conf" <<'INI'
[Service]
RestartSec=1
INI

  # --- kubelet, as kubeadm expects to drive it.
  cat > "$root/etc/systemd/system/kubelet.service" <<'INI'
[Unit]
Description=kubelet
ConditionPathExists=/var/lib/kubelet/config.yaml
After=containerd.service

[Service]
ExecStart=/usr/bin/kubelet
Restart=always
StartLimitInterval=0
RestartSec=1s
CPUAccounting=true
MemoryAccounting=true
Slice=kubelet.slice
KillMode=process

[Install]
WantedBy=multi-user.target
INI
  cat > "$root/etc/systemd/system/kubelet.service.d/10-kubeadm.conf" <<'INI'
[Service]
Environment="KUBELET_KUBECONFIG_ARGS=--bootstrap-kubeconfig=/etc/kubernetes/bootstrap-kubelet.conf --kubeconfig=/etc/kubernetes/kubelet.conf"
Environment="KUBELET_CONFIG_ARGS=--config=/var/lib/kubelet/config.yaml"
EnvironmentFile=-/var/lib/kubelet/kubeadm-flags.env
EnvironmentFile=-/etc/default/kubelet
ExecStartPre=/bin/sh -c 'if [ ! -f /sys/fs/cgroup/cgroup.controllers ]; then mkdir -p /sys/fs/cgroup/systemd/kubelet; fi'
ExecStart=
ExecStart=/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS $KUBELET_CONFIG_ARGS $KUBELET_KUBEADM_ARGS $KUBELET_EXTRA_ARGS
INI
  cat > "$root/etc/systemd/system/kubelet.slice" <<'INI'
[Unit]
Description=kubelet and its pods
Before=slices.target

[Slice]
MemoryAccounting=true
CPUAccounting=true
INI
  printf 'KUBELET_EXTRA_ARGS=--runtime-cgroups=/system.slice/containerd.service\n' > "$root/etc/default/kubelet"
  printf 'net.ipv4.conf.all.route_localnet=1\nnet.ipv4.conf.all.arp_ignore=0\n' > "$root/etc/sysctl.d/10-kind-node.conf"

  # --- CNI: one bridge per node, pod addresses from kind's default pod subnet. Single-node clusters only:
  # pods on different nodes could not reach each other without routes a CNI daemon would add.
  cat > "$root/etc/cni/net.d/10-warmstart-bridge.conflist" <<'JSON'
{
  "cniVersion": "0.4.0",
  "name": "warmstart-bridge",
  "plugins": [
    {
      "type": "bridge",
      "bridge": "cni0",
      "isGateway": true,
      "ipMasq": true,
      "hairpinMode": true,
      "ipam": { "type": "host-local", "ranges": [[{ "subnet": "10.244.0.0/24" }]], "routes": [{ "dst": "0.0.0.0/0" }] }
    },
    { "type": "portmap", "capabilities": { "portMappings": true } }
  ]
}
JSON

  # --- kind's markers: the Kubernetes version it reads, and the storage class it applies.
  printf 'v%s' "$k8s_version" > "$root/kind/version"
  cat > "$root/kind/manifests/default-storage.yaml" <<'YAML'
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: standard
  annotations:
    storageclass.kubernetes.io/is-default-class: "true"
provisioner: kubernetes.io/host-path
YAML
}
