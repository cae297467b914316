#!/usr/bin/env bash
# make bench-http: HTTP GET /ping on lt, et, mp (WORKERS workers) and the Netty peers, driven by wrk
# and by echo-bench with the same settings, in three modes: keep-alive, Connection: close, and
# pipelined (DEPTH requests per write). The servers run pinned to SERVER_CPU, the clients to
# CLIENT_CPU. All servers start first and stay up (idle ones sleep in epoll_wait); after a
# warm-up, ROUNDS rounds go through every server and mode in turn (interleaved, so a drift of
# the machine spreads over all servers), and the table shows the medians over the rounds.
#
# Server CPU per request: utime+stime from /proc/PID/stat of the server and its descendants
# (mp: master and workers), sampled around each wrk run (proc_sample); echo-bench measures its own
# runs the same way (--server-pid). Ticks are 10 ms, so runs shorter than a few seconds are coarse.
# The report generator's `summarize runs` computes samples.csv from the raw output.
#
# Environment: DURATION (5s), WARMUP (2s), ROUNDS (3), CONNECTIONS (50), DEPTH (16),
# SERVER_CPU (0), CLIENT_CPU (1), WORKERS (mp, 2), BASE_PORT (19680: one port per server from there),
# SERVERS ("lt et mp netty-nio netty-epoll netty-uring netty-http"), MODES ("keepalive close pipeline"),
# EB_WARMUP (2s: echo-bench's own JIT warm-up before each measured run; wrk needs none),
# RESULTS_DIR (default: a new temp dir): raw wrk output, echo-bench JSON and CSV, /proc samples
# and the lists of runs (raw/), samples.csv (every run), summary.csv (the medians), table.txt, env.json.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

DURATION=${DURATION:-5s} WARMUP=${WARMUP:-2s} ROUNDS=${ROUNDS:-3} CONNECTIONS=${CONNECTIONS:-50}
DEPTH=${DEPTH:-16} BASE_PORT=${BASE_PORT:-19680} EB_WARMUP=${EB_WARMUP:-2s}
SERVER_CPU=${SERVER_CPU:-0} CLIENT_CPU=${CLIENT_CPU:-1} WORKERS=${WORKERS:-2}
SERVERS=${SERVERS:-"lt et mp netty-nio netty-epoll netty-uring netty-http"} MODES=${MODES:-"keepalive close pipeline"}
RESULTS_DIR=${RESULTS_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/bench-http.XXXXXX")}

for tool in wrk taskset; do
  command -v "$tool" >/dev/null || { echo "error: $tool is missing (Debian: apt-get install ${tool/taskset/util-linux})" >&2; exit 1; }
done
mkdir -p "$RESULTS_DIR/raw"
RESULTS_DIR=$(cd "$RESULTS_DIR" && pwd)

declare -A PID LOG PORT
CLIENT_PID=
cleanup() {
  [ -n "$CLIENT_PID" ] && kill "$CLIENT_PID" 2>/dev/null && wait "$CLIENT_PID" 2>/dev/null
  local s
  for s in "${!PID[@]}"; do
    SERVER_PID=${PID[$s]} SERVER_LOG=${LOG[$s]}
    stop_server >"$RESULTS_DIR/raw/server-$s.counters" 2>&1 || true
    unset "PID[$s]"
  done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# client CMD...: runs a load generator pinned to CLIENT_CPU, in the background so that the trap
# can stop it; returns its exit status.
client() {
  # shellcheck disable=SC2046
  $(pin_prefix "$CLIENT_CPU") "$@" &
  CLIENT_PID=$!
  local rc=0
  wait "$CLIENT_PID" || rc=$?
  CLIENT_PID=
  return $rc
}

# wrk_run DURATION MODE PORT: wrk with the mode's options, output on stdout.
wrk_run() {
  local url="http://127.0.0.1:$3/ping" mode=()
  case $2 in
    close) mode=(-H 'Connection: close') ;;
    pipeline) mode=(-s "$NIOLAB_HOME/scripts/wrk-pipeline.lua") ;;
  esac
  local depth=()
  [ "$2" = pipeline ] && depth=(-- "$DEPTH")
  client wrk -t1 -c"$CONNECTIONS" -d"$1" "${mode[@]}" "$url" "${depth[@]}"
}

bench_args() { # MODE
  case $1 in
    keepalive) echo "--keepalive" ;;
    close) echo "" ;;
    pipeline) echo "--pipeline $DEPTH" ;;
  esac
}

echo "# bench-http: servers [$SERVERS] on cpu $SERVER_CPU, clients on cpu $CLIENT_CPU; $CONNECTIONS connections," \
  "$DURATION per run, warm-up $WARMUP, $ROUNDS interleaved rounds, pipeline depth $DEPTH"
