#!/usr/bin/env bash
# Makes Debian's chromium available for the browser tests (test/integration/console-browser.test.ts).
# Installs it with apt-get when it is missing and this runs as root (CI does, on Debian); otherwise says
# loudly that the browser tests will be skipped. Prints the executable's path on stdout when there is one.
set -uo pipefail
find_chromium() {
  for c in "${CHROMIUM_PATH:-}" chromium chromium-browser; do
    [ -n "$c" ] && command -v "$c" >/dev/null 2>&1 && { command -v "$c"; return 0; }
  done
  return 1
}
if path=$(find_chromium); then echo "$path"; exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "[test] chromium is missing: installing Debian's chromium (apt-get)…" >&2
  if apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >&2; then
    if path=$(find_chromium); then echo "$path"; exit 0; fi
  fi
fi
echo "[test] !!! chromium is not installed and could not be installed here: the BROWSER TESTS WILL NOT RUN !!!" >&2
exit 1
