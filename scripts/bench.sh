#!/usr/bin/env bash
# The benchmark command (`npm run bench`): installs and compiles what is missing (as `npm test` does), then
# runs dist/bench/run.js, which starts its own servers on loopback (an in-memory Temporal dev server and a
# MongoDB-wire server in a temporary folder, each built once if needed), measures every benchmark
# against a baseline taken in the same run, prints a table, writes bench/results/latest.json and stops the
# servers. Arguments pass through: `npm run bench -- --only=intake,effect`. BENCH_BUDGET_S sets the run's
# time budget (default 570 s); the retrieval benchmark sizes its largest tier to what is left.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/use-node.sh
bash scripts/ensure-deps.sh
echo "[bench] running benchmarks (about 10 minutes on a 2-core machine)…" >&2
exec node dist/bench/run.js "$@"
