#!/usr/bin/env bash
# exp-concurrency: keep-alive and short-connection load at LEVELS connections on lt, et and mp
# (2 workers): per mode one server per architecture, up across all levels (their counters over
# the series in server-MODE-ARCH.log); per mode and level one `echo-bench compare` of the three
# (lt first, the baseline), ROUNDS rounds of SLICE slices, each round in a fresh random order,
# so the servers are paired per round; a WARMUP per server before each compare's first round
# (explicit, not counted); server CPU per request from each server's pid. Server on CPU 0, client
# (one event-loop thread) on CPU 1.
# The load with the defaults: 5 levels x 2 modes x 10 rounds x 3 servers x 1 s = 300 s of
# slices, 10 compares x 3 servers x 1 s = 30 s of warm-up; besides, 6 server starts and the
# noise floor. compare gives an interval from 6 rounds on: ROUNDS at least 6.
# A smoke run: ROUNDS=8 SLICE=0.25s WARMUP=0.25s LEVELS="1 16" NOISE=0 RESULTS_DIR=/tmp/exp-concurrency.
# Env knobs: LEVELS ("1 4 16 64 256"), ROUNDS (10), SLICE (1s), WARMUP (1s), WORKERS (2), FORKS, RESULTS_DIR.
#
# FORKS=F: every compare starts its servers itself, afresh in each of F forks (the servers as
# commands, on SERVER_CPU), and runs ROUNDS rounds per fork, so that each ratio's interval spans
# fresh processes (no server-MODE-ARCH.log then: each fork's servers are compare's own, and their
# output, counters last, is kept as servers/MODE-C/ARCH-fork-F.log). In 3
# forks of 3 rounds: 10 compares x 3 forks x 3 servers x (3 rounds + 1 s of warm-up) x 1 s =
# 360 s of slices, and 90 server starts. A smoke run in forks: FORKS=2 ROUNDS=3 SLICE=0.25s WARMUP=0.25s
# LEVELS="1 16" NOISE=0 RESULTS_DIR=/tmp/exp-concurrency.
#
# Writes to experiments/results/concurrency/:
#   settings.csv               key,value: the knobs of this run
#   levels.txt                 the levels, in order
#   compare-MODE-C.json        echo-bench compare's every slice and summary (MODE: keepalive, short)
#   compare-MODE-C.txt         its printout
#   server-MODE-ARCH.log       each server's output over the mode's series (counters last)
#   servers/MODE-C/ARCH-fork-F.log  with FORKS, instead: each fork's server output (counters last)
set -euo pipefail
NAME=concurrency
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
LEVELS=${LEVELS:-1 4 16 64 256}
ROUNDS=${ROUNDS:-10} SLICE=${SLICE:-1s} WARMUP=${WARMUP:-1s}
export WORKERS=${WORKERS:-2}
ARCHS=$(selection concurrency)

printf 'key,value\ndesign,compare\nrounds,%s\nslice,%s\nwarmup,%s\nlevels,%s\nworkers,%s\n' \
  "$ROUNDS" "$SLICE" "$WARMUP" "$LEVELS" "$WORKERS" >"$RESULTS/settings.csv"
[ -z "${FORKS:-}" ] || echo "forks,$FORKS" >>"$RESULTS/settings.csv"

declare -A PID LOG
stop_all() {
  stop_servers "$RESULTS/server-$mode-@.log"
}
trap stop_all EXIT

for mode in keepalive short; do
  flag=()
  [ "$mode" = keepalive ] && flag=(-k)
  targets=() port=$EXP_PORT
  for a in $ARCHS; do
    if [ -n "${FORKS:-}" ]; then
      targets+=("$a=$(server_command "$a")")
      continue
    fi
    start_server_free "$a" "$port"
    PID[$a]=$SERVER_PID LOG[$a]=$SERVER_LOG
    targets+=("$a=127.0.0.1:$SERVER_PORT,pid=$SERVER_PID")
    port=$((SERVER_PORT + 1))
  done
  SERVER_PID='' SERVER_LOG=''
  for c in $LEVELS; do
    echo "== $mode c=$c"
    logs=()
    [ -z "${FORKS:-}" ] || logs=(--server-logs "$RESULTS/servers/$mode-$c")
    client_pin "$ROOT/bin/echo-bench" compare "${FORK_ARGS[@]}" "${logs[@]}" "${flag[@]}" -c "$c" --threads 1 --rounds "$ROUNDS" --slice "$SLICE" \
      --warmup "$WARMUP" --seed "$RANDOM$RANDOM" --json "$RESULTS/compare-$mode-$c.json" "${targets[@]}" \
      >"$RESULTS/compare-$mode-$c.txt" 2>&1 || echo "warning: compare $mode $c exited non-zero (see compare-$mode-$c.txt)" >&2
  done
  stop_all
done
echo "$LEVELS" >"$RESULTS/levels.txt"
report
