#!/usr/bin/env bash
# exp-backend: GET /ping (memory only) and GET /healthz (two Redis GETs) on lt and et, for each
# backend posture (loop, pool, blocking), and on vt (thread: Jedis on each connection's virtual
# thread), keep-alive at CONNECTIONS connections. The servers AND redis-server are pinned to
# SERVER_CPU (Redis shares the server's core, as on the original write-up's gateway), echo-bench to
# CLIENT_CPU. Then redis-benchmark GET against the same Redis, without (-P 1) and with
# pipelining (-P DEPTH), as the ceiling of what that core can do.
#
# Two parts, against one redis-server on a port of the run's own (EXP_PORT + 99):
#   1. the comparison, per path: one `echo-bench compare` of the seven servers (lt-loop first,
#      the baseline), CMP_ROUNDS rounds of CMP_SLICE slices, each round in a fresh random order,
#      CMP_WARMUP of load per server first: rate, p99 and server CPU per request per slice
#      (compare-ping.json, compare-healthz.json and their printouts .txt). The rate claims
#      pair the servers' slices by round.
#   2. the cost: all seven servers start and stay up (idle ones sleep in their wait); ROUNDS
#      rounds go through every server and path in turn. CPU per request: the server's from
#      echo-bench (--server-pid: /proc ticks of its process), Redis's from /proc ticks around
#      each run, which part 1 cannot split between servers; and the servers' counters.
# CMP_ROUNDS=8 CMP_SLICE=0.25s CMP_WARMUP=0.5s ROUNDS=1 DURATION=0.5s WARMUP=0.5s NOISE=0 tries
# every step in a shorter run.
#
# Environment: CMP_ROUNDS (10), CMP_SLICE (1s), CMP_WARMUP (2s), DURATION (2s), WARMUP (1s),
# ROUNDS (3), CONNECTIONS (50), DEPTH (16).
# Writes to experiments/results/backend/:
#   samples.csv                  arch,mode,path,round,requests_per_s,p99_us,server_cpu_us_per_req,redis_cpu_us_per_req,errors
#   counters-ARCH-MODE.txt       each server's output, its counters last (backend calls, round trips, wake-ups)
#   redis-benchmark.csv          pipeline,round,requests_per_s,redis_cpu_us_per_req
#   raw/echo-bench-*.csv         echo-bench's row of each run; raw/redis-benchmark-*.csv: redis-benchmark's
#   settings.csv                 the run's settings, and the load average before and after it
#   redis-version.txt, env.json
#   tmp/                         (not kept by git) Redis's /proc samples and the lists of runs that
#                                `summarize runs` computes samples.csv and redis-benchmark.csv from
set -euo pipefail
NAME=backend
EXP_PORT=${EXP_PORT:-29300}
for tool in redis-server redis-benchmark redis-cli taskset; do
  if ! command -v "$tool" >/dev/null; then
    echo "error: exp-backend needs $tool (Debian: apt-get install redis-server redis-tools util-linux)" >&2
    exit 1
  fi
