#!/usr/bin/env bash
# make bench-vt: vt against lt (and the C reference), the measures exp-vt sets targets on,
# pinned (server on SERVER_CPU, clients on CLIENT_CPU), in ROUNDS rounds, the servers of each
# measure in a fresh random order every round:
#   ping      keep-alive /ping, CONNECTIONS connections, echo-bench: server CPU µs per request
#   echo-c    keep-alive echo, CONNECTIONS connections, the C keepalive-client (reference/):
#             requests/s and server CPU µs per request
#   echo-eb   the same with echo-bench --keepalive (one thread)
#   short     echo, a fresh connection per request, the C serial-client (reference/): server CPU
#             µs per connection (lt's short-connection target is against c's)
# Every server stays up for the whole run (idle ones sleep); after a warm-up of every measure,
# each round goes through every measure and server in turn, so a drift of the machine falls on
# all of them. Prints every sample, then the medians and the ratios to lt and to c (the median of
# the per-round ratios, paired by round, with its 95% interval), computed by the report
# generator's `summarize` from the clients' output and the servers' /proc samples (kept in a
# temporary folder, BENCH_DIR to keep them elsewhere). make exp-vt measures the same with
# echo-bench compare's slices and a report.
#
# Environment: SERVERS (the catalog's vt selection: lt vt c; VT_OPTS="-Djdk.pollerMode=1 ..." are JVM options for vt only,
# VT_ARGS server options for vt only), MEASURES ("ping echo-c echo-eb short"), DURATION (5),
# WARMUP (5, seconds), ROUNDS (6: fewer give the range of the rounds as the interval), CONNECTIONS (50), SHORT_N (20000 connections per short run),
# BASE_PORT (25900), SERVER_CPU (0), CLIENT_CPU (1). About ROUNDS x servers x measures x DURATION.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

SERVERS=${SERVERS:-$(selection vt)} MEASURES=${MEASURES:-"ping echo-c echo-eb short"}
DURATION=${DURATION:-5} WARMUP=${WARMUP:-5} ROUNDS=${ROUNDS:-6} CONNECTIONS=${CONNECTIONS:-50}
SHORT_N=${SHORT_N:-20000} BASE_PORT=${BASE_PORT:-25900}
export SERVER_CPU=${SERVER_CPU:-0} CLIENT_CPU=${CLIENT_CPU:-1}
KA_CLIENT=$NIOLAB_HOME/reference/build/keepalive-client SERIAL_CLIENT=$NIOLAB_HOME/reference/build/serial-client
for c in "$KA_CLIENT" "$SERIAL_CLIENT"; do
  [ -x "$c" ] || { echo "error: $c is missing; run 'make reference' first" >&2; exit 1; }
done

if [ -n "${BENCH_DIR:-}" ]; then
  mkdir -p "$BENCH_DIR"
  DIR=$(cd "$BENCH_DIR" && pwd) KEEP=1
else
  DIR=$(mktemp -d "${TMPDIR:-/tmp}/bench-vt.XXXXXX") KEEP=
fi
declare -A PID LOG PORT
cleanup() {
  local k
  for k in "${!PID[@]}"; do
    SERVER_PID=${PID[$k]} SERVER_LOG=${LOG[$k]} stop_server quiet
    unset "PID[$k]"
  done
  [ -n "$KEEP" ] || rm -rf "$DIR"
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

# measure SERVER MEASURE SECONDS ROUND: one client run, its output in $DIR/TAG.txt, the server's
# /proc sampled around it under TAG (SERVER-MEASURE-rROUND); prints its row of $DIR/runs.csv (the
# client's output says how many requests it made; short's are SHORT_N, over t1 - t0).
measure() {
  local s=$1 m=$2 secs=$3 r=$4 tag=$1-$2-r$4 k table= keepalive= requests= t0= t1= out
  out=$DIR/$tag.txt
  case $m in ping) k=$s-http ;; *) k=$s-echo ;; esac
  proc_sample "$DIR/proc.txt" "$tag" "${PID[$k]}" tree
  case $m in
    ping | echo-eb)
      local proto=echo
      [ "$m" = ping ] && proto=http
      client_pin "$NIOLAB_HOME/bin/echo-bench" --protocol "$proto" --keepalive -c "$CONNECTIONS" --threads 1 \
        --duration "${secs}s" --max-error-rate 0.001 "127.0.0.1:${PORT[$k]}" >"$out"
      table=${out##*/}
      ;;
    echo-c)
      client_pin timeout $((secs + 30)) "$KA_CLIENT" -c "$CONNECTIONS" -d "$secs" "127.0.0.1:${PORT[$k]}" >"$out"
      keepalive=${out##*/}
      ;;
    short)
      t0=$EPOCHREALTIME
      client_pin timeout $((60 + SHORT_N / 100)) "$SERIAL_CLIENT" -n "$SHORT_N" "127.0.0.1:${PORT[$k]}" >"$out"
      t1=$EPOCHREALTIME secs= requests=$SHORT_N
      ;;
  esac
  proc_sample "$DIR/proc.txt" "$tag" "${PID[$k]}" tree
  echo "$m,$s,$r,$tag,$secs,$table,$keepalive,$requests,$t0,$t1"
}

echo "# bench-vt: servers [$SERVERS] on cpu $SERVER_CPU, clients on cpu $CLIENT_CPU; $CONNECTIONS connections;" \
  "${DURATION}s runs, $ROUNDS rounds in a fresh random order each; VT_OPTS='${VT_OPTS:-}' VT_ARGS='${VT_ARGS:-}'; load: $(cut -d' ' -f1-3 /proc/loadavg)"
# the warm-up: every measure once, unrecorded (short: SHORT_N connections, the JIT's accept-to-close path)
for s in $SERVERS; do for m in $MEASURES; do measure "$s" "$m" "$WARMUP" warmup >/dev/null; done; done
echo "measure,server,round,key,seconds,table,keepalive,requests,t0,t1" >"$DIR/runs.csv"
for r in $(seq "$ROUNDS"); do
  for m in $MEASURES; do
    for s in $(shuf -e $SERVERS); do
      measure "$s" "$m" "$DURATION" "$r" >>"$DIR/runs.csv"
      echo "round $r: $m $s done"
    done
  done
done
summarize runs "$DIR/runs.csv" --proc "$DIR/proc.txt" --out measure,server,round,rate,cpu_us=proc_cpu_us_per_req >"$DIR/samples.csv"
column -s, -t "$DIR/samples.csv"
# the baselines: vt's (the first of the catalog's vt-pair) and short connections' (vt-short's first)
BASELINES="$(selection vt-pair | cut -d' ' -f1),$(selection vt-short | cut -d' ' -f1)"
echo "# medians (requests/s, server cpu us/request); against ${BASELINES/,/ and } the median of the per-round ratios [95% interval]"
summarize medians "$DIR/samples.csv" --by measure,server --ratios "server=$BASELINES" | column -s, -t
