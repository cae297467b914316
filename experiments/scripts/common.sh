# Shared by the experiment scripts (experiments/scripts/exp-*.sh). Source it after setting NAME.
# It builds the project if needed, makes a fresh results folder with env.json, pins by default
# (server on CPU 0, client on CPU 1: override with SERVER_CPU= / CLIENT_CPU=), and offers
# run_bench, which starts a server, runs echo-bench against it and stops it.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
source scripts/lib.sh
: "${NAME:?set NAME before sourcing common.sh}"
RESULTS=$ROOT/experiments/results/$NAME
export SERVER_CPU=${SERVER_CPU-0}
export CLIENT_CPU=${CLIENT_CPU-1}
EXP_PORT=${EXP_PORT:-29988}

make -s all >/dev/null
rm -rf "$RESULTS"
mkdir -p "$RESULTS"
bash experiments/scripts/env.sh >"$RESULTS/env.json"
trap stop_server EXIT
trap 'exit 130' INT TERM

# client_pin CMD...: runs CMD on CLIENT_CPU when set.
client_pin() {
  if [ -n "${CLIENT_CPU:-}" ]; then taskset -c "$CLIENT_CPU" "$@"; else "$@"; fi
}

# server_args ARCH: the extra options an architecture needs (mp: WORKERS workers).
server_args() {
  [ "$1" = mp ] && echo "--workers ${WORKERS:-4}"
  return 0
}

# echo_bench ARGS...: echo-bench on the client CPU against the running server, with its PID
# (CPU per request), never failing the script: errors are data here, recorded in the JSON.
echo_bench() {
  client_pin "$ROOT/bin/echo-bench" --server-pid "$SERVER_PID" "$@" "127.0.0.1:$EXP_PORT" || true
}

# stop_keep_log FILE: stops the server, keeping its whole output (counters last) in FILE.
stop_keep_log() {
  SERVER_LOG_COPY=$1 stop_server quiet
}

# report: regenerate experiments/exp-$NAME.md from the results.
report() {
  java -jar "$ROOT/experiments/generator/target/experiment-reports.jar" "$ROOT/experiments" "$NAME"
}