done
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
CMP_ROUNDS=${CMP_ROUNDS:-10} CMP_SLICE=${CMP_SLICE:-1s} CMP_WARMUP=${CMP_WARMUP:-2s}
DURATION=${DURATION:-2s} WARMUP=${WARMUP:-1s} ROUNDS=${ROUNDS:-3} CONNECTIONS=${CONNECTIONS:-50} DEPTH=${DEPTH:-16}
# arch-posture: every posture of the catalog's backend event loops, and the thread-per-connection servers' one.
SERVERS=
for a in $(selection backend); do SERVERS="$SERVERS $a-loop $a-pool $a-blocking"; done
for a in $(selection backend-thread); do SERVERS="$SERVERS $a-thread"; done
SERVERS=${SERVERS# }
PATHS="/ping /healthz"
mkdir -p "$RESULTS/raw"

REDIS_PORT=$((EXP_PORT + 99))
REDIS_PID=
declare -A PID LOG PORT

# start_redis: redis-server on REDIS_PORT, pinned like the servers; REDIS_PID is redis-server's own.
start_redis() {
  local pin=()
  [ -n "${SERVER_CPU:-}" ] && pin=(taskset -c "$SERVER_CPU")
  tethered "${pin[@]}" redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no --daemonize no \
    --loglevel warning >>"$RESULTS/redis-server.log" 2>&1
  REDIS_PID=$TETHERED_PID
  local i
  for i in $(seq 100); do redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 && return 0; sleep 0.1; done
  echo "error: redis-server did not start on port $REDIS_PORT" >&2
  return 1
}

stop_redis() {
  if [ -n "$REDIS_PID" ]; then
    kill "$REDIS_PID" 2>/dev/null || true
    wait "$REDIS_PID" 2>/dev/null || true
    REDIS_PID=
  fi
}

cleanup() {
  local k
  for k in "${!PID[@]}"; do
    SERVER_PID=${PID[$k]} SERVER_LOG=${LOG[$k]} SERVER_LOG_COPY=$RESULTS/counters-$k.txt stop_server quiet
    unset "PID[$k]"
  done
  stop_redis
}
trap cleanup EXIT

TMP=$RESULTS/tmp
# The load average says how busy the machine was besides this run: numbers from a busy one are noisier.
load_before=$(cut -d' ' -f1 /proc/loadavg)
start_redis
redis-server --version >"$RESULTS/redis-version.txt"

# Part 1: the seven servers in one compare per path, lt-loop first.
for p in $PATHS; do
  specs=()
  for k in $SERVERS; do
    specs+=("$k:${k%-*} --protocol http --backend redis://127.0.0.1:$REDIS_PORT --backend-mode ${k#*-}")
  done
  compare_servers "compare-${p#/}.json" "${specs[@]}" -- --protocol http --path "$p" -c "$CONNECTIONS" --keepalive \
    --threads 1 --rounds "$CMP_ROUNDS" --slice "$CMP_SLICE" --warmup "$CMP_WARMUP" --seed "$RANDOM"
done

# Part 2: the cost, with Redis's CPU per run.
i=0
for k in $SERVERS; do
  PORT[$k]=$((EXP_PORT + i))
  i=$((i + 1))
  start_server "${k%-*}" "${PORT[$k]}" --protocol http --backend "redis://127.0.0.1:$REDIS_PORT" --backend-mode "${k#*-}"
  PID[$k]=$SERVER_PID LOG[$k]=$SERVER_LOG
  SERVER_PID= SERVER_LOG=
  ready_line "${LOG[$k]}"
done

echo "arch,mode,path,round,key,echo_bench" >"$TMP/runs.csv"
for r in $(seq "$ROUNDS"); do
  for k in $SERVERS; do
    a=${k%-*} m=${k#*-}
    for p in $PATHS; do
      tag=$k-${p#/}-r$r
      proc_sample "$TMP/redis-proc.txt" "$tag" "$REDIS_PID" process
      client_pin "$ROOT/bin/echo-bench" --protocol http --path "$p" -c "$CONNECTIONS" --keepalive --threads 1 \
        --duration "$DURATION" --warmup "$WARMUP" --server-pid "${PID[$k]}" --max-error-rate 1 \
        --csv "$RESULTS/raw/echo-bench-$tag.csv" "127.0.0.1:${PORT[$k]}" >"$RESULTS/raw/echo-bench-$tag.txt" || true
      proc_sample "$TMP/redis-proc.txt" "$tag" "$REDIS_PID" process
      if [ -f "$RESULTS/raw/echo-bench-$tag.csv" ]; then
        echo "$a,$m,$p,$r,$tag,../raw/echo-bench-$tag.csv" >>"$TMP/runs.csv"
      else
        echo "warning: round $r: $k $p: echo-bench wrote no result (raw/echo-bench-$tag.txt says why); no row" >&2
      fi
      echo "round $r: $k $p done" >&2
    done
  done
done
cleanup
summarize runs "$TMP/runs.csv" --proc "$TMP/redis-proc.txt" --out arch,mode,path,round,requests_per_s=qps,p99_us,\
server_cpu_us_per_req,redis_cpu_us_per_req=proc_cpu_us_per_req,errors >"$RESULTS/samples.csv"

# The ceiling: redis-benchmark GET on the same Redis, alone on its core; the key holds a value like the lab's keys.
start_redis
redis-cli -p "$REDIS_PORT" set key:__rand_int__ 0.1.0 >/dev/null
echo "pipeline,round,requests,key,redis_benchmark" >"$TMP/redis-benchmark-runs.csv"
for r in $(seq "$ROUNDS"); do
  for pipe in 1 "$DEPTH"; do
    n=$((pipe == 1 ? 200000 : 2000000))
    tag=redis-benchmark-P$pipe-r$r
    proc_sample "$TMP/redis-proc.txt" "$tag" "$REDIS_PID" process
    client_pin redis-benchmark -p "$REDIS_PORT" -c "$CONNECTIONS" -n "$n" -P "$pipe" -t get --csv -q >"$RESULTS/raw/$tag.csv"
    proc_sample "$TMP/redis-proc.txt" "$tag" "$REDIS_PID" process
    echo "$pipe,$r,$n,$tag,../raw/$tag.csv" >>"$TMP/redis-benchmark-runs.csv"
    echo "round $r: redis-benchmark GET -P $pipe done" >&2
  done
done
stop_redis
summarize runs "$TMP/redis-benchmark-runs.csv" --proc "$TMP/redis-proc.txt" \
  --out pipeline,round,requests_per_s,redis_cpu_us_per_req=proc_cpu_us_per_req >"$RESULTS/redis-benchmark.csv"
echo "duration,warmup,rounds,connections,depth,load_before,load_after,cmp_rounds,cmp_slice,cmp_warmup" >"$RESULTS/settings.csv"
echo "$DURATION,$WARMUP,$ROUNDS,$CONNECTIONS,$DEPTH,$load_before,$(cut -d' ' -f1 /proc/loadavg),$CMP_ROUNDS,$CMP_SLICE,$CMP_WARMUP" \
  >>"$RESULTS/settings.csv"
report