echo "# results: $RESULTS_DIR"
env_json >"$RESULTS_DIR/env.json"

i=0
for s in $SERVERS; do
  PORT[$s]=$((BASE_PORT + i))
  i=$((i + 1))
  start_server "$s" "${PORT[$s]}" --protocol http
  PID[$s]=$SERVER_PID LOG[$s]=$SERVER_LOG
  SERVER_PID= SERVER_LOG=
  grep '^listening on' "${LOG[$s]}"
done

for s in $SERVERS; do
  for m in $MODES; do
    wrk_run "$WARMUP" "$m" "${PORT[$s]}" >/dev/null
  done
done

echo "server,mode,round,tool,key,wrk" >"$RESULTS_DIR/raw/wrk-runs.csv"
echo "server,mode,round,tool,echo_bench" >"$RESULTS_DIR/raw/echo-bench-runs.csv"
for r in $(seq "$ROUNDS"); do
  for s in $SERVERS; do
    for m in $MODES; do
      tag=$s-$m-r$r
      proc_sample "$RESULTS_DIR/raw/proc.txt" "$tag" "${PID[$s]}" tree
      wrk_run "$DURATION" "$m" "${PORT[$s]}" >"$RESULTS_DIR/raw/wrk-$tag.txt"
      proc_sample "$RESULTS_DIR/raw/proc.txt" "$tag" "${PID[$s]}" tree
      echo "$s,$m,$r,wrk,$tag,wrk-$tag.txt" >>"$RESULTS_DIR/raw/wrk-runs.csv"

      # shellcheck disable=SC2046
      client "$NIOLAB_HOME/bin/echo-bench" --protocol http -c "$CONNECTIONS" --threads 1 --duration "$DURATION" \
        --warmup "$EB_WARMUP" $(bench_args "$m") --server-pid "${PID[$s]}" --max-error-rate 1 \
        --json "$RESULTS_DIR/raw/echo-bench-$tag.json" --csv "$RESULTS_DIR/raw/echo-bench-$tag.csv" \
        "127.0.0.1:${PORT[$s]}" >"$RESULTS_DIR/raw/echo-bench-$tag.txt"
      echo "$s,$m,$r,echo-bench,echo-bench-$tag.csv" >>"$RESULTS_DIR/raw/echo-bench-runs.csv"
      echo "round $r: $s $m done" >&2
    done
  done
done

# Every run (samples.csv), the medians over the rounds and the ratios (summary.csv), the table.
samples=$RESULTS_DIR/samples.csv
summarize runs "$RESULTS_DIR/raw/wrk-runs.csv" --proc "$RESULTS_DIR/raw/proc.txt" \
  --out server,mode,round,tool,requests_per_s,server_cpu_us_per_req=proc_cpu_us_per_req,errors >"$samples"
summarize runs "$RESULTS_DIR/raw/echo-bench-runs.csv" --out server,mode,round,tool,requests_per_s=qps,server_cpu_us_per_req,errors \
  | tail -n +2 >>"$samples"
summary=$RESULTS_DIR/summary.csv
java -jar "$NIOLAB_HOME/experiments/reports/target/reports.jar" bench-summary "$RESULTS_DIR"

{
  echo "HTTP GET /ping, medians of $ROUNDS interleaved rounds of $DURATION; $CONNECTIONS connections; server on cpu $SERVER_CPU," \
    "client (wrk -t1 / echo-bench --threads 1) on cpu $CLIENT_CPU; pipeline depth $DEPTH."
  echo "cpu us/req: server utime+stime (/proc, 10 ms ticks; mp: master + $WORKERS workers) per request over the wrk run."
  echo "vs Netty: lt / netty-nio and et / netty-epoll (wrk req/s, cpu us/req). Netty 4.2's epoll transport is" \
    "level-triggered (4.2 removed its edge-triggered mode), so et vs netty-epoll is ET vs LT epoll."
  echo
  printf '%-12s %-10s %12s %12s %8s %10s %9s %9s %7s\n' server mode "wrk req/s" "e-b req/s" "e-b/wrk" "cpu us/req" \
    "vs Netty" "cpu vs N" errors
  awk -F, 'NR > 1 {printf "%-12s %-10s %12s %12s %8s %10s %9s %9s %7s\n", $1, $2, $3, $4, $5, $6, $9 == "" ? "-" : $9,
    $10 == "" ? "-" : $10, $11 "/" $12}' "$summary"
} | tee "$RESULTS_DIR/table.txt"
echo "# summary: $summary"
