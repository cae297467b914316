#!/usr/bin/env bash
# make bench-vt: vt against lt (and the C reference), the measures issue 28 sets targets on,
# pinned (server on SERVER_CPU, clients on CLIENT_CPU), in ROUNDS interleaved rounds:
#   ping      keep-alive /ping, CONNECTIONS connections, echo-bench: server CPU µs per request
#   echo-c    keep-alive echo, CONNECTIONS connections, the C keepalive-client (reference/):
#             requests/s and server CPU µs per request
#   echo-eb   the same with echo-bench --keepalive (one thread)
#   short     echo, a fresh connection per request, the C serial-client (reference/): server CPU
#             µs per connection (lt's short-connection target is against c's)
# Every server stays up for the whole run (idle ones sleep); after a warm-up of every measure,
# each round goes through every measure and server in turn, so a drift of the machine falls on
# all of them. Prints every sample, then the medians and the ratios to lt and to c.
#
# Environment: SERVERS ("lt vt c"; VT_OPTS="-Djdk.pollerMode=1 ..." are JVM options for vt only,
# VT_ARGS server options for vt only), MEASURES ("ping echo-c echo-eb short"), DURATION (10),
# WARMUP (5, seconds), ROUNDS (3), CONNECTIONS (50), SHORT_N (20000 connections per short run),
# BASE_PORT (25900), SERVER_CPU (0), CLIENT_CPU (1). About ROUNDS x servers x measures x DURATION.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

SERVERS=${SERVERS:-"lt vt c"} MEASURES=${MEASURES:-"ping echo-c echo-eb short"}
DURATION=${DURATION:-10} WARMUP=${WARMUP:-5} ROUNDS=${ROUNDS:-3} CONNECTIONS=${CONNECTIONS:-50}
SHORT_N=${SHORT_N:-20000} BASE_PORT=${BASE_PORT:-25900}
export SERVER_CPU=${SERVER_CPU:-0} CLIENT_CPU=${CLIENT_CPU:-1}
KA_CLIENT=$NIOLAB_HOME/reference/build/keepalive-client SERIAL_CLIENT=$NIOLAB_HOME/reference/build/serial-client
for c in "$KA_CLIENT" "$SERIAL_CLIENT"; do
  [ -x "$c" ] || { echo "error: $c is missing; run 'make reference' first" >&2; exit 1; }
done

declare -A PID LOG PORT
cleanup() {
  local k
  for k in "${!PID[@]}"; do
    SERVER_PID=${PID[$k]} SERVER_LOG=${LOG[$k]} stop_server quiet
    unset "PID[$k]"
  done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

i=0
for s in $SERVERS; do
  for proto in http echo; do
    k=$s-$proto
    PORT[$k]=$((BASE_PORT + i))
    i=$((i + 1))
    opts=() java_opts=${JAVA_OPTS:-}
    # shellcheck disable=SC2206
    [ "$s" = vt ] && opts=(${VT_ARGS:-}) java_opts="$java_opts ${VT_OPTS:-}"
    JAVA_OPTS=$java_opts start_server "$s" "${PORT[$k]}" --protocol "$proto" "${opts[@]}"
    PID[$k]=$SERVER_PID LOG[$k]=$SERVER_LOG
    SERVER_PID= SERVER_LOG=
  done
done

# measure SERVER MEASURE SECONDS: prints "rate cpu_us" (requests/s, server CPU µs per request).
measure() {
  local s=$1 m=$2 secs=$3 k out before after n
  case $m in ping) k=$s-http ;; *) k=$s-echo ;; esac
  before=$(cpu_ticks "${PID[$k]}")
  case $m in
    ping | echo-eb)
      local proto=echo
      [ "$m" = ping ] && proto=http
      out=$(client_pin "$NIOLAB_HOME/bin/echo-bench" --protocol "$proto" --keepalive -c "$CONNECTIONS" --threads 1 \
        --duration "${secs}s" --max-error-rate 0.001 "127.0.0.1:${PORT[$k]}")
      n=$(awk '$1 == "1" {printf "%.0f", $2 * $NF}' <<<"$out")
      ;;
    echo-c)
      out=$(client_pin timeout $((secs + 30)) "$KA_CLIENT" -c "$CONNECTIONS" -d "$secs" "127.0.0.1:${PORT[$k]}")
      n=$(awk '{print $2}' <<<"$out")
      ;;
    short)
      local t0=$EPOCHREALTIME
      out=$(client_pin timeout $((60 + SHORT_N / 100)) "$SERIAL_CLIENT" -n "$SHORT_N" "127.0.0.1:${PORT[$k]}")
      n=$SHORT_N secs=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN {print b - a}')
      ;;
  esac
  after=$(cpu_ticks "${PID[$k]}")
  awk -v n="$n" -v s="$secs" -v t=$((after - before)) 'BEGIN {printf "%.1f %.2f\n", n / s, (n > 0 ? t * 1e4 / n : 0)}'
}

echo "# bench-vt: servers [$SERVERS] on cpu $SERVER_CPU, clients on cpu $CLIENT_CPU; $CONNECTIONS connections;" \
  "${DURATION}s runs, $ROUNDS interleaved rounds; VT_OPTS='${VT_OPTS:-}' VT_ARGS='${VT_ARGS:-}'; load: $(cut -d' ' -f1-3 /proc/loadavg)"
# the warm-up: every measure once, unrecorded (short: SHORT_N connections, the JIT's accept-to-close path)
for s in $SERVERS; do for m in $MEASURES; do measure "$s" "$m" "$WARMUP" >/dev/null; done; done
samples=$(mktemp "${TMPDIR:-/tmp}/bench-vt.XXXXXX")
for r in $(seq "$ROUNDS"); do
  for m in $MEASURES; do
    for s in $SERVERS; do
      line=$(measure "$s" "$m" "$DURATION")
      echo "$m $s $r $line" | tee -a "$samples"
    done
  done
done
echo "# medians: measure server requests/s cpu_us/request  rate_vs_lt cpu_vs_lt cpu_vs_c"
awk '{k = $1 " " $2; rate[k] = rate[k] " " $4; cpu[k] = cpu[k] " " $5; if (!(k in seen)) {seen[k] = 1; order[++n] = k}}
  function median(list,   v, m, i, j, t) { m = split(list, v, " "); for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (v[j] < v[i]) {t = v[i]; v[i] = v[j]; v[j] = t}
    return m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2 }
  END { for (i = 1; i <= n; i++) { split(order[i], p, " "); R[order[i]] = median(rate[order[i]]); C[order[i]] = median(cpu[order[i]]) }
    for (i = 1; i <= n; i++) { split(order[i], p, " "); lt = p[1] " lt"; c = p[1] " c"
      printf "%-8s %-4s %12.1f %8.2f %8s %8s %8s\n", p[1], p[2], R[order[i]], C[order[i]],
        (lt in R && R[lt] > 0) ? sprintf("%.2f", R[order[i]] / R[lt]) : "-", (lt in C && C[lt] > 0) ? sprintf("%.2f", C[order[i]] / C[lt]) : "-",
        (c in C && C[c] > 0) ? sprintf("%.2f", C[order[i]] / C[c]) : "-" } }' "$samples"
rm -f "$samples"
