#!/usr/bin/env bash
# exp-http: HTTP GET /ping on the catalog's http selection (lt, et, mp with 2 workers, the Netty
# peers, netty-http with Netty's own HTTP codec): all servers up at once, pinned to SERVER_CPU; then per
# mode (keep-alive, Connection: close, pipelined depth DEPTH) and per load generator (wrk, then
# echo-bench's engine) one `echo-bench compare` of every server, lt first (the baseline):
# ROUNDS rounds of SLICE slices, each round in a fresh random order, a WARMUP per server first,
# server CPU per request from each server's pid (mp: master and workers). Then redis-benchmark
# PING against redis-server on the same pinned core, as the per-core ceiling of a mature
# single-threaded event loop: its own sequential runs, not paired with the compares.
# The load with the defaults: 3 modes x 2 load generators x 7 servers x 10 rounds x 1 s =
# 420 s of slices, 42 x 1 s of warm-up; besides, 7 server starts, redis and the noise floor.
# compare gives an interval from 6 rounds on: ROUNDS at least 6.
# A smoke run: ROUNDS=8 SLICE=1s WARMUP=0 SERVERS="lt et netty-nio" REDIS_ROUNDS=1 NOISE=0
# (wrk takes whole seconds).
# Env knobs: SERVERS, ROUNDS (10), SLICE (1s), WARMUP (1s),
# CONNECTIONS (50), DEPTH (16), WORKERS (2), REDIS_ROUNDS (3), FORKS, RESULTS_DIR (experiments/scripts/common.sh).
#
# FORKS=F: no server stays up; every compare starts its servers itself, afresh in each of F forks
# (the servers as commands, on SERVER_CPU), ROUNDS rounds per fork, so that each ratio's interval
# spans fresh processes (no server-SERVER.log then); redis-benchmark runs as before. In 3 forks
# of 3 rounds: 6 compares x 3 forks x 7 servers x (3 rounds + 1 s of warm-up) x 1 s = 504 s, and
# 126 server starts. A smoke run in forks: FORKS=2 ROUNDS=3 SLICE=1s WARMUP=0 SERVERS="lt et" REDIS_ROUNDS=1
# NOISE=0 RESULTS_DIR=/tmp/exp-http.
#
# Writes to experiments/results/http/:
#   settings.csv                 key,value: the knobs of this run
#   compare-LOAD-MODE.json       echo-bench compare's every slice and summary (LOAD: wrk, echo-bench)
#   compare-LOAD-MODE.txt        its printout
#   server-SERVER.log            each server's output (counters last)
#   redis.csv, redis-version.txt redis-benchmark's rates per round (mode,round,test,requests_per_s)
set -euo pipefail
NAME=http
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
SERVERS=${SERVERS:-$(selection http)}
MODES="keepalive close pipeline" # the report reads all three; make bench-http runs any of them
ROUNDS=${ROUNDS:-10} SLICE=${SLICE:-1s} WARMUP=${WARMUP:-1s} CONNECTIONS=${CONNECTIONS:-50} DEPTH=${DEPTH:-16}
REDIS_ROUNDS=${REDIS_ROUNDS:-3}
export WORKERS=${WORKERS:-2}

for tool in wrk redis-server redis-benchmark; do
  if ! command -v "$tool" >/dev/null; then
    echo "error: exp-http needs $tool (Debian: apt-get install wrk redis-server)" >&2
    exit 1
  fi
done

printf 'key,value\ndesign,compare\nrounds,%s\nslice,%s\nwarmup,%s\nconnections,%s\ndepth,%s\nworkers,%s\nservers,%s\n' \
  "$ROUNDS" "$SLICE" "$WARMUP" "$CONNECTIONS" "$DEPTH" "$WORKERS" "$SERVERS" >"$RESULTS/settings.csv"
[ -z "${FORKS:-}" ] || echo "forks,$FORKS" >>"$RESULTS/settings.csv"

declare -A PID LOG
REDIS_PID=
stop_all() {
  stop_servers "$RESULTS/server-@.log"
  [ -z "$REDIS_PID" ] || { kill "$REDIS_PID" 2>/dev/null || true; wait "$REDIS_PID" 2>/dev/null || true; REDIS_PID=; }
}
trap stop_all EXIT

targets=() port=$EXP_PORT
for s in $SERVERS; do
  if [ -n "${FORKS:-}" ]; then
    targets+=("$s=$(server_command "$s" --protocol http)")
    continue
  fi
  start_server_free "$s" "$port" --protocol http
  PID[$s]=$SERVER_PID LOG[$s]=$SERVER_LOG
  targets+=("$s=127.0.0.1:$SERVER_PORT,pid=$SERVER_PID")
  port=$((SERVER_PORT + 1))
done
SERVER_PID='' SERVER_LOG=''

for m in $MODES; do
  for load in wrk echo-bench; do
    read -ra mode <<<"$(http_mode_args "$m" "$load")"
    echo "== $m, $load: ${#targets[@]} servers"
    client_pin "$ROOT/bin/echo-bench" compare "${FORK_ARGS[@]}" --load "$load" --protocol http "${mode[@]}" -c "$CONNECTIONS" \
      --threads 1 --rounds "$ROUNDS" --slice "$SLICE" --warmup "$WARMUP" --seed "$RANDOM$RANDOM" \
      --json "$RESULTS/compare-$load-$m.json" "${targets[@]}" >"$RESULTS/compare-$load-$m.txt" 2>&1 \
      || echo "warning: compare $load $m exited non-zero (see compare-$load-$m.txt)" >&2
  done
done
stop_all

# redis-benchmark PING: the same connections, keep-alive and pipelined, server and client pinned as above.
# A port held by a client's connection (the load above leaves many) is skipped for the next one.
REDIS_PORT=$port
for _ in $(seq 20); do
  tethered taskset -c "$SERVER_CPU" redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no \
    --daemonize no --loglevel warning >"$RESULTS/tmp/redis-server.log" 2>&1
  REDIS_PID=$TETHERED_PID
  for _ in $(seq 100); do
    redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 && break 2
    kill -0 "$REDIS_PID" 2>/dev/null || break
    sleep 0.1
  done
  kill "$REDIS_PID" 2>/dev/null || true; wait "$REDIS_PID" 2>/dev/null || true
  REDIS_PID= REDIS_PORT=$((REDIS_PORT + 1))
done
if [ -z "$REDIS_PID" ]; then
  echo "error: redis-server did not start (see $RESULTS/tmp/redis-server.log)" >&2
  exit 1
fi
echo "mode,round,test,requests_per_s" >"$RESULTS/redis.csv"
for r in $(seq "$REDIS_ROUNDS"); do
  for mode in keepalive pipeline; do
    pipe=1
    [ "$mode" = pipeline ] && pipe=$DEPTH
    client_pin redis-benchmark -p "$REDIS_PORT" -c "$CONNECTIONS" -n $((pipe * 200000)) -P "$pipe" -t ping --csv -q \
      | tr -d '"' | awk -F, -v m="$mode" -v r="$r" '$1 ~ /^PING/ {print m "," r "," $1 "," $2}' >>"$RESULTS/redis.csv"
  done
done
redis-server --version >"$RESULTS/redis-version.txt"
stop_all
report
