#!/usr/bin/env bash
# Makes Prometheus's promtool available for the alert rules' tests (test/unit/ops/prometheus-alerts.test.ts runs
# `promtool test rules ops/prometheus-alerts.test.yml`). Uses PROMTOOL_PATH or a promtool on PATH; otherwise takes
# promtool alone out of Debian's `prometheus` package (`apt-get download`, nothing installed, no daemon) into the
# user cache. Prints the executable's path on stdout when there is one; says so loudly on stderr when not.
set -uo pipefail
PROMETHEUS_DEB_VERSION=2.42.0+ds-5+deb12u1
for c in "${PROMTOOL_PATH:-}" promtool; do
  [ -n "$c" ] && command -v "$c" >/dev/null 2>&1 && { command -v "$c"; exit 0; }
done
cached="${XDG_CACHE_HOME:-$HOME/.cache}/skills-billing-service/bin/promtool-${PROMETHEUS_DEB_VERSION}"
if [ -x "$cached" ]; then echo "$cached"; exit 0; fi
if command -v apt-get >/dev/null 2>&1 && command -v dpkg >/dev/null 2>&1; then
  tmp=$(mktemp -d)
  fetch() { (cd "$tmp" && apt-get download -qq "prometheus=$PROMETHEUS_DEB_VERSION" >/dev/null 2>&1); }
  echo "[test] promtool is missing: taking it from Debian's prometheus $PROMETHEUS_DEB_VERSION (apt-get download)…" >&2
  # A machine whose package lists are not yet read (a fresh one) needs apt-get update first, which needs root.
  if fetch || { [ "$(id -u)" = "0" ] && apt-get update -qq >&2 && fetch; }; then
    if dpkg -x "$tmp"/prometheus_*.deb "$tmp/x" && [ -x "$tmp/x/usr/bin/promtool" ]; then
      mkdir -p "$(dirname "$cached")" && mv "$tmp/x/usr/bin/promtool" "$cached.part" && mv "$cached.part" "$cached"
    fi
  fi
  rm -rf "$tmp"
  if [ -x "$cached" ]; then echo "$cached"; exit 0; fi
fi
echo "[test] !!! promtool is not installed and could not be fetched here: the ALERT RULE TESTS WILL NOT RUN !!!" >&2
exit 1
