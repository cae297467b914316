#!/usr/bin/env bash
# scripts/compare.sh NAME:ARCH[ SERVER-OPTIONS]... [-- COMPARE-OPTIONS...]: starts each lab server
# on its own port (PORT, PORT+1, ...; a port in use is skipped) pinned to SERVER_CPU, runs `echo-bench compare` pinned to
# CLIENT_CPU against all of them (the first is the baseline; each server's pid gives CPU per
# request), and stops every server by its PID, also when interrupted.
#
#   scripts/compare.sh lt-a:lt lt-b:lt -- -c 50 -k --rounds 20 --slice 1s
#   scripts/compare.sh lt:lt "leaky:lt --mistake keys-not-removed" -- -c 50 -k --json cmp.json
#
# Environment: PORT (9988), SERVER_CPU (0), CLIENT_CPU (1): "" leaves a side unpinned.
# FORKS=F: compare starts the servers itself, afresh in each of F forks (PORT is then unused).
# HOLD=N: a scenario's quiet connections, N to each server, opened once all are ready and held
# to the end, each having sent HOLD_SEND once if set (exp-mistakes: the same set-up on both sides).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
PORT=${PORT:-9988} SERVER_CPU=${SERVER_CPU-0} CLIENT_CPU=${CLIENT_CPU-1}

specs=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do specs+=("$1"); shift; done
[ $# -gt 0 ] && shift
if [ ${#specs[@]} -eq 0 ]; then
  echo "error: usage: scripts/compare.sh NAME:ARCH[ SERVER-OPTIONS]... [-- COMPARE-OPTIONS...]" >&2
  exit 2
fi

# FORKS=F: echo-bench compare starts a fresh process of every server in each of F forks itself
# (the servers as commands, {port} a free port), so that the interval spans fresh processes, where
# the variance between runs lives; HOLD needs servers that outlive compare, so it keeps the servers
# started here (one fork).
if [ -n "${FORKS:-}" ] && [ "${HOLD:-0}" -eq 0 ]; then
  commands=()
  for spec in "${specs[@]}"; do
    name=${spec%%:*} rest=${spec#*:}
    if [ "$name" = "$spec" ] || [ -z "$rest" ]; then
      echo "error: '$spec' is not NAME:ARCH[ SERVER-OPTIONS]" >&2
      exit 2
    fi
    read -r -a words <<<"$rest"
    commands+=("$name=$(server_command "${words[@]}")")
  done
  client_pin "$NIOLAB_HOME/bin/echo-bench" compare --forks "$FORKS" "$@" "${commands[@]}"
  exit $?
fi

COMPARE_PIDS=() COMPARE_LOGS=()
stop_all() {
  local i
  release
  for i in "${!COMPARE_PIDS[@]}"; do
    SERVER_PID=${COMPARE_PIDS[$i]} SERVER_LOG=${COMPARE_LOGS[$i]}
    stop_server quiet
  done
  COMPARE_PIDS=()
}
trap stop_all EXIT
trap 'exit 130' INT TERM

targets=() ports=()
port=$((PORT - 1))
start_errors=$(mktemp "${TMPDIR:-/tmp}/niolab-compare.XXXXXX")
for i in "${!specs[@]}"; do
  name=${specs[$i]%%:*} rest=${specs[$i]#*:}
  if [ "$name" = "${specs[$i]}" ] || [ -z "$rest" ]; then
    echo "error: '${specs[$i]}' is not NAME:ARCH[ SERVER-OPTIONS]" >&2
    exit 2
  fi
  port=$((port + 1)) tries=1
  read -r -a words <<<"$rest"
  # a port held by another program (on a busy machine, often a client's ephemeral port in
  # TIME-WAIT) is skipped for the next one, up to PORT_TRIES ports per server
  until start_server "${words[0]}" "$port" "${words[@]:1}" 2>"$start_errors"; do
    if ! grep -q 'is already in use' "$start_errors" || [ "$tries" -ge "${PORT_TRIES:-20}" ]; then
      cat "$start_errors" >&2
      rm -f "$start_errors"
      exit 1
    fi
    port=$((port + 1)) tries=$((tries + 1))
  done
  cat "$start_errors" >&2 # the server's warnings, if any
  COMPARE_PIDS+=("$SERVER_PID") COMPARE_LOGS+=("$SERVER_LOG")
  echo "# $name: $(ready_line "$SERVER_LOG"), pid $SERVER_PID, cpu ${SERVER_CPU:-unpinned}"
  targets+=("$name=127.0.0.1:$port,pid=$SERVER_PID") ports+=("$port")
done
rm -f "$start_errors"
if [ "${HOLD:-0}" -gt 0 ]; then
  for port in "${ports[@]}"; do hold "$HOLD" "$port" "${HOLD_SEND:-}"; done
  sleep 0.5 # the servers take the held connections (and their bytes) before the first slice
  echo "# holding $HOLD connections to each server${HOLD_SEND:+, each having sent ${#HOLD_SEND} byte(s)}"
fi
SERVER_PID= SERVER_LOG=
client_pin "$NIOLAB_HOME/bin/echo-bench" compare "$@" "${targets[@]}"
