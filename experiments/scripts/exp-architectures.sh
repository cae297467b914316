#!/usr/bin/env bash
# exp-architectures: every server side by side, with the same clients, pinned as the other
# experiments (server on SERVER_CPU, client on CLIENT_CPU). Three phases:
#   1. ready: ROUNDS fresh starts of each server, the ms from exec to its ready line;
#   2. idle: a fresh server per SERVERS entry holding IDLE_CONNECTIONS (10,000) connections
#      that send nothing; its VmRSS once they are all open;
#   3. rounds: every server up twice (echo and HTTP), a warm-up each, then ROUNDS interleaved
#      rounds through every server and measure: keep-alive echo at LEVELS connections (echo-bench),
#      serial short connections (echo-bench), keep-alive /ping and pipelined /ping x DEPTH at
#      CONNECTIONS connections (wrk); around each client run, the server's CPU ticks and
#      context switches from /proc.
# Loops, workers and pinning scale with the cores found: on 4 or more, the server gets the first
# half of them and the client the rest (CLIENT_THREADS threads), and --loops / mp's workers
# one per server core, at least 2 (LOOPS); on 2 cores, server on CPU 0, client on CPU 1. About 20
# minutes with the defaults (DURATION=3s ROUNDS=3). Env knobs: DURATION, ROUNDS, SERVERS, LEVELS,
# LOOPS, C10K_DURATION (6s: the runs at 5000 connections or more, which begin by opening them
# all, a few seconds on a busy core; no warm-up there), WARMUP (2s), EB_WARMUP (1s: echo-bench's
# own warm-up before each echo run), IDLE_CONNECTIONS (10000), CONNECTIONS (50), DEPTH (16).
#
# Writes to experiments/results/architectures/:
#   settings.csv               key,value: the knobs of this run, and the 1-minute load average
#                              at its start and end (other work on the machine shows there)
#   ready.csv                  server,round,ready_ms
#   idle.csv                   server,connections,failed,rss_kb: at IDLE_CONNECTIONS idle connections
#   proc.csv                   server,measure,round,cpu_ticks,voluntary,nonvoluntary: deltas over a client run
#   wrk.csv                    server,measure,round,requests,requests_per_s,errors
#   raw/SERVER-MEASURE-rR.json echo-bench's report of an echo run
#   raw/wrk-SERVER-MEASURE-rR.txt, raw/server-SERVER-PROTOCOL.log and raw/server-idle-SERVER.log
#                              (the servers' output, counters last)
#   tmp/                       (not kept by git) the /proc samples and the lists of runs that
#                              `summarize runs` computes ready.csv, idle.csv, proc.csv and wrk.csv from
set -euo pipefail
NAME=architectures
EXP_PORT=${EXP_PORT:-29600}
HALF=$(($(nproc) / 2))
if [ "$HALF" -ge 2 ]; then
  export SERVER_CPU=${SERVER_CPU-0-$((HALF - 1))} CLIENT_CPU=${CLIENT_CPU-$HALF-$(($(nproc) - 1))}
fi
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
DURATION=${DURATION:-3s} ROUNDS=${ROUNDS:-3} WARMUP=${WARMUP:-2s} EB_WARMUP=${EB_WARMUP:-1s}
LEVELS=${LEVELS:-1 50 1000 10000} C10K_DURATION=${C10K_DURATION:-6s} IDLE_CONNECTIONS=${IDLE_CONNECTIONS:-10000}
CONNECTIONS=${CONNECTIONS:-50} DEPTH=${DEPTH:-16}
LOOPS=${LOOPS:-$((HALF > 2 ? HALF : 2))} CLIENT_THREADS=${CLIENT_THREADS:-$((HALF > 1 ? HALF : 1))}
export WORKERS=$LOOPS
SERVERS=${SERVERS:-"lt et et-ffm vt lt-loops et-loops mp netty-nio netty-epoll netty-http c"}
# vt needs JDK 21 and et --binding ffm JDK 22: a build on an older JDK runs without them
kept=
for s in $SERVERS; do
  case $s in vt) need=21 ;; et-ffm) need=22 ;; *) need=0 ;; esac
  if [ "$JDK_FEATURE" -ge "$need" ]; then kept="$kept $s"; else echo "note: $s needs JDK $need (built on $JDK_LABEL): left out" >&2; fi
done
SERVERS=${kept# }
# the accept queue as deep as the kernel allows, so that 10,000 connects do not overflow it
BACKLOG=$(cat /proc/sys/net/core/somaxconn)

command -v wrk >/dev/null || { echo "error: exp-architectures needs wrk (Debian: apt-get install wrk)" >&2; exit 1; }
make -s reference
# 10,000 connections need as many descriptors on each side; servers and clients inherit this
hard=$(ulimit -Hn)
if [ "$hard" = unlimited ] || [ "$hard" -gt 20000 ]; then ulimit -Sn 20000; else ulimit -Sn "$hard"; fi

# server_args NAME: the lab-server words of a server of this experiment (mp's --workers come from
# start_server, WORKERS).
server_args() {
  case $1 in
    et-ffm) echo "et --binding ffm" ;;
    lt-loops) echo "lt --loops $LOOPS" ;;
    et-loops) echo "et --loops $LOOPS" ;;
    *) echo "$1" ;;
  esac
}

# start_named NAME PORT [OPTIONS...]: start_server for a server of this experiment.
start_named() {
  local words
  read -ra words <<<"$(server_args "$1")"
  start_server "${words[0]}" "$2" "${words[@]:1}" "${@:3}"
}

