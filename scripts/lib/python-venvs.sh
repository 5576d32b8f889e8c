# Sourced by the scripts that install Python tools from PyPI into venvs in the user cache
# (ensure-python-client-generator.sh, ensure-a2a-python-sdk.sh, model-server.sh). Progress goes to stderr through the
# caller's `say`; stdout stays the caller's answer.

# python3 3.11+ with the venv module, which Debian ships apart as python3-venv (installed with apt-get when running
# as root, as Chromium is). $1 says what needs it, for the message when it cannot be had.
ensure_python_venv_module() {
  if ! command -v python3 >/dev/null 2>&1; then
    say "!!! python3 (3.11+) is missing: $1 !!!"
    return 1
  fi
  python3 -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 11))' 2>/dev/null && return 0
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    say "python3's venv module is missing: installing python3-venv with apt-get…"
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >&2 &&
      python3 -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 11))' 2>/dev/null && return 0
  fi
  say "!!! python3 3.11+ with the venv module is missing (Debian: apt-get install python3-venv): $1 !!!"
  return 1
}

# ensure_pip_venvs DIR WHAT NAME "SPEC…" [NAME "SPEC…"]…: the venvs DIR/NAME, each with its pinned packages, installed
# once (DIR/.installed marks a complete install; one installer at a time, since test files run in parallel; a venv is
# made where it stays, as its scripts name their path). WHAT says what goes without them when they cannot be had.
ensure_pip_venvs() {
  local dir=$1 what=$2
  shift 2
  [ -f "$dir/.installed" ] && return 0
  ensure_python_venv_module "$what" || return 1
  mkdir -p "$(dirname "$dir")"
  exec 9>"$dir.lock"
  flock 9
  if [ ! -f "$dir/.installed" ]; then
    rm -rf "$dir" && mkdir -p "$dir"
    while [ $# -ge 2 ]; do
      say "installing $2 from PyPI into $dir/$1 (once, about a minute)…"
      # shellcheck disable=SC2086 # SPEC… is a list of pinned requirements
      if ! { python3 -m venv "$dir/$1" >&2 &&
        "$dir/$1/bin/pip" install --disable-pip-version-check --no-cache-dir --progress-bar off $2 >>"$dir/install.log" 2>&1; }; then
        say "!!! installing $2 failed ($what); the end of its log ($dir/install.log): !!!"
        tail -n 20 "$dir/install.log" >&2
        exec 9>&-
        return 1
      fi
      shift 2
    done
    touch "$dir/.installed"
    say "installed into $dir"
  fi
  exec 9>&-
}
