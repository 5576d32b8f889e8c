#!/usr/bin/env bash
# The console screenshots of docs/console.md (`npm run screenshots`): runs the console's operations browser suite against
# a stack it starts itself (as `npm test` does) with its screenshots written to docs/console/ instead of
# test-output/, so the pictures show what the suite checked. Needs chromium (scripts/ensure-chromium.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/use-node.sh
bash scripts/ensure-deps.sh
CHROMIUM_PATH=$(bash scripts/ensure-chromium.sh)
export CHROMIUM_PATH CONSOLE_SCREENSHOTS_DIR="$PWD/docs/console"
mkdir -p "$CONSOLE_SCREENSHOTS_DIR"
npx mocha --timeout 60000 --require dist/test/support/global-stack.js dist/test/integration/console-operations-browser.test.js
echo "[screenshots] written to docs/console/"
