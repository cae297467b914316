#!/usr/bin/env bash
# exp-ffi: what et's native binding (JNA direct mapping, or FFM) costs, three ways:
#   1. per call: make bench-ffi (JMH and C on one pinned CPU): ns per epoll_wait, read (EAGAIN)
#      and 64-byte send, through C, JNA, FFM, FFM critical and the JDK's SocketChannel;
#   2. per request: the syscalls of each server's event loop (lt, et jna, et ffm) under strace,
#      over 2,000 keep-alive requests on one connection and over 500 serial short connections;
#      and those of echo-bench's cold serial client (--cold-client: a blocking SocketChannel),
#      per request as the difference between a 1,000- and a 500-request run, so that its JVM's
#      start and exit cancel out;
#   3. end to end: per workload (keep-alive echo, keep-alive /ping, pipelined /ping, depth 16),
#      one `echo-bench compare` of et on each binding, lt and the C reference (et-jna first,
#      the baseline), CMP_ROUNDS rounds of CMP_SLICE slices, each round in a fresh random order:
#      rate and server CPU per request, paired by round (compare-W.json, and its printout .txt);
#   4. in CPU: et on each binding once more per workload, ROUNDS rounds, for the server's
#      counters, whose calls per request times bench-ffi's cost per call predict what the
#      binding costs each request.
# Without `et --binding` in this build (et is JNA only), the FFM rows are left out.
# Server on CPU 0, client on CPU 1, bench-ffi on CPU 1. The compares: per workload four starts,
# 2 s of warm-up each and 10 rounds of four 1 s slices.
# A smoke run of every step: CMP_ROUNDS=8 CMP_SLICE=0.25s CMP_WARMUP=0.5s ROUNDS=1 DURATION=0.5s
# WARMUP=0.5s NOISE=0 C_ROUNDS=5 JMH_ARGS="-f 1 -wi 1 -w 100ms -i 3 -r 10ms".
#
# Writes to experiments/results/ffi/:
#   bindings.txt                    the bindings et offers here (jna, and ffm)
#   load.csv                        phase,load1,load5,load15 as each phase starts, and at the end
#   calls/                          make bench-ffi's results (results.json: ns per call, median
#                                   and fastest of 400 short rounds)
#   syscalls-SERVER-W.csv           process,thread,syscall,calls,errors,eagain (SERVER: lt, et-jna,
#   bench-SERVER-W.json,            et-ffm; W: keepalive, short), echo-bench's report and the
#   counters-SERVER-W.txt           server's output (counters last), as exp-syscalls writes them
#   client-syscalls.csv             requests,syscall,calls,errors: strace -f -c of the serial client
#   tput-B-W-R.json, tput-B-W-R.log echo-bench's report and the server's output (counters last)
set -euo pipefail
NAME=ffi
EXP_PORT=${EXP_PORT:-29500}
source "$(dirname "${BASH_SOURCE[0]}")/strace.sh"
command -v jq >/dev/null || { echo "error: exp-ffi needs jq (Debian: apt-get install jq)" >&2; exit 1; }
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
ROUNDS=${ROUNDS:-1} DURATION=${DURATION:-3s} WARMUP=${WARMUP:-2s}
CMP_ROUNDS=${CMP_ROUNDS:-10} CMP_SLICE=${CMP_SLICE:-1s} CMP_WARMUP=${CMP_WARMUP:-2s} CONNECTIONS=${CONNECTIONS:-16} DEPTH=${DEPTH:-16}

WORK=$(mktemp -d "${TMPDIR:-/tmp}/niolab-ffi.XXXXXX")
trap 'strace_detach; stop_server; rm -rf "$WORK"' EXIT

BINDINGS=(jna) BINDING_OPTION=
if "$ROOT/bin/lab-server" et --help 2>/dev/null | grep -q -- '--binding'; then
  BINDING_OPTION=--binding
  [ "$JDK_FEATURE" -ge "$(catalog_field et-ffm min_jdk)" ] && BINDINGS+=(ffm)
else
  echo "exp-ffi: this build's et has no --binding: JNA only, no FFM rows" >&2
fi
echo "${BINDINGS[*]}" >"$RESULTS/bindings.txt"

# load PHASE: the machine's load averages as the phase starts, to judge its figures by.
echo "phase,load1,load5,load15" >"$RESULTS/load.csv"
load() {
  echo "$1,$(cut -d' ' -f1-3 /proc/loadavg | tr ' ' ,)" >>"$RESULTS/load.csv"
}

# Many short rounds, of which the report takes the fastest: on a shared CPU a round the
# scheduler interrupts only gets slower, and a round of a millisecond often runs undisturbed.
# C's rounds of 1,280 calls last about as long as JMH's 1 ms iterations.
echo "== per call: make bench-ffi"
load calls
CPU=$CLIENT_CPU RESULTS_DIR=$RESULTS/calls C_CALLS=${C_CALLS:-1280} C_ROUNDS=${C_ROUNDS:-400} \
  JMH_ARGS=${JMH_ARGS:-"-f 1 -wi 10 -w 500ms -i 400 -r 1ms"} bash scripts/bench-ffi.sh
