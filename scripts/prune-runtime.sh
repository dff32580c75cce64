#!/bin/sh
# Strips an installed production tree (`npm prune --omit=dev --omit=optional` in $1) of what only building needed:
# type declarations, source maps, and the native modules' compiler inputs and intermediate objects
# (their compiled .node files stay). Shared by the Dockerfile's runtime stage and scripts/test-image.js.
set -eu
app=${1:-.}
nm="$app/node_modules"
rm -rf "$nm/@types"
find "$nm" "$app/dist" "$app/client/dist" \( -name '*.map' -o -name '*.d.ts' -o -name '*.d.cts' -o -name '*.d.mts' -o -name '*.tsbuildinfo' \) -type f -delete 2>/dev/null || true
# sqlite3: keep lib/ and build/Release/node_sqlite3.node; drop the SQLite sources and the objects.
rm -rf "$nm/sqlite3/deps" "$nm/sqlite3/src" "$nm/sqlite3/build/Release/obj" "$nm/sqlite3/build/Release/obj.target" "$nm/sqlite3/build/Release/.deps" "$nm/sqlite3/build/deps"
find "$nm/sqlite3/build" -type f ! -name '*.node' -delete 2>/dev/null || true
# argon2: drop the C sources and objects; the prebuilt binaries only when it was compiled here (its install
# script compiles when the prebuilt one does not load).
rm -rf "$nm/argon2/argon2" "$nm/argon2/build/Release/obj.target" "$nm/argon2/build/Release/.deps"
if [ -f "$nm/argon2/build/Release/argon2.node" ]; then rm -rf "$nm/argon2/prebuilds"; fi
find "$nm/argon2/build" -type f ! -name '*.node' -delete 2>/dev/null || true
find "$nm/sqlite3" "$nm/argon2" -type f \( -name '*.c' -o -name '*.cc' -o -name '*.cpp' -o -name '*.h' -o -name '*.gyp' -o -name '*.gypi' -o -name '*.mk' -o -name '*Makefile' \) -delete 2>/dev/null || true
find "$nm" -depth -type d -empty -delete 2>/dev/null || true
