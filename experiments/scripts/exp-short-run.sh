#!/usr/bin/env bash
# exp-short-run: the lab write-up's experiment 2.1. Each architecture on a fresh server:
# echo-bench 3 runs x 100 serial short-connection requests (the write-up's tables); then PAIR_ROUNDS
# rounds of one 100-request run per architecture and client (warmed, cold) on fresh servers in random
# order; then bash bench.sh with 100 nc clients (ROUNDS rounds) and the 10..60 concurrency sweep
# (ROUNDS rounds). Server on CPU 0, clients on CPU 1. Then the serial ruler alone for the course's other servers (EXTRA_ARCHS,
# default bio vt uring: lab 1's and lab 7's), for the instructor notes.
set -euo pipefail
NAME=short-run
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
ROUNDS=${ROUNDS:-3}
export WORKERS=${WORKERS:-4}

# the client warms itself first (never against the server), so the runs measure a cold server
for arch in $(selection short-run); do
  echo "== $arch: 3 x 100 serial requests"
  start_server "$arch" "$EXP_PORT"
  echo_bench --runs 3 --requests 100 --json "$RESULTS/serial-$arch.json"
  stop_keep_log "$RESULTS/server-$arch.log"
done

# The first 100 requests of a fresh server, repeated: PAIR_ROUNDS rounds, each a fresh server per
# architecture and client (warmed, or cold as the lab's earlier runs were: --cold-client) in a fresh random
# order, so that the architectures and the two clients are paired by round and get intervals.
PAIR_ROUNDS=${PAIR_ROUNDS:-8}
mkdir -p "$RESULTS/pairs"
echo "round,arch,client,file" >"$RESULTS/pairs.csv"
for r in $(seq "$PAIR_ROUNDS"); do
  echo "== pairs, round $r of $PAIR_ROUNDS"
  for slot in $(printf '%s\n' lt:warm lt:cold et:warm et:cold mp:warm mp:cold | shuf); do
    arch=${slot%:*} client=${slot#*:} file=pairs/$arch-$client-$r.json
    cold=()
    [ "$client" = cold ] && cold=(--cold-client)
    start_server "$arch" "$EXP_PORT"
    echo_bench --runs 1 --requests 100 "${cold[@]}" --json "$RESULTS/$file" >/dev/null
    stop_server quiet
    echo "$r,$arch,$client,$file" >>"$RESULTS/pairs.csv"
  done
done

# each only where this build runs it: on a JDK at least the catalog's min_jdk, uring on a kernel that allows io_uring
for arch in ${EXTRA_ARCHS-$(selection short-run-extra)}; do
  need=$(catalog_field "$arch" min_jdk)
  if [ "$JDK_FEATURE" -lt "$need" ]; then echo "$arch: needs JDK $need (built on $JDK_LABEL), skipped" | tee -a "$RESULTS/notes.txt"; continue; fi
  if [ "$arch" = uring ] && ! java --enable-native-access=ALL-UNNAMED -cp lab-servers/target/lab-servers.jar niolab.uring.UringSupport >/dev/null 2>&1; then
    echo "uring: io_uring is not usable here (or the build predates JDK 22), skipped" | tee -a "$RESULTS/notes.txt"; continue
  fi
  echo "== $arch: 3 x 100 serial requests"
  start_server "$arch" "$EXP_PORT"
  echo_bench --runs 3 --requests 100 --json "$RESULTS/serial-$arch.json"
  stop_keep_log "$RESULTS/server-$arch.log"
done

for r in $(seq "$ROUNDS"); do
  echo "== bench.sh 100, round $r"
  PORT=$EXP_PORT BENCH_CSV=$RESULTS/bench-100.csv client_pin bash bench.sh 100 || true
done
for r in $(seq "$ROUNDS"); do
  echo "== bench.sh --sweep, round $r"
  PORT=$EXP_PORT BENCH_CSV=$RESULTS/sweep.csv client_pin bash bench.sh --sweep 10 20 30 40 50 60 || true
done
report
