#!/usr/bin/env bash
# exp-mistakes: each --mistake beside the correct server, in the scenario that shows its symptom.
# Server on CPU 0, client on CPU 1, as the other experiments (herd: the server on both CPUs, so
# its loops can race for a connection). A fresh server per scenario and variant for the counts
# (a fixed load, the server's counters after it); where the report compares a rate, a latency or
# CPU per request (standing-write busy, keys-not-removed, blocking-on-loop, nagle), both variants
# also run as two servers of one `echo-bench compare` (CMP_ROUNDS rounds of CMP_SLICE slices,
# each round in a fresh random order, paired by round), with the scenario's set-up on both; and
# the lab's target: lt against `lt --mistake keys-not-removed` at 50 keep-alive connections,
# TARGET_ROUNDS rounds.
# The compares' load with the defaults: six of 2 x (2 s warm-up + 10 x 1 s) and the target's
# 2 x (2 s + 20 x 1 s), 188 s, and two server starts each. Ten rounds, not the 8 an interval
# needs: a slice lost to the machine still leaves one.
# A smoke run: CMP_ROUNDS=8 CMP_SLICE=0.25s CMP_WARMUP=0.5s TARGET_ROUNDS=8 NOISE=0.
#
# Writes to experiments/results/mistakes/ (VARIANT is correct or broken):
#   accept-once-VARIANT.json, read-once-VARIANT.json, keys-not-removed-VARIANT.json,
#   standing-write-VARIANT.json, blocking-on-loop-ARCH-VARIANT.json, nagle-ARCH-VARIANT.json,
#   herd-ARCH-VARIANT.json                     echo-bench --json of the scenario's load
#   compare-standing-write.json, compare-keys-not-removed.json, compare-blocking-on-loop-ARCH.json,
#   compare-nagle-ARCH.json, compare-keys-not-removed-50.json (the target)
#                                              echo-bench compare --json of correct and broken (and .txt, its printout)
#   settings.csv                               cmp_rounds,cmp_slice,cmp_warmup,target_rounds
#   counters-SCENARIO[-ARCH]-VARIANT.txt       the server's counters lines (and its first log lines)
#   no-accept-backoff-ARCH-VARIANT.json        echo-bench after the flood: is it still served?
#   standing-write-idle.csv                    variant,connections,seconds,cpu_share,selects
#   no-accept-backoff.csv                      arch,variant,connections,seconds,cpu_share,log_lines
#   unbounded-output.csv                       arch,variant,t_s,rss_mib (the server's RSS every 100 ms)
#   unbounded-output-capped.csv                arch,variant,capped (times the server closed the client at its cap)
#   herd.csv                                   arch,variant,connections,loop_wakeups (herd: correct, broken, exclusive)
#   no-linger.csv                              arch,variant,head_bytes,tries,write_failed,saw_431,then_eof,then_reset (a line per try)
#   counters-no-linger-ARCH-VARIANT.txt        the server's counters (linger_closes...)
#   loadavg.txt                                /proc/loadavg when the run began (other work on the machine)
#   tmp/                                       (not kept by git) the server's /proc samples and the lists of
#                                              runs that `summarize runs` computes the CSVs above from
set -euo pipefail
NAME=mistakes
EXP_PORT=${EXP_PORT:-29130}
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
CMP_ROUNDS=${CMP_ROUNDS:-10} CMP_SLICE=${CMP_SLICE:-1s} CMP_WARMUP=${CMP_WARMUP:-2s} TARGET_ROUNDS=${TARGET_ROUNDS:-20}

WRITER_PID=
WORK=$(mktemp -d "${TMPDIR:-/tmp}/niolab-mistakes.XXXXXX")
cleanup() {
  release
  [ -n "$WRITER_PID" ] && kill "$WRITER_PID" 2>/dev/null
  stop_server
  rm -rf "$WORK"
}
trap cleanup EXIT

TMP=$RESULTS/tmp
PROC=$TMP/proc.txt

# sample_for KEY SECONDS: samples the server's /proc under KEY, sleeps SECONDS, samples again:
# `summarize runs` makes its cpu_share (of one core) of the two.
sample_for() {
  proc_sample "$PROC" "$1" "$SERVER_PID" process
  sleep "$2"
  proc_sample "$PROC" "$1" "$SERVER_PID" process
}

# queued: connections waiting in the server's accept queue (a listener's Recv-Q).
queued() {
  ss -ltnH "sport = :$EXP_PORT" | awk '{ n += $2 } END { print n + 0 }'
}

# last_stats: the server's latest stats: line (summarize runs: stats.NAME, a counter's change between two).
last_stats() {
  { grep '^stats: ' "$SERVER_LOG" || true; } | tail -1
}

