#!/usr/bin/env bash
# exp-cold-start: how much of the short run (make run-bench: 100 serial short connections from a
# fresh echo-bench JVM to a fresh lt server JVM) is the JVMs starting cold. Six configurations,
# ROUNDS fresh server + client pairs each, interleaved (each round in a rotated order):
#   jdk17        server and client on JDK 17
#   jdk25        server and client on JDK 25
#   aot          server and client on JDK 25 with their AOT caches (make aot)
#   aot-client   JDK 25; only the client with its cache: what the server's cache does to the run
#   warm-server  JDK 25; the server first serves 20,000 serial requests from another client JVM
#   warm         JDK 25; the server warmed so, and the client warms itself by 20,000 (--warmup)
# then the time from exec (of bin/lab-server) to the ready line, and the CPU spent by then, for
# lt, and for mp with each worker count of MP_WORKERS on the server CPU and on every CPU, on
# JDK 17, JDK 25 and JDK 25 + AOT; then which classes lab-server (until ready) and echo-bench
# (one request) load, and from where. Server on CPU 0, clients on CPU 1.
# A short run that still exercises every step: ROUNDS=1 WARMUP=2000 MP_WORKERS=4.
#
# Writes to experiments/results/cold-start/:
#   serial-CONFIG-R.json   echo-bench's report of round R's 100 requests (server CPU included)
#   pairs.csv              config,round,client_wall_ms,load1,server_jit_ms: the client JVM from
#                          exec to exit; the CPU the server's JIT compiler threads used during
#                          the 100 requests (10 ms ticks)
#   ready.csv              server,workers,config,round,ready_ms,cpu_ms,load1 (cpu_ms: the server
#                          and its workers, from exec to the ready line, in 10 ms ticks)
#   classes.csv            app,config,classes,from_cache,from_jdk_image,from_jar,from_jar_picocli,generated
#                          (from_cache: the JDK's CDS archive, or the AOT cache; generated: lambdas, proxies)
#   aot.txt                the caches: size, the JDK they belong to, picocli's class file version
#   aot-skipped.csv        app,reason,classes,picocli: what each cache leaves out, and why
#   tmp/                   (not kept by git) the /proc samples, class+load logs and the lists of runs
#                          that `summarize runs` computes pairs.csv, ready.csv and classes.csv from
set -euo pipefail
NAME=cold-start
EXP_PORT=${EXP_PORT:-29400}
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
# 6 rounds: the fewest whose median interval reaches 95% (MedianInterval.MIN_ROUNDS); with fewer a claim takes no direction
ROUNDS=${ROUNDS:-6} REQUESTS=${REQUESTS:-100} WARMUP=${WARMUP:-20000}
# the mp pool sizes whose ready time is measured
MP_WORKERS=${MP_WORKERS:-1 2 4}

JDK25=$JAVA_HOME
JDK17=$(jdk_home_of 17)
if [ "$JDK_FEATURE" -lt 25 ] || [ -z "$JDK17" ]; then
  echo "error: exp-cold-start compares JDK 17 with JDK 25: it needs both (built on $JDK_LABEL; JDK 17: ${JDK17:-none})" >&2
  exit 1
fi
make -s aot
{
  du -b target/aot/lab-server.aot target/aot/echo-bench.aot | awk '{printf "%s %d bytes\n", $2, $1}'
  echo "jdk: $("$JDK25/bin/java" -version 2>&1 | sed -n 1p)"
  # a class file's major version is its bytes 6-7 (49: Java 5)
  echo "picocli class file version: $(unzip -p lab-servers/target/lab-servers.jar picocli/CommandLine.class \
    | od -An -j6 -N2 -tu1 | awk '{print $1 * 256 + $2}')"
} >"$RESULTS/aot.txt"
# the classes each training run loaded that its cache leaves out, by the JVM's reason (the
# training JVM's own lines: mp's workers, prefixed [wN], recorded for nothing)
echo "app,reason,classes,picocli" >"$RESULTS/aot-skipped.csv"
for app in lab-server echo-bench; do
  sed -n 's/^\[[0-9.]*s\]\[warning\]\[aot *\] Skipping \([^:]*\): \(.*\)$/\1,\2/p' "target/aot/$app-training.log" \
    | sort -u | awk -F, -v app="$app" '{ n[$2]++; if ($1 ~ /^picocli\//) p[$2]++ }
      END { for (r in n) printf "%s,%s,%d,%d\n", app, r, n[r], p[r] }' | sort >>"$RESULTS/aot-skipped.csv"
done

