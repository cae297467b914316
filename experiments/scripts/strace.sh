# shellcheck shell=bash
# strace for the experiment scripts (exp-syscalls, exp-ffi): attach to running servers, detach,
# and count the calls of a trace by thread and kind (summarize strace, after common.sh: it comes
# from scripts/lib.sh). Source it before common.sh, so that a
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

# strace_count TRACE PROCESS: CSV rows process,thread,syscall,calls,errors,eagain from a strace -f
# trace, counted by the report generator (summarize strace: thread is loop for the threads that
# call epoll_wait, jvm for the others; a call counts when its result shows, as strace -c counts).
strace_count() {
  summarize strace "$1" --process "$2"
}

# strace_detach: stops every strace attached (SIGINT: it detaches and writes its summary), waits for them.
strace_detach() {
  local p
  for p in "${STRACE_PIDS[@]}"; do kill -INT "$p" 2>/dev/null || true; done
  for p in "${STRACE_PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
  STRACE_PIDS=()
}
