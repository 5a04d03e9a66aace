#!/usr/bin/env bash
# Runs the test suite under another Node.js major, e.g. `bash scripts/test-node-version.sh 22`.
#
# The npm registry serves Node binaries as the `node` package (node@22, node@24), so no other
# download source or version manager is needed: the package is installed into a temporary
# prefix and its bin directory is put first on PATH. The build stays the one made with the
# machine's Node (dist/ is plain ES2022 JavaScript, the same on every major); vitest, its
# workers and every `simadmin` the e2e tests spawn (process.execPath) then run on the other
# Node.
set -euo pipefail

major="${1:?usage: scripts/test-node-version.sh <node major, e.g. 22> [--no-build]}"
# --no-build: dist/ is already built (.ci/run runs two majors at once, and two builds into one
# dist/ would race).
build="yes"
[[ "${2:-}" == "--no-build" ]] && build="no"
if [[ ! "$major" =~ ^[0-9]+$ ]]; then
  echo "test-node-version: '$major' is not a Node major version (e.g. 22)" >&2
  exit 2
fi
cd "$(dirname "$0")/.."

tmp="$(mktemp -d "${TMPDIR:-/tmp}/simadmin-node$major-XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

echo "test-node-version: installing node@$major from the npm registry into $tmp" >&2
npm install --prefix "$tmp" --no-save --no-audit --no-fund --no-package-lock "node@$major" >&2

# The `node` package downloads its binary in a postinstall script into node_modules/node/bin.
dir="$tmp/node_modules/node/bin"
if [[ ! -x "$dir/node" ]]; then
  echo "test-node-version: no node binary at $dir/node after installing node@$major" >&2
  exit 1
fi
actual="$("$dir/node" --version)"
if [[ "$actual" != "v$major."* ]]; then
  echo "test-node-version: wanted Node $major, the package installed $actual" >&2
  exit 1
fi

if [[ "$build" == "yes" ]]; then npm run build >&2; fi
export PATH="$dir:$PATH"
if [[ "$(node --version)" != "$actual" ]]; then
  echo "test-node-version: \`node\` on PATH is $(node --version), not $actual" >&2
  exit 1
fi
echo "test-node-version: running the suite on Node $actual" >&2
npx vitest run
