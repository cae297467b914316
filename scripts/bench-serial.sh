#!/usr/bin/env bash
# make bench-serial: the seed's serial run (one short connection per request) by echo-bench
# and by the minimal C client (reference/serial-client.c, the ruler's ruler) against the same
# server, pinned (server on SERVER_CPU, clients on CLIENT_CPU), in interleaved rounds: each
# round runs both clients, the first of them alternating, so a drift of the machine falls on
# both. Each client warms up first (WARMUP requests, not counted; the C client for symmetry),
# then sends N requests: echo-bench's per-request path reaches C2-compiled code after some
# 10,000 requests, and an FFM downcall is only as cheap as a C call once C2 has inlined it.
# Prints every round, the medians and the ratios echo-bench / C of the median rates and of the
# median client CPU per request (the CPU ratio holds up better than the rates on a machine
# that other work keeps busy).
#
# Environment: SERVER (c, lt or et; default c), N (5000), ROUNDS (3), WARMUP (20000), PORT (9988),
# SERVER_CPU (0), CLIENT_CPU (1). echo-bench runs on the JDK bin/echo-bench picks: on JDK 22+,
# with a jar built there, it calls the kernel through FFM, else through a SocketChannel
# (BENCH_JAVA_OPTS=-Decho-bench.serial-socket=channel forces the latter; a run with no WARMUP
# takes the channel too); its header says which.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

SERVER=${SERVER:-c} N=${N:-5000} ROUNDS=${ROUNDS:-3} WARMUP=${WARMUP:-20000} PORT=${PORT:-9988}
SERVER_CPU=${SERVER_CPU:-0} CLIENT_CPU=${CLIENT_CPU:-1}
export SERVER_CPU
C_CLIENT="$NIOLAB_HOME/reference/build/serial-client"
# A client that hangs (the C one has no per-request timeout) must not hang the bench.
CLIENT_TIMEOUT_S=$((60 + N / 100))

case $SERVER in
  c | lt | et) ;;
  *) echo "error: SERVER must be c, lt or et, not '$SERVER'" >&2; exit 2 ;;
esac
[ -x "$C_CLIENT" ] || { echo "error: $C_CLIENT is missing; run 'make reference' first" >&2; exit 1; }
command -v taskset >/dev/null || { echo "error: taskset is missing (Debian: apt-get install util-linux)" >&2; exit 1; }
if [ "$(cat /proc/sys/net/ipv4/tcp_tw_reuse 2>/dev/null || echo 2)" = 0 ]; then
  echo "note: net.ipv4.tcp_tw_reuse=0: $((ROUNDS * 2 * (N + WARMUP))) connections may exhaust the local ports (TIME-WAIT);" \
    "sysctl net.ipv4.tcp_tw_reuse=1 or a smaller N helps" >&2
fi

OUT=$(mktemp "${TMPDIR:-/tmp}/bench-serial.XXXXXX")
trap 'stop_server; rm -f "$OUT"' EXIT
trap 'exit 130' INT TERM
start_server "$SERVER" "$PORT"
grep '^listening on' "$SERVER_LOG"

# run_client NAME: one warmed-up run of N requests by echo-bench or c; sets QPS and P50 from its
# table row and CPU, the client process's CPU per request (µs) from its cpu line.
run_client() {
  local cmd=("$C_CLIENT")
  [ "$1" = echo-bench ] && cmd=("$NIOLAB_HOME/bin/echo-bench")
  if ! timeout "$CLIENT_TIMEOUT_S" taskset -c "$CLIENT_CPU" "${cmd[@]}" --warmup "$WARMUP" --requests "$N" "127.0.0.1:$PORT" >"$OUT" 2>&1; then
    echo "error: $1 failed:" >&2
    sed 's/^/  /' "$OUT" >&2
    exit 1
  fi
  [ "$ROUND" = 1 ] && head -1 "$OUT" # what each client says it does
  read -r QPS P50 < <(awk '$1 == "1" { print $2, $4 }' "$OUT")
  CPU=$(awk '/^cpu: client/ { print $3 }' "$OUT")
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }

# median NUMBER...: the middle value (the mean of the two middle ones for an even count).
median() {
  printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

echo "serial short connections against $SERVER: $ROUNDS rounds of $N requests per client (after $WARMUP warm-up)," \
  "server on cpu $SERVER_CPU, clients on cpu $CLIENT_CPU; cpu = the client process's CPU per request"
declare -A RATES CPUS
for ROUND in $(seq "$ROUNDS"); do
  order=(echo-bench c)
  [ $((ROUND % 2)) = 0 ] && order=(c echo-bench)
  declare -A qps=() p50=() cpu=()
  for client in "${order[@]}"; do
    run_client "$client"
    qps[$client]=$QPS p50[$client]=$P50 cpu[$client]=$CPU
    RATES[$client]+="$QPS " CPUS[$client]+="$CPU "
  done
  printf 'round %d: echo-bench %8.1f qps, p50 %4s us, cpu %5.1f us   c %8.1f qps, p50 %4s us, cpu %5.1f us   qps ratio %s\n' "$ROUND" \
    "${qps[echo-bench]}" "${p50[echo-bench]}" "${cpu[echo-bench]}" "${qps[c]}" "${p50[c]}" "${cpu[c]}" "$(ratio "${qps[echo-bench]}" "${qps[c]}")"
done
# shellcheck disable=SC2086 # the lists are words on purpose
{
  java_rate=$(median ${RATES[echo-bench]}) c_rate=$(median ${RATES[c]})
  java_cpu=$(median ${CPUS[echo-bench]}) c_cpu=$(median ${CPUS[c]})
}
printf 'median:  echo-bench %8.1f qps, cpu %5.1f us   c %8.1f qps, cpu %5.1f us   echo-bench / c: qps %s, cpu %s\n' \
  "$java_rate" "$java_cpu" "$c_rate" "$c_cpu" "$(ratio "$java_rate" "$c_rate")" "$(ratio "$java_cpu" "$c_cpu")"
