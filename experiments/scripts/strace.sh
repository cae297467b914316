# shellcheck shell=bash
# strace for the experiment scripts (exp-syscalls, exp-ffi): attach to running servers, detach,
# and count the calls of a trace by thread and kind. Source it before common.sh, so that a
# machine without strace stops the experiment before its results folder is emptied.
if ! command -v strace >/dev/null; then
  echo "error: this experiment needs strace (Debian/Ubuntu: apt-get install -y strace)" >&2
  exit 1
fi
STRACE_PIDS=()

# strace_attach PID OUT: strace -f -C on every thread of PID until SIGINT; waits until it is attached.
strace_attach() {
  strace -f -C -qq -o "$2" -p "$1" &
  STRACE_PIDS+=($!)
  local i
  for i in $(seq 100); do
    [ "$(awk '/^TracerPid:/{print $2}' "/proc/$1/status")" != 0 ] && return 0
    sleep 0.05
  done
  echo "error: strace did not attach to $1" >&2
  return 1
}

# strace_count TRACE PROCESS: CSV rows process,thread,syscall,calls,errors,eagain from a strace -f trace.
# A call counts when its result shows (a whole line, or the <... resumed> half), as strace -c does.
strace_count() {
  awk -v proc="$2" '
    $2 == "<..." { name = $3 }
    $2 ~ /^[a-z_0-9]+\(/ { name = substr($2, 1, index($2, "(") - 1); if (name ~ /^epoll_p?wait$/) loop[$1] = 1 }
    $2 != "<..." && $2 !~ /^[a-z_0-9]+\(/ { next }
    /<unfinished \.\.\.>$/ { next }
    { k = $1 SUBSEP name; calls[k]++ }
    match($0, /= -1 E[A-Z0-9]+/) { errs[k]++; if (substr($0, RSTART + 5, RLENGTH - 5) == "EAGAIN") eagain[k]++ }
    END {
      for (k in calls) { split(k, t, SUBSEP); r = (t[1] in loop ? "loop" : "jvm") SUBSEP t[2]; c[r] += calls[k]; e[r] += errs[k]; a[r] += eagain[k] }
      for (r in c) { split(r, t, SUBSEP); printf "%s,%s,%s,%d,%d,%d\n", proc, t[1], t[2], c[r], e[r], a[r] }
    }' "$1" | sort
}

# strace_detach: stops every strace attached (SIGINT: it detaches and writes its summary), waits for them.
strace_detach() {
  local p
  for p in "${STRACE_PIDS[@]}"; do kill -INT "$p" 2>/dev/null || true; done
  for p in "${STRACE_PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
  STRACE_PIDS=()
}
