#!/usr/bin/env bash
# exp-http: HTTP GET /ping on lt, et, mp (2 workers), netty-nio, netty-epoll, netty-uring and
# netty-http (Netty's own HTTP codec), driven by wrk and echo-bench (keep-alive, Connection:
# close, pipelined depth 16): `make bench-http` with its results kept here. Then redis-benchmark
# PING against redis-server on the same pinned core, as the per-core ceiling of a mature
# single-threaded event loop. About 15 minutes.
set -euo pipefail
NAME=http
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
export DURATION=${DURATION:-5s} ROUNDS=${ROUNDS:-3} CONNECTIONS=${CONNECTIONS:-50} DEPTH=${DEPTH:-16}

for tool in wrk redis-server redis-benchmark; do
  if ! command -v "$tool" >/dev/null; then
    echo "error: exp-http needs $tool (Debian: apt-get install wrk redis-server)" >&2
    exit 1
  fi
done

RESULTS_DIR=$RESULTS bash scripts/bench-http.sh

# redis-benchmark PING: the same connections, keep-alive and pipelined, server and client pinned as above.
REDIS_PORT=$((EXP_PORT + 1))
taskset -c "$SERVER_CPU" redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no \
  --daemonize no --loglevel warning >"$RESULTS/redis-server.log" 2>&1 &
REDIS_PID=$!
trap 'kill "$REDIS_PID" 2>/dev/null; wait "$REDIS_PID" 2>/dev/null; stop_server' EXIT
for i in $(seq 50); do redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 && break; sleep 0.1; done
echo "mode,round,test,requests_per_s" >"$RESULTS/redis.csv"
for r in $(seq "$ROUNDS"); do
  for mode in keepalive pipeline; do
    pipe=1
    [ "$mode" = pipeline ] && pipe=$DEPTH
    client_pin redis-benchmark -p "$REDIS_PORT" -c "$CONNECTIONS" -n $((pipe * 200000)) -P "$pipe" -t ping --csv -q \
      | tr -d '"' | awk -F, -v m="$mode" -v r="$r" '$1 ~ /^PING/ {print m "," r "," $1 "," $2}' >>"$RESULTS/redis.csv"
  done
done
redis-server --version >"$RESULTS/redis-version.txt"
report