# keep_counters FILE: stops the server and keeps its first log lines and its counters lines in
# FILE (a spinning server's whole log can run to megabytes); the whole log stays in $WORK/server.log.
keep_counters() {
  SERVER_LOG_COPY=$WORK/server.log stop_server quiet
  { head -3 "$WORK/server.log"; grep -E '^(\[loop[0-9]+\] )?counters: ' "$WORK/server.log" || true; } | awk '!seen[$0]++' >"$1"
}

# start ARCH [OPTIONS...]: start_server on EXP_PORT; a port held by another program (on a busy
# machine, often a client's ephemeral port) moves the rest of the run to the next port.
start() {
  local tries
  for tries in $(seq "${PORT_TRIES:-20}"); do
    if start_server "$1" "$EXP_PORT" "${@:2}" 2>"$WORK/start.err"; then
      cat "$WORK/start.err" >&2 # the server's warnings, if any
      return 0
    fi
    grep -q 'is already in use' "$WORK/start.err" || break
    EXP_PORT=$((EXP_PORT + 1))
  done
  cat "$WORK/start.err" >&2
  return 1
}

# mistake VARIANT NAME: the --mistake option of the broken variant.
mistake() {
  [ "$1" = broken ] && echo "--mistake $2"
  return 0
}

# compare_variants OUT ARCH MISTAKE [SERVER-OPTIONS...] -- COMPARE-OPTIONS...: the correct and
# the broken server as the two servers of one echo-bench compare (correct the baseline).
compare_variants() {
  local out=$1 arch=$2 name=$3 options=()
  shift 3
  while [ "$1" != -- ]; do options+=("$1"); shift; done
  shift
  compare_servers "$out" "correct:$arch ${options[*]}" "broken:$arch ${options[*]} --mistake $name" -- "$@" \
    --slice "$CMP_SLICE" --warmup "$CMP_WARMUP" --seed "$RANDOM"
}

VARIANTS=(correct broken)
cp /proc/loadavg "$RESULTS/loadavg.txt"
printf 'cmp_rounds,cmp_slice,cmp_warmup,target_rounds\n%s,%s,%s,%s\n' "$CMP_ROUNDS" "$CMP_SLICE" "$CMP_WARMUP" "$TARGET_ROUNDS" \
  >"$RESULTS/settings.csv"

echo "== accept-once (et): 100 connections made while the server is stopped, one listen edge"
for v in "${VARIANTS[@]}"; do
  # shellcheck disable=SC2046
  start et $(mistake "$v" accept-once)
  kill -STOP "$SERVER_PID"
  echo_bench --keepalive -c 100 -n 100 --timeout 3s --json "$RESULTS/accept-once-$v.json" >/dev/null &
  bench=$!
  # the kernel completes every handshake into the accept queue meanwhile (and echo-bench's probe before them)
  for i in $(seq 300); do
    [ "$(queued)" -ge 101 ] && break
    sleep 0.1
  done
  kill -CONT "$SERVER_PID"
  wait "$bench" || true
  keep_counters "$RESULTS/counters-accept-once-$v.txt"
done

echo "== read-once (et, --buffer-size 16): 64-byte echoes on 10 connections"
for v in "${VARIANTS[@]}"; do
  # shellcheck disable=SC2046
  start et --buffer-size 16 $(mistake "$v" read-once)
  echo_bench --keepalive -c 10 -n 10 --size 64 --timeout 2s --json "$RESULTS/read-once-$v.json" >/dev/null
  keep_counters "$RESULTS/counters-read-once-$v.txt"
done

echo "== standing-write (lt): 50 idle connections for 5 s, then 50 busy ones"
echo "variant,connections,seconds,key,stats" >"$TMP/standing-write-idle.csv"
for v in "${VARIANTS[@]}"; do
  # shellcheck disable=SC2046
  start lt --stats-interval 250ms $(mistake "$v" standing-write)
  hold 50 "$EXP_PORT"
  sleep 0.5
  last_stats >"$TMP/stats-standing-write-$v.txt"
  sample_for "standing-write-idle-$v" 5
  sleep 0.3 # a stats line from after the idle period
  last_stats >>"$TMP/stats-standing-write-$v.txt"
  echo "$v,50,5,standing-write-idle-$v,stats-standing-write-$v.txt" >>"$TMP/standing-write-idle.csv"
  release
  echo_bench --keepalive -c 50 -n 20000 --warmup 2000 --json "$RESULTS/standing-write-$v.json" >/dev/null
  keep_counters "$RESULTS/counters-standing-write-$v.txt"
done
compare_variants compare-standing-write.json lt standing-write -- --keepalive -c 50 --rounds "$CMP_ROUNDS"