# with CONFIG SIDE CMD...: CMD, the server's or the client's side, with the JDK and cache of
# CONFIG (jdk17: JDK 17; aot: AOT=1; aot-client: AOT=1 for the client only; else JDK 25).
with() {
  local config=$1 side=$2
  shift 2
  case $config/$side in
    jdk17/*) JAVA_HOME=$JDK17 "$@" ;;
    aot/* | aot-client/client) AOT=1 "$@" ;;
    *) JAVA_HOME=$JDK25 "$@" ;;
  esac
}

TMP=$RESULTS/tmp
load1() {
  cut -d' ' -f1 /proc/loadavg
}

# pair CONFIG ROUND: a fresh server, (a warm-up), a fresh client's 100 requests, the server stopped;
# the server's /proc sampled around the client (jit_ms: its JIT compiler threads, "C1 CompilerThre"
# and "C2 CompilerThre", each kept by its TID as the JVM starts and stops them).
pair() {
  local config=$1 round=$2 load t0 t1 warm=()
  load=$(load1)
  with "$config" server start_server lt "$EXP_PORT"
  if [ "$config" = warm-server ] || [ "$config" = warm ]; then
    client_pin "$ROOT/bin/echo-bench" --requests "$WARMUP" "127.0.0.1:$EXP_PORT" >/dev/null || true
  fi
  [ "$config" = warm ] && warm=(--warmup "$WARMUP")
  proc_sample "$TMP/pairs-proc.txt" "$config-$round" "$SERVER_PID" process
  t0=$EPOCHREALTIME
  with "$config" client echo_bench "${warm[@]}" --requests "$REQUESTS" --json "$RESULTS/serial-$config-$round.json" \
    | grep -E '^(mean|errors)' || true
  t1=$EPOCHREALTIME
  proc_sample "$TMP/pairs-proc.txt" "$config-$round" "$SERVER_PID" process
  echo "$config,$round,$load,$t0,$t1,$config-$round" >>"$TMP/pairs-runs.csv"
  stop_keep_log "$RESULTS/server-$config-$round.log"
}

CONFIGS=(jdk17 jdk25 aot warm-server warm aot-client)
echo "config,round,load1,t0,t1,key" >"$TMP/pairs-runs.csv"
for r in $(seq "$ROUNDS"); do
  for i in "${!CONFIGS[@]}"; do
    config=${CONFIGS[$(((i + r) % ${#CONFIGS[@]}))]}
    echo "== round $r: $config"
    pair "$config" "$r"
  done
done
summarize runs "$TMP/pairs-runs.csv" --proc "$TMP/pairs-proc.txt" \
  --out config,round,client_wall_ms=elapsed_ms,load1,server_jit_ms=jit_ms >"$RESULTS/pairs.csv"

all_cpus=0-$(($(nproc) - 1))
# ready_row SERVER WORKERS CONFIG ROUND CPUS ARGS...: one start measured, one ready.csv row.
ready_row() {
  local server=$1 workers=$2 config=$3 round=$4 cpus=$5 load
  shift 5
  load=$(load1)
  with "$config" server ready_ms "$TMP/ready-proc.txt" "$server-$workers-$config-$round" "$cpus" "$@"
  echo "== round $round: $server ($workers) on $config ready"
  echo "$server,$workers,$config,$round,$load,$READY_T0,$READY_T1,$server-$workers-$config-$round" >>"$TMP/ready-runs.csv"
}

echo "server,workers,config,round,load1,t0,t1,key" >"$TMP/ready-runs.csv"
for r in $(seq "$ROUNDS"); do
  for config in jdk17 jdk25 aot; do
    ready_row lt 1 "$config" "$r" "$SERVER_CPU" lt
    for n in $MP_WORKERS; do
      ready_row mp "$n" "$config" "$r" "$SERVER_CPU" mp --workers "$n"
      ready_row mp-all-cpus "$n" "$config" "$r" "$all_cpus" mp --workers "$n"
    done
  done
done
summarize runs "$TMP/ready-runs.csv" --proc "$TMP/ready-proc.txt" \
  --out server,workers,config,round,ready_ms=elapsed_ms,cpu_ms,load1 >"$RESULTS/ready.csv"

# The classes lab-server loads until ready and echo-bench for one request, per config: one
# -Xlog:class+load log each (in tmp/), counted by summarize runs (classlog).
echo "app,config,classlog" >"$TMP/classes-runs.csv"
for config in jdk17 jdk25 aot; do
  # the log as it is at the ready line: what starting took, not stopping
  cp /dev/null "$TMP/classes-lab-server-$config.log"
  JAVA_OPTS="-Xlog:class+load=info:file=$TMP/classes-lab-server-$config.log" with "$config" server start_server lt "$EXP_PORT"
  cp "$TMP/classes-lab-server-$config.log" "$TMP/classes-lab-server-$config.ready.log"
  stop_server quiet
  start_server lt "$EXP_PORT"
  BENCH_JAVA_OPTS="-Xlog:class+load=info:file=$TMP/classes-echo-bench-$config.log" with "$config" client \
    "$ROOT/bin/echo-bench" --requests 1 "127.0.0.1:$EXP_PORT" >/dev/null
  stop_server quiet
  echo "lab-server,$config,classes-lab-server-$config.ready.log" >>"$TMP/classes-runs.csv"
  echo "echo-bench,$config,classes-echo-bench-$config.log" >>"$TMP/classes-runs.csv"
done
summarize runs "$TMP/classes-runs.csv" --out app,config,classes,from_cache,from_jdk_image,from_jar,from_jar_picocli,generated \
  >"$RESULTS/classes.csv"
report
