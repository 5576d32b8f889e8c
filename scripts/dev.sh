#!/usr/bin/env bash
# The run command (`npm run dev`): installs and builds what is missing, then starts the whole stack.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/use-node.sh
bash scripts/ensure-deps.sh
exec node dist/scripts/dev.js
