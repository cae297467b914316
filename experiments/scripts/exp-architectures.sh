#!/usr/bin/env bash
# exp-architectures: every server side by side, with the same clients, pinned as the other
# experiments (server on SERVER_CPU, client on CLIENT_CPU). Three phases:
#   1. ready: READY_ROUNDS fresh starts of each server, the ms from exec to its ready line;
#   2. idle: a fresh server per SERVERS entry holding IDLE_CONNECTIONS (10,000) connections
#      that send nothing; its VmRSS once they are all open;
#   3. comparisons: every server up twice (echo and HTTP), then one `echo-bench compare` per
#      measure over every server that speaks it, lt first by default: ROUNDS rounds of SLICE
#      slices, each round in a fresh random order, a WARMUP per server first; keep-alive echo at
#      LEVELS connections, serial short connections (echo-bench's engine), keep-alive /ping and
#      pipelined /ping x DEPTH at CONNECTIONS connections (--load wrk). The levels of 5000
#      connections or more run C10K_ROUNDS rounds of C10K_SLICE slices without warm-up (each
#      slice begins by opening all its connections, a few seconds on a busy core). Around each
#      compare run, the servers' context switches from /proc.
# Loops, workers and pinning scale with the cores found: on 4 or more, the server gets the first
# half of them and the client the rest (CLIENT_THREADS threads), and --loops / mp's workers
# one per server core, at least 2 (LOOPS); on 2 cores, server on CPU 0, client on CPU 1.
# The load with the defaults on 2 cores (11 servers, 10 of them echo): slices of
# (3 levels + short) x 10 servers x 10 rounds x 1 s + 2 /ping measures x 11 x 10 x 1 s
# + 10 x 8 rounds x 4 s at 10,000 connections = 940 s, warm-ups 62 x 1 s; besides, 55 ready
# starts, 11 idle runs of 10,000 connects, 21 server JVMs and the noise floor.
# compare gives an interval from 6 rounds on: ROUNDS and C10K_ROUNDS at least 6. A smoke run:
# ROUNDS=8 C10K_ROUNDS=8 C10K_SLICE=3s LEVELS="1 50 10000" IDLE_CONNECTIONS=2000 SERVERS="lt et c".
# EXP_PORT (29600) and the ports after it must lie below the ephemeral port range.
# Env knobs: ROUNDS (10), SLICE (1s), WARMUP (1s), C10K_ROUNDS (8), C10K_SLICE (4s), READY_ROUNDS (5),
# SERVERS, LEVELS, LOOPS, IDLE_CONNECTIONS (10000), CONNECTIONS (50), DEPTH (16), FORKS, RESULTS_DIR.
#
# FORKS=F: phases 1 and 2 as above; in phase 3 each measure's compare starts its servers itself,
# afresh in each of F forks (the servers as commands, pinned as above), ROUNDS (C10K_ROUNDS) rounds
# per fork, so that each ratio's interval spans fresh processes; then every server up twice as
# above, and around a two-round compare per measure on them (raw/proc-compare-MEASURE.json) the
# context switches from /proc, what proc.csv needs a long-lived server for. In 3 forks of 3
# rounds (C10K_ROUNDS 3) on 2 cores: 3 forks x ((3 levels + short) x 10 x (3 rounds + 1 s of
# warm-up) + 2 x 11 x 4 + 10 x 3 x 4 s) = 1104 s, 570 server starts of a second or two, and the
# two-round pass (7 measures). A smoke run in forks: FORKS=2 ROUNDS=3 C10K_ROUNDS=3
# C10K_SLICE=2s LEVELS="1 50 2000" IDLE_CONNECTIONS=500 READY_ROUNDS=1 SERVERS="lt et vt c" NOISE=0
# RESULTS_DIR=/tmp/exp-architectures.
#
# Writes to experiments/results/architectures/:
#   settings.csv               key,value: the knobs of this run, and the 1-minute load average
#                              at its start and end (other work on the machine shows there)
#   ready.csv                  server,round,ready_ms
#   idle.csv                   server,connections,failed,rss_kb: at IDLE_CONNECTIONS idle connections
#   compare-MEASURE.json       echo-bench compare's every slice and summary (measures: echo-ka-LEVEL,
#                              echo-short, ping-keepalive, ping-pipeline)
#   proc.csv                   server,measure,cpu_ticks,voluntary,nonvoluntary: deltas over a compare run
#   raw/compare-MEASURE.txt, raw/server-SERVER-PROTOCOL.log and raw/server-idle-SERVER.log
#                              (compare's text; the servers' output, counters last)
#   tmp/                       (not kept by git) the /proc samples and the lists of runs that
#                              `summarize runs` computes ready.csv, idle.csv and proc.csv from
set -euo pipefail
NAME=architectures
EXP_PORT=${EXP_PORT:-29600}
HALF=$(($(nproc) / 2))
if [ "$HALF" -ge 2 ]; then
  export SERVER_CPU=${SERVER_CPU-0-$((HALF - 1))} CLIENT_CPU=${CLIENT_CPU-$HALF-$(($(nproc) - 1))}
