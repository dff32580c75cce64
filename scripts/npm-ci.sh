#!/bin/sh
# `npm ci` with the given options. While the lock file lacks optional platform packages that npm ci insists on
# (knip's @oxc-parser/binding-* for other platforms, which this registry does not serve), npm ci refuses the
# lock; then this installs from the same lock with `npm install --no-save`, which leaves the lock untouched.
set -u
npm ci "$@" && exit 0
echo "npm ci refused; installing from the same lock file with npm install --no-save" >&2
exec npm install --no-save "$@"
