#!/usr/bin/env bash
# Builds a Debian root filesystem with debootstrap and caches it as a tarball keyed by suite, variant and
# package list, so images can be built with no container registry (`docker import` of the tarball).
#
# Usage: rootfs.sh NAME "pkg1,pkg2,..."     prints the cached tarball's path on stdout; progress on stderr
# Env:   WARMSTART_DEBIAN_SUITE (bookworm), WARMSTART_DEBIAN_MIRROR (from the host's apt sources)
set -euo pipefail

NAME="${1:?usage: rootfs.sh NAME PACKAGES}"
PKGS="${2:?usage: rootfs.sh NAME PACKAGES}"
SUITE="${WARMSTART_DEBIAN_SUITE:-bookworm}"
CACHE="${WARMSTART_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/warmstart}"
log() { printf '[rootfs %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { printf 'rootfs: %s\n' "$*" >&2; exit 1; }

mirror="${WARMSTART_DEBIAN_MIRROR:-}"
if [ -z "$mirror" ]; then
  mirror=$( { cat /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list 2>/dev/null || true; } \
    | grep -E '^(URIs:|deb )' | grep -v security | head -1 | awk '{print $2}' || true)
  mirror="${mirror:-http://deb.debian.org/debian}"
fi
key=$(printf '%s\n%s\n%s\n' "$SUITE" "$PKGS" "v1" | sha256sum | cut -c1-12)
OUT="$CACHE/rootfs/${NAME}-${SUITE}-${key}.tar"
if [ -f "$OUT" ]; then
  log "$NAME: cached ($OUT)"
  echo "$OUT"; exit 0
fi

[ "$(id -u)" -eq 0 ] || die "debootstrap needs root."
command -v debootstrap >/dev/null || die "debootstrap is missing (apt-get install debootstrap; scripts/docker-setup.sh installs it)."
mkdir -p "$CACHE/rootfs"
dir=$(mktemp -d "$CACHE/rootfs/.${NAME}.XXXXXX")
trap 'rm -rf "$dir"' EXIT
log "$NAME: debootstrap --variant=minbase $SUITE ($mirror), with ${PKGS//,/ }"
t0=$(date +%s)
if ! debootstrap --variant=minbase --include="$PKGS" "$SUITE" "$dir/root" "$mirror" > "$dir/debootstrap.log" 2>&1; then
  tail -30 "$dir/debootstrap.log" >&2
  die "debootstrap of $NAME failed (last lines above)."
fi
# Slim: package lists, docs and caches serve nothing inside an image.
rm -rf "$dir/root/var/lib/apt/lists/"* "$dir/root/var/cache/apt/"*.bin "$dir/root/var/cache/apt/archives/"*.deb \
  "$dir/root/usr/share/doc" "$dir/root/usr/share/man" "$dir/root/usr/share/info" "$dir/root/usr/share/locale" \
  "$dir/root/var/log/"*.log
tar --numeric-owner -C "$dir/root" -cf "$OUT.tmp" .
mv "$OUT.tmp" "$OUT"
log "$NAME: built in $(( $(date +%s) - t0 ))s, $(du -h "$OUT" | cut -f1)"
echo "$OUT"
