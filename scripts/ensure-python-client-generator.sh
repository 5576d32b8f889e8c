#!/usr/bin/env bash
# Makes openapi-python-client available for the generated-clients test (test/integration/generated-clients.test.ts):
# installs the pinned version once from PyPI into a venv in the user cache, with the packages its generated
# client imports (httpx and attrs come with it; python-dateutil for its date-times), and prints the venv's directory on stdout.
# Progress and failures go to stderr; exit 1 when it cannot be installed here (no python3 3.11+ with venv, no PyPI; the generated client uses enum.StrEnum).
set -uo pipefail
OPENAPI_PYTHON_CLIENT_VERSION=0.29.1
say() { echo "[test] $*" >&2; }
. "$(dirname "$0")/lib/python-venvs.sh"
dir="${XDG_CACHE_HOME:-$HOME/.cache}/skills-billing-service/openapi-python-client-$OPENAPI_PYTHON_CLIENT_VERSION"
ensure_pip_venvs "$dir" "the Python client test will not run" \
  venv "openapi-python-client==$OPENAPI_PYTHON_CLIENT_VERSION python-dateutil==2.9.0.post0" || exit 1
echo "$dir/venv"
