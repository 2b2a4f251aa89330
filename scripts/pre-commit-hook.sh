#!/usr/bin/env bash
# The `jobs-validate` pre-commit hook (.pre-commit-hooks.yaml): `jobs-cli validate` on the files
# pre-commit passes.
#
# Why `language: script` and not `language: node`: pre-commit installs a node hook with `npm pack`
# and takes everything that command prints on stdout as the tarball's name, but npm also prints the
# banner of this package's `prepare` script (the build) there, so the install fails with ENOENT on
# a "file" named after the banner. Instead, this script builds the clone pre-commit made of this
# repository once (npm ci runs the build), then runs the CLI from it. It needs node (20.19+) and npm.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ ! -f "$here/dist/cli.cjs" ]; then
  echo "jobs-validate: installing jobs-cli in $here (once)" >&2
  (cd "$here" && npm ci --no-audit --no-fund --loglevel=error 1>&2)
fi
exec node "$here/bin/jobs.js" validate "$@"
