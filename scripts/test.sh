#!/usr/bin/env bash
# The test command (`npm test`): typecheck, lint, unit tests, then integration tests against a real Temporal
# dev server and a real MongoDB-wire server that the run starts itself (built once from Go modules if needed).
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/use-node.sh || exit 1
bash scripts/ensure-deps.sh || exit 1

tally=$(mktemp)
export TEST_TALLY_FILE="$tally"
status=0
reporter=dist/test/support/reporter.js

# The alert rules' tests (test/unit/ops/prometheus-alerts.test.ts) need promtool: fetched when missing and possible.
if promtool_path=$(bash scripts/ensure-promtool.sh); then
  export PROMTOOL_PATH="$promtool_path"
else
  echo "[test] !!! ALERT RULE TESTS DID NOT RUN: promtool is missing and could not be fetched (set PROMTOOL_PATH) !!!"
fi

# Lint and format (and the console's type check, web/console) run beside the unit tests (about as long as each
# other); their output follows the tests'.
echo "[test] console type check, lint and format, and unit tests…"
lint_log=$(mktemp)
( npx tsc -p web/console/tsconfig.json && npx eslint . && { npx prettier --check . || { echo "[test] files are not formatted: npm run format"; exit 1; }; } ) >"$lint_log" 2>&1 &
lint_pid=$!
TEST_SUITE_LABEL=unit npx mocha --reporter "$reporter" 'dist/test/unit/**/*.test.js' || status=1
if ! wait "$lint_pid"; then
  cat "$lint_log" >&2
  echo "[test] lint or format failed" >&2
  rm -f "$lint_log" "$tally"
  exit 1
fi
rm -f "$lint_log"
echo "[test] lint and format: clean"

# The console's browser tests need Debian's chromium: installed here when missing and possible (root), else
# they are skipped with a loud line, here and in the suite.
if chromium_path=$(bash scripts/ensure-chromium.sh); then
  export CHROMIUM_PATH="$chromium_path"
  echo "[test] browser tests use $CHROMIUM_PATH"
else
  echo "[test] !!! BROWSER TESTS WILL NOT RUN: chromium is missing and could not be installed (run as root on Debian, or set CHROMIUM_PATH) !!!"
fi

# The generated-clients test builds the Python client with openapi-python-client: installed once from PyPI into the
# user cache when missing and possible, else that test is skipped with a loud line.
if python_client_venv=$(bash scripts/ensure-python-client-generator.sh); then
  export OPENAPI_PYTHON_CLIENT_VENV="$python_client_venv"
else
  echo "[test] !!! THE PYTHON CLIENT TEST WILL NOT RUN: openapi-python-client could not be installed (python3 3.11+ with venv, and PyPI, are needed) !!!"
fi

# The generated-clients test also builds the Python client with openapi-generator 7 (a Java jar from Maven Central,
# fetched with Maven into the user cache, java and maven from Debian when missing), else that test is skipped loudly.
if openapi_generator_dir=$(bash scripts/ensure-openapi-generator.sh); then
  export OPENAPI_GENERATOR_DIR="$openapi_generator_dir"
else
  echo "[test] !!! THE OPENAPI-GENERATOR CLIENT TEST WILL NOT RUN: openapi-generator 7 could not be fetched (java, maven and Maven Central, and python3 3.11+ with venv and PyPI, are needed) !!!"
fi

# The A2A test drives the service with the official Python SDK too (a2a-sdk 1.x and 0.3): installed once from PyPI
# into the user cache when missing and possible, else those tests are skipped with a loud line.
if a2a_python_sdk_dir=$(bash scripts/ensure-a2a-python-sdk.sh); then
  export A2A_PYTHON_SDK_DIR="$a2a_python_sdk_dir"
else
  echo "[test] !!! THE A2A PYTHON SDK TESTS WILL NOT RUN: a2a-sdk could not be installed (python3 3.11+ with venv, and PyPI, are needed) !!!"
fi

echo "[test] integration tests (real Temporal, real MongoDB wire protocol, real SMTP)…"
# Files run in parallel processes (TEST_JOBS, default 3) against the one Temporal and store the global fixture
# starts: most of a file's time is spent waiting on workflows, so three share two cores well.
TEST_SUITE_LABEL=integration npx mocha --parallel --jobs "${TEST_JOBS:-3}" --reporter "$reporter" --timeout 60000 \
  --require dist/test/support/global-stack.js 'dist/test/integration/**/*.test.js' || status=1

echo "[test] fault injection (two API and two worker processes; kills of an API, a worker, Temporal, the store)…"
# Its own servers (persistent Temporal, a store it restarts on the same port), so no global fixture.
TEST_SUITE_LABEL=faults npx mocha --reporter "$reporter" --timeout 600000 'dist/test/faults/**/*.test.js' || status=1

read -r passed failed skipped < <(awk '{p+=$1; f+=$2; s+=$3} END {print p+0, f+0, s+0}' "$tally")
rm -f "$tally"
if [ "$passed" -eq 0 ]; then echo "[test] no test ran"; status=1; fi
echo "total: ${passed} passed, ${failed} failed, ${skipped} skipped"
exit $status