fi
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
ROUNDS=${ROUNDS:-10} SLICE=${SLICE:-1s} WARMUP=${WARMUP:-1s} READY_ROUNDS=${READY_ROUNDS:-5}
LEVELS=${LEVELS:-1 50 1000 10000} C10K_ROUNDS=${C10K_ROUNDS:-8} C10K_SLICE=${C10K_SLICE:-4s}
IDLE_CONNECTIONS=${IDLE_CONNECTIONS:-10000}
CONNECTIONS=${CONNECTIONS:-50} DEPTH=${DEPTH:-16}
LOOPS=${LOOPS:-$((HALF > 2 ? HALF : 2))} CLIENT_THREADS=${CLIENT_THREADS:-$((HALF > 1 ? HALF : 1))}
export WORKERS=$LOOPS
SERVERS=${SERVERS:-$(selection architectures)}
# a server that needs a newer JDK than the build's (the catalog's min_jdk: vt, et --binding ffm) is left out
kept=
for s in $SERVERS; do
  need=$(catalog_field "$s" min_jdk)
  if [ "$JDK_FEATURE" -ge "$need" ]; then kept="$kept $s"; else echo "note: $s needs JDK $need (built on $JDK_LABEL): left out" >&2; fi
done
SERVERS=${kept# }
# a server port inside the ephemeral range can be taken by any connect on the host, the idle
# phase's own thousands among them, and the next server's bind then fails: warn before starting
read -r eph_low eph_high </proc/sys/net/ipv4/ip_local_port_range
if [ $((EXP_PORT + 2 * $(wc -w <<<"$SERVERS"))) -ge "$eph_low" ] && [ "$EXP_PORT" -le "$eph_high" ]; then
  echo "warning: EXP_PORT $EXP_PORT is inside the ephemeral port range ($eph_low-$eph_high): a server may find its port taken" >&2
fi
# the accept queue as deep as the kernel allows, so that 10,000 connects do not overflow it
BACKLOG=$(cat /proc/sys/net/core/somaxconn)

command -v wrk >/dev/null || { echo "error: exp-architectures needs wrk (Debian: apt-get install wrk)" >&2; exit 1; }
make -s reference
# 10,000 connections need as many descriptors on each side; servers and clients inherit this
hard=$(ulimit -Hn)
if [ "$hard" = unlimited ] || [ "$hard" -gt 20000 ]; then ulimit -Sn 20000; else ulimit -Sn "$hard"; fi

# server_args NAME: the lab-server words of a server of this experiment, from the catalog, its
# loops LOOPS (mp's --workers come from start_server, WORKERS).
server_args() {
  server_words "$1" "$LOOPS"
}

# start_named NAME PORT [OPTIONS...]: start_server for a server of this experiment.
start_named() {
  local words
  read -ra words <<<"$(server_args "$1")"
  start_server "${words[0]}" "$2" "${words[@]:1}" "${@:3}"
}

# speaks NAME PROTOCOL: whether the server serves PROTOCOL (the catalog's http_only: netty-http).
speaks() {
  [ "$(catalog_field "$1" http_only)" = false ] || [ "$2" = http ]
}

# first_protocol NAME: echo, or http for a server that speaks only HTTP.
first_protocol() {
  if speaks "$1" echo; then echo echo; else echo http; fi
}

{
  echo "key,value"
  echo "design,compare"
  echo "slice,$SLICE"
  echo "rounds,$ROUNDS"
  echo "warmup,$WARMUP"
  echo "c10k_slice,$C10K_SLICE"
  echo "c10k_rounds,$C10K_ROUNDS"
  echo "ready_rounds,$READY_ROUNDS"
  echo "levels,$LEVELS"
  echo "idle_connections,$IDLE_CONNECTIONS"
  echo "connections,$CONNECTIONS"
  echo "depth,$DEPTH"
  echo "loops,$LOOPS"
  echo "client_threads,$CLIENT_THREADS"
  echo "servers,$SERVERS"
  echo "backlog,$BACKLOG"
  echo "nofile,$(ulimit -Sn)"
  echo "load_at_start,$(cut -d' ' -f1 /proc/loadavg)"
  [ -z "${FORKS:-}" ] || echo "forks,$FORKS"
} >"$RESULTS/settings.csv"
mkdir -p "$RESULTS/raw"

TMP=$RESULTS/tmp
# 1. exec to ready, interleaved
echo "server,round,t0,t1" >"$TMP/ready-runs.csv"
for r in $(seq "$READY_ROUNDS"); do
  for s in $SERVERS; do
    workers=()
    [ "$s" = mp ] && workers=(--workers "$WORKERS")
    # shellcheck disable=SC2046
    ready_ms "$TMP/ready-proc.txt" "$s-r$r" "$SERVER_CPU" $(server_args "$s") "${workers[@]}" --protocol "$(first_protocol "$s")"
    echo "== round $r: $s ready"
    echo "$s,$r,$READY_T0,$READY_T1" >>"$TMP/ready-runs.csv"
  done
done
summarize runs "$TMP/ready-runs.csv" --out server,round,ready_ms=elapsed_ms >"$RESULTS/ready.csv"

# established PORT: the established connections to PORT on this host.
established() {
  ss -Htn state established "( sport = :$1 )" | wc -l
}

# hold_idle N PORT SECONDS: opens N connections to PORT, one blocking connect after the other
# (bash's /dev/tcp), prints how many failed, then holds them open, silent, for SECONDS (or until
# killed: the exec'd sleep keeps this PID and inherits the connections).
hold_idle() {
  local i fd failed=0
  for ((i = 0; i < $1; i++)); do
    # shellcheck disable=SC2034 # each descriptor stays open, unused: holding it is the point
    { exec {fd}<>"/dev/tcp/127.0.0.1/$2"; } 2>/dev/null || failed=$((failed + 1))
  done
  echo "$failed"
  exec sleep "$3"
}

# 2. memory at IDLE_CONNECTIONS idle connections: a fresh server each (in its first protocol:
# silent connections never tell), its VmRSS once they are all open and have been idle for a second
echo "server,connections,failed,key" >"$TMP/idle-runs.csv"
failed_file=$(mktemp "${TMPDIR:-/tmp}/niolab-idle.XXXXXX")
for s in $SERVERS; do
  start_named "$s" "$EXP_PORT" --protocol "$(first_protocol "$s")" --backlog "$BACKLOG"
  : >"$failed_file"
  hold_idle "$IDLE_CONNECTIONS" "$EXP_PORT" 120 >"$failed_file" &
  holder=$!
  [ -n "$CLIENT_CPU" ] && taskset -cp "$CLIENT_CPU" "$holder" >/dev/null
  for _ in $(seq 1200); do
    [ -s "$failed_file" ] && break
    sleep 0.1
  done
  sleep 1
  held=$(established "$EXP_PORT")
  proc_sample "$TMP/idle-proc.txt" "$s" "$SERVER_PID" tree
  echo "$s,$held,$(cat "$failed_file"),$s" >>"$TMP/idle-runs.csv"
  echo "== $s: $held idle connections"
  kill "$holder" 2>/dev/null || true
  wait "$holder" 2>/dev/null || true
  stop_keep_log "$RESULTS/raw/server-idle-$s.log"
done
rm -f "$failed_file"
summarize runs "$TMP/idle-runs.csv" --proc "$TMP/idle-proc.txt" --out server,connections,failed,rss_kb >"$RESULTS/idle.csv"

# measures FUNCTION: FUNCTION MEASURE COMPARE-OPTIONS... for every measure of phase 3, each with
# PASS_ROUNDS rounds where set (the two-round /proc pass of a run in forks: compare takes at least 2), else its own.
measures() {
  local c threads http
  for c in $LEVELS; do
    threads=$((c < CLIENT_THREADS ? c : CLIENT_THREADS))
    if [ "$c" -ge 5000 ]; then
      # each slice begins by opening all its connections; a warm-up would only do the same
      "$1" "echo-ka-$c" -c "$c" -k --threads "$threads" --rounds "${PASS_ROUNDS:-$C10K_ROUNDS}" --slice "$C10K_SLICE" --warmup 0
    else
      "$1" "echo-ka-$c" -c "$c" -k --threads "$threads" --rounds "${PASS_ROUNDS:-$ROUNDS}" --slice "$SLICE" --warmup "$WARMUP"
    fi
  done
  "$1" echo-short --rounds "${PASS_ROUNDS:-$ROUNDS}" --slice "$SLICE" --warmup "$WARMUP"
  http=(--load wrk --protocol http -c "$CONNECTIONS" -k --threads "$CLIENT_THREADS" --rounds "${PASS_ROUNDS:-$ROUNDS}" --slice "$SLICE" --warmup "$WARMUP")
  "$1" ping-keepalive "${http[@]}"
  "$1" ping-pipeline "${http[@]}" --pipeline "$DEPTH" --wrk-script "$ROOT/scripts/wrk-pipeline.lua"
}

# protocol_of MEASURE: the protocol its servers speak.
protocol_of() {
  case $1 in ping-*) echo http ;; *) echo echo ;; esac
}

