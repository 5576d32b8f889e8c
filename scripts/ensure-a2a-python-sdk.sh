#!/usr/bin/env bash
# Makes the official A2A Python SDK (a2a-sdk on PyPI) available for the A2A test (test/integration/skills-a2a.test.ts):
# two venvs in the user cache, installed once from PyPI: the current 1.x SDK, and the last 0.3 SDK as an old client
# would have it. Prints the directory holding both (venv-1/ and venv-0.3/) on stdout; progress and failures go to
# stderr; exit 1 when they cannot be installed here (no python3 3.11+ with venv, no PyPI).
set -uo pipefail
A2A_SDK_VERSION=1.3.0
A2A_SDK_LEGACY_VERSION=0.3.26
say() { echo "[test] $*" >&2; }
. "$(dirname "$0")/lib/python-venvs.sh"
dir="${XDG_CACHE_HOME:-$HOME/.cache}/skills-billing-service/a2a-sdk-python-$A2A_SDK_VERSION+$A2A_SDK_LEGACY_VERSION"
ensure_pip_venvs "$dir" "the A2A Python SDK tests will not run" \
  venv-1 "a2a-sdk==$A2A_SDK_VERSION" venv-0.3 "a2a-sdk==$A2A_SDK_LEGACY_VERSION" || exit 1
echo "$dir"
