#!/usr/bin/env bash
# exp-long-run: serial short connections, a cold 100-request run and a long run of N (60,000)
# requests per architecture, each on a fresh server, with throughput and p99 per INTERVAL
# (500 ms) to show the JVM warming up. Server on CPU 0, client on CPU 1.
set -euo pipefail
NAME=long-run
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
N=${N:-60000}
INTERVAL=${INTERVAL:-500ms}
export WORKERS=${WORKERS:-4}

for arch in $(selection long-run); do
  echo "== $arch: a cold 100-request run"
  start_server "$arch" "$EXP_PORT"
  echo_bench --requests 100 --json "$RESULTS/short-$arch.json"
  stop_server quiet
  echo "== $arch: $N requests, a row per $INTERVAL"
  start_server "$arch" "$EXP_PORT"
  echo_bench --requests "$N" --interval "$INTERVAL" --json "$RESULTS/long-$arch.json"
  stop_keep_log "$RESULTS/server-$arch.log"
done
report
