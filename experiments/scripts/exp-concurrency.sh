#!/usr/bin/env bash
# exp-concurrency: keep-alive and short-connection runs at 1, 2, 4 ... 256 connections per
# architecture: each point 1 s of warm-up then RUNS (3) runs of DURATION (1 s), medians. One
# server per architecture and mode. Server on CPU 0, client (one event-loop thread) on CPU 1.
# About 5 minutes.
set -euo pipefail
NAME=concurrency
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
LEVELS=${LEVELS:-1 2 4 8 16 32 64 128 256}
DURATION=${DURATION:-1s}
RUNS=${RUNS:-3}
export WORKERS=${WORKERS:-2}

for mode in keepalive short; do
  flag=()
  [ "$mode" = keepalive ] && flag=(--keepalive)
  for arch in lt et mp; do
    start_server "$arch" "$EXP_PORT"
    for c in $LEVELS; do
      echo "== $mode $arch c=$c"
      echo_bench "${flag[@]}" --connections "$c" --threads 1 --duration "$DURATION" --warmup 1s \
        --runs "$RUNS" --json "$RESULTS/$mode-$arch-$c.json" >/dev/null
    done
    stop_keep_log "$RESULTS/server-$mode-$arch.log"
  done
done
echo "$LEVELS" >"$RESULTS/levels.txt"
report