# 3a. with FORKS: the comparisons, fresh servers in every fork (compare starts and stops them)
compare_forked() {
  local m=$1 s protocol targets=() words
  shift
  protocol=$(protocol_of "$m")
  for s in $SERVERS; do
    speaks "$s" "$protocol" || continue
    read -ra words <<<"$(server_args "$s")"
    targets+=("$s=$(server_command "${words[@]}" --protocol "$protocol" --backlog "$BACKLOG")")
  done
  echo "== $m: ${#targets[@]} servers in $FORKS forks"
  client_pin "$ROOT/bin/echo-bench" compare "${FORK_ARGS[@]}" "$@" --seed "$RANDOM$RANDOM" --json "$RESULTS/compare-$m.json" \
    "${targets[@]}" >"$RESULTS/raw/compare-$m.txt" 2>&1 || echo "warning: compare $m exited non-zero (see raw/compare-$m.txt)" >&2
}
[ -z "${FORKS:-}" ] || measures compare_forked

# 3. the comparisons (with FORKS: the /proc pass): every server up, in both protocols, each on its own port
declare -A PID LOG PORT
stop_all() {
  stop_servers "$RESULTS/raw/server-@.log"
}
trap stop_all EXIT
i=1
for s in $SERVERS; do
  for protocol in echo http; do
    speaks "$s" "$protocol" || continue
    key=$s-$protocol
    PORT[$key]=$((EXP_PORT + i))
    i=$((i + 1))
    start_named "$s" "${PORT[$key]}" --protocol "$protocol" --backlog "$BACKLOG"
    PID[$key]=$SERVER_PID LOG[$key]=$SERVER_LOG
    SERVER_PID='' SERVER_LOG=''
  done
