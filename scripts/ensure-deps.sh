#!/usr/bin/env bash
# Installs npm dependencies when node_modules is missing or older than package-lock.json.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v node >/dev/null 2>&1; then
  echo "Node.js 24+ is required (https://nodejs.org or your package manager)." >&2
  exit 1
fi
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "[setup] installing npm dependencies (npm ci)…"
  npm ci --no-audit --no-fund --loglevel=error
fi
echo "[setup] compiling TypeScript and building the console…"
npx tsc -p tsconfig.json
node scripts/build-console.mjs
