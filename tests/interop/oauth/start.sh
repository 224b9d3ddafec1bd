#!/usr/bin/env bash
# Start the test OAuth authorization server in the foreground (for Rust tests and by hand).
#
#   tests/interop/oauth/start.sh [server.mjs options]      e.g. --port 0 --ttl 5
#
# Runs `npm ci` here first when node_modules does not match node's version and package-lock.json
# (the stamp .ci/run uses for tests/interop/node; a lock makes concurrent starts wait for one
# install), then execs node, so the caller's child process *is* the server (SIGTERM stops it).
# stdout: one JSON line once the server is ready (see README.md); logs and npm go to stderr.
# Exit status 3: node or npm is missing or older than 20 (tests should skip, not fail).
set -euo pipefail
dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "oauth test server: node and npm are required" >&2
    exit 3
fi
major=$(node -p 'process.versions.node.split(".")[0]')
if ((major < 20)); then
    echo "oauth test server: node $(node --version) is older than 20" >&2
    exit 3
fi

stamp="$(node --version) $(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)"
{
    flock 9
    if [[ "$(cat "$dir/node_modules/.toolwright-stamp" 2>/dev/null)" != "$stamp" ]]; then
        echo "oauth test server: npm ci in $dir" >&2
        npm ci --prefix "$dir" --no-audit --no-fund --loglevel=error </dev/null >&2
        echo "$stamp" >"$dir/node_modules/.toolwright-stamp"
    fi
} 9>"$dir/.npm-ci.lock"

exec node "$dir/server.mjs" "$@"