echo "== keys-not-removed (lt): 50 connections that sent one byte each, then one busy connection, 20000 echoes"
for v in "${VARIANTS[@]}"; do
  # shellcheck disable=SC2046
  start lt $(mistake "$v" keys-not-removed)
  hold 50 "$EXP_PORT" x # ready once each: their keys enter the selected set
  sleep 0.5
  echo_bench --keepalive -c 1 -n 20000 --json "$RESULTS/keys-not-removed-$v.json" >/dev/null
  release
  keep_counters "$RESULTS/counters-keys-not-removed-$v.txt"
done
HOLD=50 HOLD_SEND=x compare_variants compare-keys-not-removed.json lt keys-not-removed -- --keepalive -c 1 --rounds "$CMP_ROUNDS"

echo "== the lab's target: lt against lt --mistake keys-not-removed, 50 keep-alive connections, $TARGET_ROUNDS rounds"
compare_variants compare-keys-not-removed-50.json lt keys-not-removed -- --keepalive -c 50 --rounds "$TARGET_ROUNDS"

# the catalog's mistakes selection, for the headings below
ARCHS_TEXT=$(selection mistakes | sed 's/ /, /g')
echo "== no-accept-backoff ($ARCHS_TEXT): 64 descriptors, 200 connections held for 3 s"
echo "arch,variant,connections,seconds,log_lines,key" >"$TMP/no-accept-backoff.csv"
for arch in $(selection mistakes); do
  for v in "${VARIANTS[@]}"; do
    # shellcheck disable=SC2046
    start "$arch" $(mistake "$v" no-accept-backoff)
    prlimit --pid "$SERVER_PID" --nofile=64:64
    hold 200 "$EXP_PORT"
    sleep 0.5
    sample_for "no-accept-backoff-$arch-$v" 3
    release
    sleep 0.5
    echo_bench -n 100 --timeout 2s --json "$RESULTS/no-accept-backoff-$arch-$v.json" >/dev/null
    keep_counters "$RESULTS/counters-no-accept-backoff-$arch-$v.txt"
    echo "$arch,$v,200,3,$(grep -c ' failed (' "$WORK/server.log" || true),no-accept-backoff-$arch-$v" >>"$TMP/no-accept-backoff.csv"
  done
done

echo "== unbounded-output ($ARCHS_TEXT): one client sends 1536 MiB and never reads"
echo "arch,variant,t_s,key" >"$TMP/unbounded-output.csv"
echo "arch,variant,capped" >"$RESULTS/unbounded-output-capped.csv"
for arch in $(selection mistakes); do
  for v in "${VARIANTS[@]}"; do
    # shellcheck disable=SC2046
    start "$arch" $(mistake "$v" unbounded-output)
    sleep 0.5
    bash -c 'exec 3<>/dev/tcp/127.0.0.1/'"$EXP_PORT"'; head -c 1536M /dev/zero >&3' 2>/dev/null &
    WRITER_PID=$!
    for i in $(seq 0 80); do # 8 s, every 100 ms (t_s: when it was due)
      proc_sample "$PROC" "unbounded-output-$arch-$v-$i" "$SERVER_PID" process
      echo "$arch,$v,$((i / 10)).$((i % 10)),unbounded-output-$arch-$v-$i" >>"$TMP/unbounded-output.csv"
      sleep 0.1
    done
    kill "$WRITER_PID" 2>/dev/null || true
    wait "$WRITER_PID" 2>/dev/null || true
    WRITER_PID=
    keep_counters "$RESULTS/counters-unbounded-output-$arch-$v.txt"
    echo "$arch,$v,$(grep -c 'unbounded-output: ' "$WORK/server.log" || true)" >>"$RESULTS/unbounded-output-capped.csv"
  done
done

echo "== blocking-on-loop ($ARCHS_TEXT): 20 keep-alive connections, 3000 echoes"
for arch in $(selection mistakes); do
  for v in "${VARIANTS[@]}"; do
    # shellcheck disable=SC2046
    start "$arch" $(mistake "$v" blocking-on-loop)
    echo_bench --keepalive -c 20 -n 3000 --json "$RESULTS/blocking-on-loop-$arch-$v.json" >/dev/null
    keep_counters "$RESULTS/counters-blocking-on-loop-$arch-$v.txt"
  done
  compare_variants "compare-blocking-on-loop-$arch.json" "$arch" blocking-on-loop -- --keepalive -c 20 --rounds "$CMP_ROUNDS"
done

