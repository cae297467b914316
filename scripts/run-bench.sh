#!/usr/bin/env bash
# make run-bench-<arch>: start the server, wait until it accepts, run echo-bench, stop the server
# by its PID, also when the bench fails or is interrupted.
# Environment: PORT (9988), N (100), RUNS (3), WORKERS (mp, 4), SERVER_ARGS, BENCH_ARGS,
# SERVER_CPU / CLIENT_CPU (taskset pinning, e.g. 0 and 1).
set -euo pipefail
arch=${1:?usage: run-bench.sh ARCH (an architecture of bin/lab-server catalog)}
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
PORT=${PORT:-9988} N=${N:-100} RUNS=${RUNS:-3}

trap stop_server EXIT
trap 'exit 130' INT TERM

# shellcheck disable=SC2086
start_server "$arch" "$PORT" ${SERVER_ARGS:-}
ready_line "$SERVER_LOG"
# shellcheck disable=SC2086
client_pin "$NIOLAB_HOME/bin/echo-bench" --runs "$RUNS" --requests "$N" ${BENCH_ARGS:-} "127.0.0.1:$PORT"