done

# compare MEASURE ARGS...: one `echo-bench compare` run over every server of MEASURE, in SERVERS'
# order (compare's own summary takes the first, lt by default, as its baseline; the report pairs
# each server with lt from the slices), each with its pid (CPU per request); the servers' context
# switches sampled from /proc around the whole run (its warm-up included). With FORKS its JSON is
# raw/proc-compare-MEASURE.json, the requests those switches divide by.
compare() {
  local m=$1 key s protocol targets=() json=$RESULTS/compare-$1.json txt=$RESULTS/raw/compare-$1.txt
  shift
  protocol=$(protocol_of "$m")
  [ -z "${FORKS:-}" ] || json=$RESULTS/raw/proc-compare-$m.json txt=$RESULTS/raw/proc-compare-$m.txt
  for s in $SERVERS; do
    speaks "$s" "$protocol" || continue
    key=$s-$protocol
    targets+=("$s=127.0.0.1:${PORT[$key]},pid=${PID[$key]}")
    proc_sample "$TMP/proc.txt" "$s-$m" "${PID[$key]}" tree
  done
  echo "== $m: ${#targets[@]} servers"
  client_pin "$ROOT/bin/echo-bench" compare "$@" --seed "$RANDOM$RANDOM" --json "$json" "${targets[@]}" \
    >"$txt" 2>&1 || echo "warning: compare $m exited non-zero (see ${txt#"$RESULTS/"})" >&2
  for s in $SERVERS; do
    speaks "$s" "$protocol" || continue
    proc_sample "$TMP/proc.txt" "$s-$m" "${PID[$s-$protocol]}" tree
    echo "$s,$m,$s-$m" >>"$TMP/runs.csv"
  done
}

echo "server,measure,key" >"$TMP/runs.csv"
if [ -n "${FORKS:-}" ]; then PASS_ROUNDS=2 measures compare; else measures compare; fi
stop_all
summarize runs "$TMP/runs.csv" --proc "$TMP/proc.txt" --out server,measure,cpu_ticks,voluntary,nonvoluntary >"$RESULTS/proc.csv"
echo "load_at_end,$(cut -d' ' -f1 /proc/loadavg)" >>"$RESULTS/settings.csv"
report
echo "results: $RESULTS; report: $ROOT/experiments/exp-$NAME.md"
