#!/usr/bin/env bash
# exp-uring: the uring server in its modes basic, multishot and bufring beside et, lt, the C
# reference and, when it is built, Netty's io_uring transport (netty-uring): keep-alive echo at
# 1, 50 and 1000 connections and pipelined HTTP /ping (50 connections, depth 16). Two parts:
#   1. the comparison, per workload: one `echo-bench compare` of every server (et first, the
#      baseline), CMP_ROUNDS rounds of CMP_SLICE slices, each round in a fresh random order,
#      after CMP_WARMUP of load per server: rate, p99 and server CPU per request (/proc, the
#      whole process) per slice, and each server's per-round ratios to et with 95%
#      intervals (compare-WORKLOAD.json, and its printout compare-WORKLOAD.txt);
#   2. the mechanism, per cell: a fresh server on CPU 0, echo-bench on CPU 1 (one thread):
#      WARMUP, then DURATION measured, ROUNDS rounds: syscalls per request (the server's own
#      counters: io_uring_enter calls; epoll_wait, read, send and accept calls for et), SQEs per
#      request, completions per io_uring_enter, context switches per request
#      (/proc/PID/task/*/status), and the loop thread's CPU, user and system (the JIT's
#      compiler threads share the core and are still busy for seconds after a start). These
#      are counts, not the comparison: the claims come from part 1.
# Needs the catalog's min_jdk of uring, 22+ (JAVA_HOME). Part 1, per workload: seven starts, 2 s of warm-up each and 10
# rounds of seven 1 s slices. A smoke run of every step: CMP_ROUNDS=8 CMP_SLICE=0.25s
# CMP_WARMUP=0.5s WARMUP=0.3s DURATION=0.3s NOISE=0 (the server starts dominate it).
# The /proc samples and the list of runs that `summarize runs` computes samples.csv from go to
# tmp/ (not kept by git); summary.csv holds part 2's medians (`summarize medians`).
set -euo pipefail
NAME=uring
# The JDK the jars were built on (or JAVA_HOME) against the catalog's min_jdk of uring, checked
# before common.sh clears the results.
make -s -C "$(dirname "${BASH_SOURCE[0]}")/../.." all >/dev/null
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"
NEED_JDK=$(catalog_field uring min_jdk)
if [ "$JDK_FEATURE" -lt "$NEED_JDK" ]; then
  echo "error: exp-uring needs JDK $NEED_JDK or newer (built on $JDK_LABEL): JAVA_HOME=/path/to/jdk-$NEED_JDK+ make clean exp-uring" >&2
  exit 2
fi
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
WARMUP=${WARMUP:-1s}
DURATION=${DURATION:-1s}
ROUNDS=${ROUNDS:-1}
CMP_ROUNDS=${CMP_ROUNDS:-10}
CMP_SLICE=${CMP_SLICE:-1s}
CMP_WARMUP=${CMP_WARMUP:-2s}
WORKLOADS=${WORKLOADS:-"echo-1 echo-50 echo-1000 http-pipeline"}
SERVERS=${SERVERS:-$(selection uring)}
# part 1's servers: et first (the baseline of every ratio), then the other readiness servers
CMP_SERVERS=${CMP_SERVERS:-$(selection uring-compare)}
mkdir -p "$RESULTS/raw"

# What this kernel's io_uring offers (the jar must have been built on JDK 22+ to know).
if ! java --enable-native-access=ALL-UNNAMED -cp lab-servers/target/lab-servers.jar niolab.uring.UringSupport \
    >"$RESULTS/uring-support.txt" 2>&1; then
  echo "error: io_uring is not usable here, or lab-servers was built on an older JDK (then: make clean all):" >&2
  sed 's/^/  /' "$RESULTS/uring-support.txt" >&2
  exit 1
fi
uname -r >"$RESULTS/kernel.txt"
: >"$RESULTS/notes.txt"
if [[ " $SERVERS " == *" netty-uring "* ]] && ! bin/lab-server netty-uring --help 2>&1 | grep -q '^Usage: lab-server netty-uring'; then
  echo "netty-uring: not in this build of netty-peers; skipped" | tee -a "$RESULTS/notes.txt"
  SERVERS=${SERVERS/netty-uring/}
  CMP_SERVERS=${CMP_SERVERS/netty-uring/}
