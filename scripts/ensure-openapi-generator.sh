#!/usr/bin/env bash
# Makes openapi-generator 7 available for the generated-clients test (test/integration/generated-clients.test.ts):
# its CLI jar from Maven Central (with Maven, `mvn dependency:copy`; java and maven from Debian with apt-get when
# missing and running as root, as Chromium is), and a venv with the packages its Python client imports (the ones its
# generated pyproject.toml names), both once into the user cache. Prints the directory holding both
# (openapi-generator-cli.jar and venv/) on stdout; progress and failures go to stderr; exit 1 when they cannot be had.
set -uo pipefail
OPENAPI_GENERATOR_VERSION=7.25.0
say() { echo "[test] $*" >&2; }
. "$(dirname "$0")/lib/python-venvs.sh"
dir="${XDG_CACHE_HOME:-$HOME/.cache}/skills-billing-service/openapi-generator-$OPENAPI_GENERATOR_VERSION"
jar="$dir/openapi-generator-cli.jar"

if [ ! -f "$jar" ]; then
  if ! { command -v java >/dev/null 2>&1 && command -v mvn >/dev/null 2>&1; }; then
    if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
      say "java or maven is missing: installing Debian's default-jre-headless and maven (apt-get)…"
      apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq default-jre-headless maven >&2
    fi
  fi
  if command -v java >/dev/null 2>&1 && command -v mvn >/dev/null 2>&1; then
    say "fetching openapi-generator-cli $OPENAPI_GENERATOR_VERSION from Maven Central (once)…"
    tmp=$(mktemp -d)
    if mvn -q -B -Dstyle.color=never dependency:copy "-Dartifact=org.openapitools:openapi-generator-cli:$OPENAPI_GENERATOR_VERSION" \
      "-DoutputDirectory=$tmp" >&2 && [ -f "$tmp/openapi-generator-cli-$OPENAPI_GENERATOR_VERSION.jar" ]; then
      mkdir -p "$dir" && mv "$tmp/openapi-generator-cli-$OPENAPI_GENERATOR_VERSION.jar" "$jar.part" && mv "$jar.part" "$jar"
    fi
    rm -rf "$tmp"
  fi
fi
if [ ! -f "$jar" ]; then
  say "!!! openapi-generator-cli $OPENAPI_GENERATOR_VERSION could not be fetched (java and maven, and Maven Central, are needed): THE OPENAPI-GENERATOR TEST WILL NOT RUN !!!"
  exit 1
fi
ensure_pip_venvs "$dir/python" "the openapi-generator test will not run" \
  venv "urllib3==2.7.0 python-dateutil==2.9.0.post0 pydantic==2.14.4 typing-extensions==4.16.0" || exit 1
echo "$dir"
