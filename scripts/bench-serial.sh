#!/usr/bin/env bash
# make bench-serial: the original write-up's serial run (one short connection per request) by echo-bench
# and by the minimal C client (reference/serial-client.c, the ruler's ruler) against the same
# server, pinned (server on SERVER_CPU, clients on CLIENT_CPU), in interleaved rounds: each
# round runs both clients, the first of them alternating, so a drift of the machine falls on
# both. Each client warms up first (WARMUP requests, not counted; the C client for symmetry),
# then sends N requests: echo-bench's per-request path reaches C2-compiled code after some
# 10,000 requests, and an FFM downcall is only as cheap as a C call once C2 has inlined it.
# Prints every round, the medians and the ratios echo-bench / C of the median rates and of the
# median client CPU per request (the CPU ratio holds up better than the rates on a machine
# that other work keeps busy), computed by the report generator's `summarize` from the clients'
# output (kept in a temporary folder, BENCH_DIR to keep it elsewhere).
#
# Environment: SERVER (one of the catalog's serial selection: c, lt, et; default c), N (5000), ROUNDS (6: fewer give the range of the rounds as the interval), WARMUP (20000), PORT (9988),
# SERVER_CPU (0), CLIENT_CPU (1). echo-bench runs on the JDK bin/echo-bench picks: on JDK 22+,
# with a jar built there, it calls the kernel through FFM, else through a SocketChannel
# (BENCH_JAVA_OPTS=-Decho-bench.serial-socket=channel forces the latter; a run with no WARMUP
# takes the channel too); its header says which.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

SERVER=${SERVER:-c} N=${N:-5000} ROUNDS=${ROUNDS:-6} WARMUP=${WARMUP:-20000} PORT=${PORT:-9988}
SERVER_CPU=${SERVER_CPU:-0} CLIENT_CPU=${CLIENT_CPU:-1}
export SERVER_CPU
C_CLIENT="$NIOLAB_HOME/reference/build/serial-client"
# A client that hangs (the C one has no per-request timeout) must not hang the bench.
CLIENT_TIMEOUT_S=$((60 + N / 100))

case " $(selection serial) " in
  *" $SERVER "*) ;;
  *) echo "error: SERVER must be one of the catalog's serial selection ($(selection serial)), not '$SERVER'" >&2; exit 2 ;;
esac
[ -x "$C_CLIENT" ] || { echo "error: $C_CLIENT is missing; run 'make reference' first" >&2; exit 1; }
command -v taskset >/dev/null || { echo "error: taskset is missing (Debian: apt-get install util-linux)" >&2; exit 1; }
if [ "$(cat /proc/sys/net/ipv4/tcp_tw_reuse 2>/dev/null || echo 2)" = 0 ]; then
  echo "note: net.ipv4.tcp_tw_reuse=0: $((ROUNDS * 2 * (N + WARMUP))) connections may exhaust the local ports (TIME-WAIT);" \
    "sysctl net.ipv4.tcp_tw_reuse=1 or a smaller N helps" >&2
fi

if [ -n "${BENCH_DIR:-}" ]; then
  mkdir -p "$BENCH_DIR"
  DIR=$(cd "$BENCH_DIR" && pwd) KEEP=1
else
  DIR=$(mktemp -d "${TMPDIR:-/tmp}/bench-serial.XXXXXX") KEEP=
fi
trap 'stop_server; [ -n "$KEEP" ] || rm -rf "$DIR"' EXIT
trap 'exit 130' INT TERM
start_server "$SERVER" "$PORT"
ready_line "$SERVER_LOG"

# run_client NAME: one warmed-up run of N requests by echo-bench or c, its output (the original write-up's
# table) in $DIR/NAME-rROUND.txt and a row of $DIR/runs.csv.
run_client() {
  local cmd=("$C_CLIENT") out=$DIR/$1-r$ROUND.txt
  [ "$1" = echo-bench ] && cmd=("$NIOLAB_HOME/bin/echo-bench")
  if ! timeout "$CLIENT_TIMEOUT_S" taskset -c "$CLIENT_CPU" "${cmd[@]}" --warmup "$WARMUP" --requests "$N" "127.0.0.1:$PORT" >"$out" 2>&1; then
    echo "error: $1 failed:" >&2
    sed 's/^/  /' "$out" >&2
    exit 1
  fi
  [ "$ROUND" = 1 ] && head -1 "$out" # what each client says it does
  echo "$1,$ROUND,${out##*/}" >>"$DIR/runs.csv"
}

echo "serial short connections against $SERVER: $ROUNDS rounds of $N requests per client (after $WARMUP warm-up)," \
  "server on cpu $SERVER_CPU, clients on cpu $CLIENT_CPU; cpu = the client process's CPU per request"
echo "client,round,table" >"$DIR/runs.csv"
for ROUND in $(seq "$ROUNDS"); do
  order=(echo-bench c)
  [ $((ROUND % 2)) = 0 ] && order=(c echo-bench)
  for client in "${order[@]}"; do run_client "$client"; done
done
summarize runs "$DIR/runs.csv" --out client,round,qps,p50_us,cpu_us=client_cpu_us >"$DIR/rounds.csv"
column -s, -t "$DIR/rounds.csv"
echo "medians; echo-bench / c the median of the per-round ratios [95% interval] (qps_vs_c, cpu_us_vs_c):"
summarize medians "$DIR/rounds.csv" --by client --ratios client=c | column -s, -t
