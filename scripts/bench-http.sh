#!/usr/bin/env bash
# make bench-http: HTTP GET /ping on lt, et, mp (WORKERS workers) and the Netty peers side by side,
# through `echo-bench compare`: all servers up at once, pinned to SERVER_CPU; then per mode
# (keep-alive, Connection: close, pipelined DEPTH per write) and per load generator (wrk, then
# echo-bench's own engine) one compare of every server, the first in SERVERS the baseline:
# ROUNDS rounds of SLICE slices, each round in a fresh random order, a WARMUP per server first,
# server CPU per request from each server's pid (mp: master and workers). Each compare prints the
# medians, their ranges and, against the baseline, the median of the per-round ratios with its 95%
# interval and a verdict in words. exp-http runs the same with redis beside it and a report.
#
# Environment: ROUNDS (10), SLICE (1s), WARMUP (1s), CONNECTIONS (50), DEPTH (16), SERVER_CPU (0),
# CLIENT_CPU (1), WORKERS (mp, 2), BASE_PORT (19680: one port per server from there),
# SERVERS (the catalog's: bin/lab-server catalog --selection http), MODES ("keepalive close pipeline"),
# LOADS ("wrk echo-bench"), RESULTS_DIR (default: a new temp dir): compare-LOAD-MODE.json and .txt,
# the servers' logs, env.json.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

ROUNDS=${ROUNDS:-10} SLICE=${SLICE:-1s} WARMUP=${WARMUP:-1s} CONNECTIONS=${CONNECTIONS:-50} DEPTH=${DEPTH:-16}
BASE_PORT=${BASE_PORT:-19680} SERVER_CPU=${SERVER_CPU:-0} CLIENT_CPU=${CLIENT_CPU:-1}
export WORKERS=${WORKERS:-2}
SERVERS=${SERVERS:-$(selection http)} MODES=${MODES:-"keepalive close pipeline"}
LOADS=${LOADS:-"wrk echo-bench"}
RESULTS_DIR=${RESULTS_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/bench-http.XXXXXX")}

case " $LOADS " in
  *" wrk "*) command -v wrk >/dev/null || { echo "error: wrk is missing (Debian: apt-get install wrk; or LOADS=echo-bench)" >&2; exit 1; } ;;
esac
mkdir -p "$RESULTS_DIR"
RESULTS_DIR=$(cd "$RESULTS_DIR" && pwd)

declare -A PID LOG
cleanup() {
  local s
  for s in "${!PID[@]}"; do
    SERVER_PID=${PID[$s]} SERVER_LOG=${LOG[$s]}
    stop_server >"$RESULTS_DIR/server-$s.counters" 2>&1 || true
    unset "PID[$s]"
  done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "# bench-http: servers [$SERVERS] on cpu $SERVER_CPU, clients on cpu $CLIENT_CPU; $CONNECTIONS connections," \
  "$ROUNDS rounds of $SLICE per mode and load generator, warm-up $WARMUP per server, pipeline depth $DEPTH"
echo "# results: $RESULTS_DIR"
env_json >"$RESULTS_DIR/env.json"

targets=() i=0
for s in $SERVERS; do
  start_server "$s" "$((BASE_PORT + i))" --protocol http
  PID[$s]=$SERVER_PID LOG[$s]=$SERVER_LOG
  targets+=("$s=127.0.0.1:$((BASE_PORT + i)),pid=$SERVER_PID")
  SERVER_PID= SERVER_LOG=
  i=$((i + 1))
done

status=0
for m in $MODES; do
  for load in $LOADS; do
    mode_args=$(http_mode_args "$m" "$load") || exit 2
    read -ra mode <<<"$mode_args"
    echo
    echo "== $m, $load"
    client_pin "$NIOLAB_HOME/bin/echo-bench" compare --load "$load" --protocol http "${mode[@]}" \
      -c "$CONNECTIONS" --threads 1 --rounds "$ROUNDS" --slice "$SLICE" --warmup "$WARMUP" \
      --json "$RESULTS_DIR/compare-$load-$m.json" "${targets[@]}" | tee "$RESULTS_DIR/compare-$load-$m.txt" || status=1
  done
done
exit $status