echo "== nagle ($ARCHS_TEXT, http): one keep-alive connection, 100 GET /ping"
for arch in $(selection mistakes); do
  for v in "${VARIANTS[@]}"; do
    # shellcheck disable=SC2046
    start "$arch" --protocol http $(mistake "$v" nagle)
    echo_bench --protocol http --keepalive -c 1 -n 100 --warmup 10 --json "$RESULTS/nagle-$arch-$v.json" >/dev/null
    keep_counters "$RESULTS/counters-nagle-$arch-$v.txt"
  done
  compare_variants "compare-nagle-$arch.json" "$arch" nagle --protocol http -- --protocol http --keepalive -c 1 --rounds "$CMP_ROUNDS"
done

echo "== herd ($ARCHS_TEXT, --loops 4): 2000 short connections one after another"
echo "arch,variant,connections,key" >"$TMP/herd.csv"
for arch in $(selection mistakes); do
  variants=(correct broken)
  [ "$arch" = et ] && variants+=(exclusive)
  for v in "${variants[@]}"; do
    opts=(--loops 4)
    [ "$v" != correct ] && opts+=(--mistake herd)
    [ "$v" = exclusive ] && opts+=(--epoll-exclusive)
    SERVER_CPU=0,1 start "$arch" "${opts[@]}"
    # loop_wakeups: the voluntary context switches of the event-loop threads (the Java main thread
    # and loop-2, loop-3 ...): a loop gives up the CPU when it blocks in its wait, so each is one
    # wakeup of a loop, whether it then found work or not
    proc_sample "$PROC" "herd-$arch-$v" "$SERVER_PID" process
    echo_bench -n 2000 --json "$RESULTS/herd-$arch-$v.json" >/dev/null
    proc_sample "$PROC" "herd-$arch-$v" "$SERVER_PID" process
    keep_counters "$RESULTS/counters-herd-$arch-$v.txt"
    echo "$arch,$v,2000,herd-$arch-$v" >>"$TMP/herd.csv"
  done
done

echo "== no-linger ($ARCHS_TEXT, http): GET /ping heads of 9 KB to 1 MB, each written whole before the client reads"
echo "arch,variant,head_bytes,tries,write_failed,saw_431,then_eof,then_reset" >"$RESULTS/no-linger.csv"
HEAD_SIZES=(9000 20000 300000 1000000)
for size in "${HEAD_SIZES[@]}"; do # a GET /ping whose head is $size bytes: over the 8 KiB limit, answered 431
  { printf 'GET /ping HTTP/1.1\r\nX-Big: '; head -c $((size - 31)) /dev/zero | tr '\0' a; printf '\r\n\r\n'; } >"$WORK/head-$size"
done
for arch in $(selection mistakes); do
  for v in "${VARIANTS[@]}"; do
    # shellcheck disable=SC2046
    start "$arch" --protocol http $(mistake "$v" no-linger)
    for size in "${HEAD_SIZES[@]}"; do
      for _ in $(seq 20); do
        # The client (on CPU 1): connect, write the whole head, then read to the end, even if the
        # write failed (most clients would stop there). cat says "Connection reset by peer" on
        # stderr if a reset ended the stream instead of a FIN.
        client_pin bash -c 'exec 3<>/dev/tcp/127.0.0.1/'"$EXP_PORT"' || exit 9
          cat "$1" >&3 2>/dev/null || echo write-failed >&2
          timeout 10 cat <&3' _ "$WORK/head-$size" >"$WORK/answer" 2>"$WORK/answer.err" || true
        saw=$(grep -c '^HTTP/1.1 431 ' "$WORK/answer" || true)
        reset=$(grep -ci 'reset' "$WORK/answer.err" || true)
        failed=$(grep -c '^write-failed' "$WORK/answer.err" || true)
        echo "$arch,$v,$size,1,$failed,$saw,$((reset == 0 ? 1 : 0)),$((reset > 0 ? 1 : 0))" >>"$RESULTS/no-linger.csv"
      done
    done
    keep_counters "$RESULTS/counters-no-linger-$arch-$v.txt"
  done
done

summarize runs "$TMP/standing-write-idle.csv" --proc "$PROC" --out variant,connections,seconds,cpu_share,selects=stats.selects \
  >"$RESULTS/standing-write-idle.csv"
summarize runs "$TMP/no-accept-backoff.csv" --proc "$PROC" --out arch,variant,connections,seconds,cpu_share,log_lines \
  >"$RESULTS/no-accept-backoff.csv"
summarize runs "$TMP/unbounded-output.csv" --proc "$PROC" --out arch,variant,t_s,rss_mib >"$RESULTS/unbounded-output.csv"
summarize runs "$TMP/herd.csv" --proc "$PROC" --out arch,variant,connections,loop_wakeups >"$RESULTS/herd.csv"
report
