#!/usr/bin/env bash
# Makes the official A2A Python SDK (a2a-sdk on PyPI) available for the A2A test (test/integration/skills-a2a.test.ts):
# two venvs in the user cache, installed once from PyPI: the current 1.x SDK, and the last 0.3 SDK as an old client
# would have it. Prints the directory holding both (venv-1/ and venv-0.3/) on stdout; progress and failures go to
# stderr; exit 1 when they cannot be installed here (no python3 3.11+ with venv, no PyPI).
set -uo pipefail
A2A_SDK_VERSION=1.3.0
A2A_SDK_LEGACY_VERSION=0.3.26
say() { echo "[test] $*" >&2; }
dir="${XDG_CACHE_HOME:-$HOME/.cache}/skills-billing-service/a2a-sdk-python-$A2A_SDK_VERSION+$A2A_SDK_LEGACY_VERSION"
if [ -f "$dir/.installed" ]; then echo "$dir"; exit 0; fi
if ! command -v python3 >/dev/null 2>&1 || ! python3 -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
  say "!!! python3 3.11+ with the venv module is missing (Debian: apt-get install python3-venv): the A2A Python SDK tests will not run !!!"
  exit 1
fi
# One install at a time (test files run in parallel); the venvs are made where they stay (their scripts name their path).
mkdir -p "$(dirname "$dir")"
exec 9>"$dir.lock"
flock 9
if [ -f "$dir/.installed" ]; then echo "$dir"; exit 0; fi
rm -rf "$dir" && mkdir -p "$dir"
install() {
  say "installing a2a-sdk $2 from PyPI into $dir/$1 (once, about a minute)…"
  python3 -m venv "$dir/$1" >&2 &&
    "$dir/$1/bin/pip" install --disable-pip-version-check --no-cache-dir --progress-bar off "a2a-sdk==$2" >>"$dir/install.log" 2>&1
}
if install venv-1 "$A2A_SDK_VERSION" && install venv-0.3 "$A2A_SDK_LEGACY_VERSION"; then
  touch "$dir/.installed"
  say "a2a-sdk $A2A_SDK_VERSION and $A2A_SDK_LEGACY_VERSION installed"
  echo "$dir"
  exit 0
fi
say "!!! installing a2a-sdk failed; the end of its log ($dir/install.log): !!!"
tail -n 20 "$dir/install.log" >&2
exit 1
