#!/usr/bin/env bash
# Makes openapi-python-client available for the generated-clients test (test/integration/generated-clients.test.ts):
# installs the pinned version once from PyPI into a venv in the user cache, with the packages its generated
# client imports (httpx and attrs come with it; python-dateutil for its date-times), and prints the venv's directory on stdout.
# Progress and failures go to stderr; exit 1 when it cannot be installed here (no python3 3.11+ with venv, no PyPI; the generated client uses enum.StrEnum).
set -uo pipefail
OPENAPI_PYTHON_CLIENT_VERSION=0.29.1
say() { echo "[test] $*" >&2; }
dir="${XDG_CACHE_HOME:-$HOME/.cache}/skills-billing-service/openapi-python-client-$OPENAPI_PYTHON_CLIENT_VERSION"
if [ -f "$dir/.installed" ]; then echo "$dir/venv"; exit 0; fi
if ! command -v python3 >/dev/null 2>&1 || ! python3 -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
  say "!!! python3 3.11+ with the venv module is missing (Debian: apt-get install python3-venv): the Python client test will not run !!!"
  exit 1
fi
# One install at a time (test files run in parallel); the venv is made where it stays (its scripts name their path).
exec 9>"$dir.lock"
flock 9
if [ -f "$dir/.installed" ]; then echo "$dir/venv"; exit 0; fi
say "installing openapi-python-client $OPENAPI_PYTHON_CLIENT_VERSION from PyPI into $dir (once, about a minute)…"
rm -rf "$dir" && mkdir -p "$dir"
if python3 -m venv "$dir/venv" >&2 &&
  "$dir/venv/bin/pip" install --disable-pip-version-check --no-cache-dir --progress-bar off \
    "openapi-python-client==$OPENAPI_PYTHON_CLIENT_VERSION" "python-dateutil==2.9.0.post0" >"$dir/install.log" 2>&1; then
  touch "$dir/.installed"
  say "openapi-python-client $OPENAPI_PYTHON_CLIENT_VERSION installed"
  echo "$dir/venv"
  exit 0
fi
say "!!! installing openapi-python-client failed; the end of its log ($dir/install.log): !!!"
tail -n 20 "$dir/install.log" >&2
exit 1
