#!/usr/bin/env bash
# exp-syscalls: the same fixed workloads per architecture (lt, et, mp with WORKERS=2 lt workers)
# with strace attached to every server process (-f: all of its threads), beside the server's own
# counters. A fresh server per workload, so the counters and the trace cover the same requests.
#
# Writes to experiments/results/syscalls/, per ARCH and workload W:
#   bench-ARCH-W.json          echo-bench's report of the workload
#   counters-ARCH-W.txt        the server's output (counters last; mp: per worker and summed)
#   syscalls-ARCH-W.csv        process,thread,syscall,calls,errors,eagain (thread: loop = the
#                              threads that call epoll_wait, jvm = every other JVM thread)
#   strace-ARCH-W.txt          strace's own -c summary per process
#   trace-ARCH-W.txt           a few requests of the event loop's syscall sequence, from the middle
set -euo pipefail
NAME=syscalls
EXP_PORT=${EXP_PORT:-29110}
WORKERS=${WORKERS:-2}
source "$(dirname "${BASH_SOURCE[0]}")/strace.sh"
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/niolab-syscalls.XXXXXX")
cleanup() {
  strace_detach
  stop_server
  rm -rf "$WORK"
}
trap cleanup EXIT

# The workloads: name and echo-bench options.
WORKLOADS=(serial keepalive large)
declare -A LOAD=(
  [serial]="-n 2000"
  [keepalive]="--keepalive -c 10 -n 20000"
  [large]="--keepalive -c 2 -n 200 --size 1048576"
)

# server_pids: the server's processes, master first (mp: then its workers).
server_pids() {
  echo "$SERVER_PID"
  pgrep -P "$SERVER_PID" || true
}

# excerpt TRACE START: the event loop thread's calls from the middle successful call matching
# START up to the next one (one short connection, or one wakeup); a call that other threads
# interrupted (<unfinished ...> then <... resumed>) is joined back into one line; payloads elided.
excerpt() {
  awk -v key="^($2)\\\\(" '
    !t && $2 ~ /^epoll_p?wait\(/ { t = $1 }
    { th[NR] = $1; sub(/^[0-9]+ +/, ""); l[NR] = $0 }
    END {
      for (i = 1; i <= NR; i++) {
        if (th[i] != t) continue
        s = l[i]
        if (s ~ / <unfinished \.\.\.>$/) { held = s; sub(/ <unfinished \.\.\.>$/, "", held); continue }
        if (s ~ /^<\.\.\. [a-z_0-9]+ resumed>/) { sub(/^<\.\.\. [a-z_0-9]+ resumed>/, "", s); s = held s }
        line[++n] = s
        if (s ~ key && s !~ /= -1 E/) mark[++m] = n
      }
      if (m < 2) exit
      k = int(m / 2)
      for (i = mark[k]; i < mark[k + 1]; i++) print line[i]
    }' "$1" | sed -E 's/"([^"\\]|\\.)*"\.\.\./"..."/g' | cut -c1-160
}

for arch in $(selection syscalls); do
  for w in "${WORKLOADS[@]}"; do
    echo "== $arch $w: echo-bench ${LOAD[$w]} under strace"
    start_server "$arch" "$EXP_PORT"
    procs=()
    i=0
    for p in $(server_pids); do
      role=server
      [ "$arch" = mp ] && { [ $i = 0 ] && role=master || role=w$i; }
      strace_attach "$p" "$WORK/trace-$role"
      procs+=("$role")
      i=$((i + 1))
    done
    # shellcheck disable=SC2086
    echo_bench ${LOAD[$w]} --json "$RESULTS/bench-$arch-$w.json" | grep -E '^(mean|errors)' || true
    strace_detach
    stop_keep_log "$RESULTS/counters-$arch-$w.txt"
    : >"$RESULTS/strace-$arch-$w.txt"
    echo "process,thread,syscall,calls,errors,eagain" >"$RESULTS/syscalls-$arch-$w.csv"
    for role in "${procs[@]}"; do
      tr="$WORK/trace-$role"
      { echo "== $role (strace -f -c: all threads of the process)"; sed -n '/^% time/,$p' "$tr"; echo; } >>"$RESULTS/strace-$arch-$w.txt"
      strace_count "$tr" "$role" >>"$RESULTS/syscalls-$arch-$w.csv"
    done
    # the excerpt comes from one event loop: the server, or mp's first worker
    tr="$WORK/trace-${procs[$([ "$arch" = mp ] && echo 1 || echo 0)]}"
    if [ "$w" = serial ]; then
      excerpt "$tr" "accept4?" >"$RESULTS/trace-$arch-$w.txt"
    elif [ "$w" = keepalive ]; then
      excerpt "$tr" "epoll_p?wait" >"$RESULTS/trace-$arch-$w.txt"
    fi
    rm -f "$WORK"/trace-*
  done
done

report