# speaks NAME PROTOCOL: whether the server serves PROTOCOL (netty-http is HTTP only).
speaks() {
  [ "$1" != netty-http ] || [ "$2" = http ]
}

# first_protocol NAME: echo, or http for a server that speaks only HTTP.
first_protocol() {
  if speaks "$1" echo; then echo echo; else echo http; fi
}

{
  echo "key,value"
  echo "duration,$DURATION"
  echo "rounds,$ROUNDS"
  echo "warmup,$WARMUP"
  echo "eb_warmup,$EB_WARMUP"
  echo "levels,$LEVELS"
  echo "c10k_duration,$C10K_DURATION"
  echo "idle_connections,$IDLE_CONNECTIONS"
  echo "connections,$CONNECTIONS"
  echo "depth,$DEPTH"
  echo "loops,$LOOPS"
  echo "client_threads,$CLIENT_THREADS"
  echo "servers,$SERVERS"
  echo "backlog,$BACKLOG"
  echo "nofile,$(ulimit -Sn)"
  echo "load_at_start,$(cut -d' ' -f1 /proc/loadavg)"
} >"$RESULTS/settings.csv"
mkdir -p "$RESULTS/raw"

TMP=$RESULTS/tmp
# 1. exec to ready, interleaved
echo "server,round,t0,t1" >"$TMP/ready-runs.csv"
for r in $(seq "$ROUNDS"); do
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

# 3. the rounds: every server up, in both protocols, each on its own port
declare -A PID LOG PORT
stop_all() {
  local key
  for key in "${!PID[@]}"; do
    SERVER_PID=${PID[$key]} SERVER_LOG=${LOG[$key]}
    stop_keep_log "$RESULTS/raw/server-$key.log"
    unset "PID[$key]"
  done
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

# wrk_ping PORT DURATION MODE: wrk against /ping, keep-alive or pipelined (DEPTH requests per write).
wrk_ping() {
  local pipeline=()
  [ "$3" = pipeline ] && pipeline=(-s "$ROOT/scripts/wrk-pipeline.lua" -- "$DEPTH")
  client_pin wrk -t"$CLIENT_THREADS" -c"$CONNECTIONS" -d"$2" "http://127.0.0.1:$1/ping" "${pipeline[@]}"
}

for s in $SERVERS; do
  if speaks "$s" echo; then
    client_pin "$ROOT/bin/echo-bench" --keepalive -c "$CONNECTIONS" --threads "$CLIENT_THREADS" --duration "$WARMUP" \
      --max-error-rate 1 "127.0.0.1:${PORT[$s-echo]}" >/dev/null || true
  fi
  wrk_ping "${PORT[$s-http]}" "$WARMUP" keepalive >/dev/null
  wrk_ping "${PORT[$s-http]}" "$WARMUP" pipeline >/dev/null
done

# measure SERVER MEASURE ROUND: one client run, the server's /proc sampled around it.
measure() {
  local s=$1 m=$2 r=$3 key pid tag=$1-$2-r$3 wrk= c duration warmup
  case $m in ping-*) key=$s-http ;; *) key=$s-echo ;; esac
  pid=${PID[$key]}
  proc_sample "$TMP/proc.txt" "$tag" "$pid" tree
  case $m in
    echo-ka-*)
      c=${m#echo-ka-} duration=$DURATION warmup=$EB_WARMUP
      # a warm-up would spend its time opening the connections, then close them all
      [ "$c" -ge 5000 ] && duration=$C10K_DURATION warmup=0
      SERVER_PID=$pid EXP_PORT=${PORT[$key]} echo_bench --keepalive -c "$c" --threads $((c < CLIENT_THREADS ? c : CLIENT_THREADS)) --duration "$duration" \
        --warmup "$warmup" --json "$RESULTS/raw/$s-$m-r$r.json" >/dev/null ;;
    echo-short)
      SERVER_PID=$pid EXP_PORT=${PORT[$key]} echo_bench --duration "$DURATION" --warmup "$EB_WARMUP" \
        --json "$RESULTS/raw/$s-$m-r$r.json" >/dev/null ;;
    ping-*)
      wrk=../raw/wrk-$tag.txt
      wrk_ping "${PORT[$key]}" "$DURATION" "${m#ping-}" >"$TMP/$wrk" ;;
  esac
  proc_sample "$TMP/proc.txt" "$tag" "$pid" tree
  echo "$s,$m,$r,$tag,$wrk" >>"$TMP/runs.csv"
}

echo "server,measure,round,key,wrk" >"$TMP/runs.csv"
for r in $(seq "$ROUNDS"); do
  for s in $SERVERS; do
    measures=
    if speaks "$s" echo; then
      for c in $LEVELS; do measures="$measures echo-ka-$c"; done
      measures="$measures echo-short"
    fi
    measures="$measures ping-keepalive ping-pipeline"
    for m in $measures; do measure "$s" "$m" "$r"; done
    echo "== round $r: $s done"
  done
done
stop_all
summarize runs "$TMP/runs.csv" --proc "$TMP/proc.txt" --out server,measure,round,cpu_ticks,voluntary,nonvoluntary >"$RESULTS/proc.csv"
grep -v ',$' "$TMP/runs.csv" >"$TMP/wrk-runs.csv"
summarize runs "$TMP/wrk-runs.csv" --out server,measure,round,requests,requests_per_s,errors >"$RESULTS/wrk.csv"
echo "load_at_end,$(cut -d' ' -f1 /proc/loadavg)" >>"$RESULTS/settings.csv"
report
echo "results: $RESULTS; report: $ROOT/experiments/exp-$NAME.md"
