# Shared by scripts/run-bench.sh and bench.sh: start a lab server in the background, wait until
# it prints its ready line, and stop it by PID (gracefully, then by force) whatever happens.
# Source it; it defines NIOLAB_HOME, start_server, stop_server.

NIOLAB_HOME=${NIOLAB_HOME:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
SERVER_PID=
SERVER_LOG=

# start_server ARCH PORT [server options...]: sets SERVER_PID and SERVER_LOG; returns 1 if the
# server exits or is not ready within READY_TIMEOUT seconds (default 60), printing its output.
start_server() {
  local arch=$1 port=$2
  shift 2
  SERVER_LOG=$(mktemp "${TMPDIR:-/tmp}/niolab-$arch.XXXXXX")
  local pin=()
  # SERVER_NETNS=NS runs the server inside network namespace NS (ip netns exec keeps the PID)
  [ -n "${SERVER_NETNS:-}" ] && pin=(ip netns exec "$SERVER_NETNS")
  [ -n "${SERVER_CPU:-}" ] && pin+=(taskset -c "$SERVER_CPU")
  "${pin[@]}" "$NIOLAB_HOME/bin/lab-server" "$arch" --port "$port" "$@" >"$SERVER_LOG" 2>&1 &
  SERVER_PID=$!
  local deadline=$((SECONDS + ${READY_TIMEOUT:-60}))
  until grep -q '^listening on' "$SERVER_LOG"; do
    if ! kill -0 "$SERVER_PID" 2>/dev/null || [ $SECONDS -ge $deadline ]; then
      echo "error: lab-server $arch did not start on port $port:" >&2
      sed 's/^/  /' "$SERVER_LOG" >&2
      stop_server
      return 1
    fi
    sleep 0.1
  done
}

# stop_server [quiet]: SIGTERM, up to 15 s to drain and exit, then SIGKILL; prints the counters.
stop_server() {
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    local i
    for i in $(seq 150); do
      kill -0 "$SERVER_PID" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    [ "${1:-}" = quiet ] || grep -E '^(counters|total|\[w[0-9]+\] counters)' "$SERVER_LOG" | sed 's/^/server /' || true
  fi
  SERVER_PID=
  # SERVER_LOG_COPY=FILE keeps the server's whole output (its counters come last, at exit)
  [ -n "$SERVER_LOG" ] && [ -n "${SERVER_LOG_COPY:-}" ] && cp "$SERVER_LOG" "$SERVER_LOG_COPY"
  [ -n "$SERVER_LOG" ] && rm -f "$SERVER_LOG"
  SERVER_LOG=
}