# JMH's console log repeats jmh.json, whose raw figures are kept, compacted
rm "$RESULTS/calls/jmh.log"
jq -c . "$RESULTS/calls/jmh.json" >"$WORK/jmh.json" && mv "$WORK/jmh.json" "$RESULTS/calls/jmh.json"

# start SERVER [OPTIONS...]: lt, et-jna or et-ffm on EXP_PORT.
start() {
  local server=$1
  shift
  case $server in
    lt) start_server lt "$EXP_PORT" "$@" ;;
    et-*) start_server et "$EXP_PORT" ${BINDING_OPTION:+"$BINDING_OPTION" "${server#et-}"} "$@" ;;
  esac
}

echo "== per request: the event loops under strace"
load syscalls
SERVERS=(lt)
for b in "${BINDINGS[@]}"; do SERVERS+=("et-$b"); done
declare -A LOAD=([keepalive]="--keepalive -c 1 -n 2000" [short]="-n 500")
for server in "${SERVERS[@]}"; do
  for w in keepalive short; do
    start "$server"
    strace_attach "$SERVER_PID" "$WORK/trace"
    # shellcheck disable=SC2086
    echo_bench ${LOAD[$w]} --json "$RESULTS/bench-$server-$w.json" | grep -E '^(mean|errors)' || true
    strace_detach
    stop_keep_log "$RESULTS/counters-$server-$w.txt"
    { echo "process,thread,syscall,calls,errors,eagain"; strace_count "$WORK/trace" server; } >"$RESULTS/syscalls-$server-$w.csv"
    echo "$server $w: the event loop's calls"
    grep ',loop,' "$RESULTS/syscalls-$server-$w.csv" | cut -d, -f3,4 | sed 's/^/  /' || true
  done
done

echo "== per request: echo-bench's cold serial client under strace -f -c"
start_server lt "$EXP_PORT"
echo "requests,syscall,calls,errors" >"$RESULTS/client-syscalls.csv"
for n in 500 1000; do
  client_pin strace -f -c -o "$WORK/client" "$ROOT/bin/echo-bench" --cold-client --requests "$n" "127.0.0.1:$EXP_PORT" >/dev/null
  # strace -c's table: a row per syscall (requests,syscall,calls,errors), the total left out
  summarize strace --summary "$WORK/client" --process "$n" >>"$RESULTS/client-syscalls.csv"
done
stop_server quiet

declare -A WORK_ARGS=(
  [keepalive-echo]="--keepalive"
  [keepalive-ping]="--keepalive --protocol http"
  [pipeline-ping]="--pipeline $DEPTH --protocol http"
)
echo "== end to end: et on each binding, lt and C in one compare per workload"
load compare
CMP_SERVERS=()
for b in "${BINDINGS[@]}"; do CMP_SERVERS+=("et-$b:et ${BINDING_OPTION:+$BINDING_OPTION $b}"); done
# the catalog's references beside the bindings: lt, and C when it builds here
for s in $(selection ffi-references); do
  if [ "$(catalog_field "$s" arch)" = c ] && ! make -s reference >/dev/null 2>&1; then
    echo "exp-ffi: the C reference does not build here: no C row" >&2
    continue
  fi
  CMP_SERVERS+=("$s:$(server_words "$s")")
done
for w in keepalive-echo keepalive-ping pipeline-ping; do
  protocol=echo
  [ "$w" = keepalive-echo ] || protocol=http
  specs=()
  for spec in "${CMP_SERVERS[@]}"; do specs+=("$spec --protocol $protocol"); done
  # shellcheck disable=SC2086
  compare_servers "compare-$w.json" "${specs[@]}" -- ${WORK_ARGS[$w]} -c "$CONNECTIONS" --threads 1 --rounds "$CMP_ROUNDS" \
    --slice "$CMP_SLICE" --warmup "$CMP_WARMUP" --seed "$RANDOM"
done
printf 'cmp_rounds,cmp_slice,cmp_warmup\n%s,%s,%s\n' "$CMP_ROUNDS" "$CMP_SLICE" "$CMP_WARMUP" >"$RESULTS/settings.csv"

echo "== in CPU: et, ${BINDINGS[*]}, $ROUNDS interleaved rounds, for the counters"
load throughput
for r in $(seq "$ROUNDS"); do
  for w in keepalive-echo keepalive-ping pipeline-ping; do
    for i in "${!BINDINGS[@]}"; do
      b=${BINDINGS[$(((i + r) % ${#BINDINGS[@]}))]}
      protocol=echo
      [ "$w" = keepalive-echo ] || protocol=http
      start "et-$b" --protocol "$protocol"
      # shellcheck disable=SC2086
      echo_bench ${WORK_ARGS[$w]} -c "$CONNECTIONS" --duration "$DURATION" --warmup "$WARMUP" \
        --json "$RESULTS/tput-$b-$w-$r.json" | grep -E '^(mean|errors)' | sed "s/^/$b $w $r: /" || true
      stop_keep_log "$RESULTS/tput-$b-$w-$r.log"
    done
  done
done
load end
report
