#!/usr/bin/env bash
# Makes a Docker engine usable for the kind and container suites on a machine where nothing starts one:
# installs docker.io (Debian), puts a runtime wrapper in front of runc when the capability bounding set
# lacks a capability that privileged containers ask for, starts dockerd in the background and waits for it.
# Idempotent: a running, correctly configured engine is left alone.
#
# Usage: bash scripts/docker-setup.sh      (prints nothing on stdout; progress on stderr)
set -euo pipefail

log() { printf '[docker-setup %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { printf 'docker-setup: %s\n' "$*" >&2; exit 1; }

WRAPPER=/usr/local/sbin/warmstart-runc
DAEMON_JSON=/etc/docker/daemon.json
DOCKERD_LOG=/var/log/warmstart-dockerd.log

if [ "$(id -u)" -ne 0 ]; then
  docker info >/dev/null 2>&1 && exit 0
  die "the Docker engine is not reachable and starting it needs root (run this script as root, or start dockerd yourself)."
fi

need=()
command -v dockerd >/dev/null || need+=(docker.io)
command -v debootstrap >/dev/null || need+=(debootstrap)
command -v jq >/dev/null || need+=(jq)
command -v iptables >/dev/null || need+=(iptables)
if [ ${#need[@]} -gt 0 ]; then
  log "installing ${need[*]} from Debian"
  aptlog=$(mktemp /tmp/warmstart-apt-XXXXXX.log)
  if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}"; } >"$aptlog" 2>&1; then
    tail -30 "$aptlog" >&2
    die "apt-get install ${need[*]} failed (full log: $aptlog)"
  fi
fi

# A privileged container asks runc for every capability. Where the bounding set lacks one (these VMs lack
# CAP_SYS_RESOURCE), runc fails with "unable to apply caps: operation not permitted". The wrapper removes
# the capabilities this process cannot grant from the bundle's config.json, then hands over to runc.
bnd=$(awk '/^CapBnd:/{print $2}' /proc/self/status)
missing_caps=()
for pair in CAP_SYS_RESOURCE:24 CAP_SYS_ADMIN:21 CAP_NET_ADMIN:12 CAP_SYS_PTRACE:19 CAP_SYS_MODULE:16 \
            CAP_SYS_TIME:25 CAP_SYS_BOOT:22 CAP_MKNOD:27 CAP_AUDIT_CONTROL:30 CAP_SYSLOG:34 \
            CAP_WAKE_ALARM:35 CAP_BLOCK_SUSPEND:36 CAP_AUDIT_READ:37 CAP_PERFMON:38 CAP_BPF:39 \
            CAP_CHECKPOINT_RESTORE:40 CAP_MAC_ADMIN:33 CAP_MAC_OVERRIDE:32 CAP_LINUX_IMMUTABLE:9; do
  name=${pair%%:*}; bit=${pair##*:}
  (( (0x$bnd >> bit) & 1 )) || missing_caps+=("$name")
done
drop_json=$(printf '%s\n' "${missing_caps[@]}" | jq -Rsc 'split("\n") | map(select(length > 0))')
log "capabilities missing from the bounding set: ${missing_caps[*]:-none}"

want_wrapper=$(cat <<SH
#!/bin/sh
# warmstart: drops capabilities the host cannot grant ($drop_json) from what runc is asked to start (the
# bundle's config.json for create/run, the --process file for exec), then runs runc.
bundle=""; process=""; prev=""
for a in "\$@"; do
  case "\$prev" in --bundle|-b) bundle="\$a" ;; --process|-p) process="\$a" ;; esac
  case "\$a" in --bundle=*) bundle="\${a#--bundle=}" ;; --process=*) process="\${a#--process=}" ;; esac
  prev="\$a"
done
drop() { # FILE JQ-PATH-TO-CAPABILITIES
  [ -f "\$1" ] || return 0
  tmp="\$1.warmstart.\$\$"
  jq --argjson drop '$drop_json' \
    "if \$2 then \$2 |= with_entries(.value |= map(select(. as \\\$c | \\\$drop | index(\\\$c) | not))) else . end" \
    "\$1" > "\$tmp" && mv "\$tmp" "\$1"
}
case " \$* " in
  *" create "*|*" run "*) drop "\${bundle:-.}/config.json" .process.capabilities ;;
  *" exec "*) [ -n "\$process" ] && drop "\$process" .capabilities ;;
esac
exec /usr/sbin/runc "\$@"
SH
)

changed=0
if [ "$(cat "$WRAPPER" 2>/dev/null)" != "$want_wrapper" ]; then
  printf '%s\n' "$want_wrapper" > "$WRAPPER"; chmod 755 "$WRAPPER"; changed=1
  log "runtime wrapper written: $WRAPPER"
fi
mkdir -p /etc/docker
want_json=$(jq -n --arg w "$WRAPPER" '{runtimes: {"warmstart-runc": {path: $w}}, "default-runtime": "warmstart-runc", "log-driver": "json-file", "log-opts": {"max-size": "10m"}}')
if [ ! -f "$DAEMON_JSON" ] || [ "$(jq -S . "$DAEMON_JSON" 2>/dev/null)" != "$(jq -S . <<<"$want_json")" ]; then
  printf '%s\n' "$want_json" > "$DAEMON_JSON"; changed=1
  log "daemon config written: $DAEMON_JSON"
fi

running() { docker info >/dev/null 2>&1; }
if running && [ "$changed" -eq 1 ]; then
  # dockerd re-reads runtimes on SIGHUP; default-runtime needs a restart, so ask for a reload then check.
  pkill -HUP -x dockerd || true
  sleep 1
fi
if running && [ "$(docker info --format '{{.DefaultRuntime}}')" != "warmstart-runc" ]; then
  die "dockerd is running with runtime $(docker info --format '{{.DefaultRuntime}}'); restart it so $DAEMON_JSON applies."
fi

if ! running; then
  log "starting dockerd (log: $DOCKERD_LOG)"
  setsid nohup dockerd >>"$DOCKERD_LOG" 2>&1 < /dev/null &
  deadline=$(( $(date +%s) + 60 ))
  until running; do
    [ "$(date +%s)" -lt "$deadline" ] || { tail -20 "$DOCKERD_LOG" >&2; die "dockerd did not answer within 60s (log above: $DOCKERD_LOG)."; }
    sleep 0.5
  done
fi

# Prove the thing that fails on these machines: a privileged container starts. The probe image is only
# symlinks into /usr, which the probe mounts read-only from the host (no registry to pull a base from).
probe_img=warmstart/probe:usr
if ! docker image inspect "$probe_img" >/dev/null 2>&1; then
  d=$(mktemp -d); ln -s usr/bin "$d/bin"; ln -s usr/lib "$d/lib"; ln -s usr/lib64 "$d/lib64"; mkdir "$d/usr"
  tar -C "$d" -cf - . | docker import - "$probe_img" >/dev/null
  rm -rf "$d"
fi
if ! out=$(docker run --rm --privileged --label warmstart.e2e=probe -v /usr:/usr:ro "$probe_img" /bin/true 2>&1); then
  die "a privileged container does not start: $out"
fi
log "docker $(docker version --format '{{.Server.Version}}') ready, runtime $(docker info --format '{{.DefaultRuntime}}'), cgroup v$(docker info --format '{{.CgroupVersion}}')"