fi
if [[ " $CMP_SERVERS " == *" c "* ]] && ! make -s reference >/dev/null 2>&1; then
  echo "c: the C reference does not build here (make reference); skipped" | tee -a "$RESULTS/notes.txt"
  CMP_SERVERS=${CMP_SERVERS/ c / }
fi

# server_command SERVER WORKLOAD: the lab-server arguments after the port.
server_command() {
  local protocol=echo
  [[ $2 == http-* ]] && protocol=http
  echo "$(server_words "$1") --protocol $protocol"
}

# load_args WORKLOAD: echo-bench's options for it.
load_args() {
  case $1 in
    echo-*) echo "--keepalive -c ${1#echo-}" ;;
    http-pipeline) echo "--protocol http -c 50 --pipeline 16" ;;
  esac
}

TMP=$RESULTS/tmp

printf 'warmup,duration,rounds,cmp_rounds,cmp_slice,cmp_warmup\n%s,%s,%s,%s,%s,%s\n' "$WARMUP" "$DURATION" "$ROUNDS" \
  "$CMP_ROUNDS" "$CMP_SLICE" "$CMP_WARMUP" >"$RESULTS/settings.csv"

# Part 1: every server in one compare per workload, so that each ratio to et is paired by round.
for w in $WORKLOADS; do
  specs=()
  for s in $CMP_SERVERS; do specs+=("$s:$(server_command "$s" "$w")"); done
  # shellcheck disable=SC2046
  compare_servers "compare-$w.json" "${specs[@]}" -- $(load_args "$w") --threads 1 --rounds "$CMP_ROUNDS" \
    --slice "$CMP_SLICE" --warmup "$CMP_WARMUP" --seed "$RANDOM"
done

# Part 2: the mechanism's counts, one server at a time.
samples=$RESULTS/samples.csv
echo "round,server,workload,key,loop_thread,echo_bench,echo_bench_warmup,log" >"$TMP/runs.csv"
for round in $(seq "$ROUNDS"); do
  for w in $WORKLOADS; do
    for s in $SERVERS; do
      tag=$s-$w-r$round
      read -r -a cmd <<<"$(server_command "$s" "$w")"
      start_server "${cmd[0]}" "$EXP_PORT" "${cmd[@]:1}"
      # shellcheck disable=SC2046
      echo_bench $(load_args "$w") --threads 1 --duration "$WARMUP" --max-error-rate 1 --csv "$RESULTS/raw/$tag-warmup.csv" >/dev/null
      proc_sample "$TMP/proc.txt" "$tag" "$SERVER_PID" process
      # shellcheck disable=SC2046
      echo_bench $(load_args "$w") --threads 1 --duration "$DURATION" --max-error-rate 1 \
        --csv "$RESULTS/raw/$tag.csv" --json "$RESULTS/raw/$tag.json" >/dev/null
      proc_sample "$TMP/proc.txt" "$tag" "$SERVER_PID" process
      stop_keep_log "$RESULTS/raw/$tag.log"
      # the loop thread: the Java main thread of a single-loop lab server; Netty's loop runs on a
      # thread of its own event-loop group, not on main: not measured
      loop=1
      [[ $s == netty-* ]] && loop=0
      if [ -f "$RESULTS/raw/$tag.csv" ] && [ -f "$RESULTS/raw/$tag-warmup.csv" ]; then
        echo "$round,$s,$w,$tag,$loop,../raw/$tag.csv,../raw/$tag-warmup.csv,../raw/$tag.log" >>"$TMP/runs.csv"
      else
        echo "warning: round $round: $s $w: echo-bench wrote no result; no row" >&2
      fi

      echo "round $round: $s $w done" >&2
    done
  done
done

summarize runs "$TMP/runs.csv" --proc "$TMP/proc.txt" --out round,server,workload,requests_per_s=qps,p99_us,\
server_cpu_us_per_req,loop_user_us_per_req,loop_sys_us_per_req,errors,requests,syscalls_per_req,sqes_per_req,\
completions_per_enter,ctx_switches_per_req,nonvoluntary_per_req >"$samples"
# Medians over the rounds, per server and workload.
summarize medians "$samples" --by server,workload >"$RESULTS/summary.csv"
column -s, -t "$RESULTS/summary.csv" | tee "$RESULTS/table.txt"
echo "kernel $(cat "$RESULTS/kernel.txt"); $(cat "$RESULTS/uring-support.txt")"
report
