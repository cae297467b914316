#!/usr/bin/env bash
# make noise-calibrate: exp-noise's rulers checked on this machine, for its section 3.9. Run it
# with nothing else on the machine: every run below is an `echo-bench compare` of servers given as
# commands (a fresh process of each per fork), servers on SERVER_CPU, the client on CLIENT_CPU.
#   1. calibration  lt against lt --work-ns W: short pilots (CAL_FORKS forks of CAL_ROUNDS rounds),
#                   W moved by a bounded bisection (at most CAL_STEPS pilots) until the measured rate
#                   ratio lies within TARGET_RATIO ± TOLERANCE (0.95 ± 0.01); W and its ratio kept
#   2. then, in one random order so that the machine's drift falls on every kind alike:
#      aa-N.json     AA_RUNS (20) A/A runs, lt against lt
#      vt-N.json     AB_RUNS (10) runs of vt against lt
#      slow-N.json   SLOW_RUNS (10) runs of lt against lt --work-ns W
#      until-N.json  UNTIL_RUNS (3) runs of the same slowdown with --until-decided --max-time MAX_TIME
#   Every run but the until-decided ones: FORKS forks of ROUNDS rounds of SLICE slices, WARMUP per
#   server per fork, --threshold THRESHOLD, CONNECTIONS keep-alive echo connections.
# The time, with the defaults (FORKS=4 ROUNDS=3 SLICE=0.5s WARMUP=1s), on 2 quiet cores: a fork
# starts two JVMs (about 3 s), warms each up (2 s), runs 3 rounds of two 0.5 s slices (3 s) and
# stops them (about 1 s): about 9 s, so a run of 4 forks takes about 36 s and the 40 runs of
# 2 about 24 min; the calibration's pilots (3 forks of 3 rounds, about 27 s each) at most 6 x 27 s
# = 2.7 min; the until-decided runs at most 3 x 60 s = 3 min: about 30 min in all. The defaults are
# sized to that budget, not to power: `echo-bench compare --plan` says what a design detects, and
# FORKS=8 doubles the 24 min.
# Environment: FORKS (4), ROUNDS (3), SLICE (0.5s), WARMUP (1s), THRESHOLD (2%), CONNECTIONS (50),
# AA_RUNS (20), AB_RUNS (10), SLOW_RUNS (10), UNTIL_RUNS (3), MAX_TIME (60s), TARGET_RATIO (0.95),
# TOLERANCE (0.01), WORK_NS (250: the first pilot's W), CAL_FORKS (3), CAL_ROUNDS (3), CAL_STEPS (6),
# FORK_GAP (0: compare's --fork-gap, a pause between forks that lets drift into the interval; it adds
# FORKS - 1 gaps to every run),
# SERVER_CPU (0), CLIENT_CPU (1), SEED (random: the order of the runs),
# RESULTS_DIR (experiments/results/noise/calibrated; elsewhere, exp-noise is rendered in a scratch copy).
# Kept there: every run's --json and printout, runs.csv (each run's kind, end, seconds and load),
# calibration.csv (each pilot's W and ratio), settings.csv (the design, W, its ratio, the load
# before and after), env.json and conditions.json; the folder replaces the old one only when the
# run is complete. The interference share is in every slice of the JSON files, and the report says it.
set -euo pipefail
NAME=noise
RESULTS_DIR=${RESULTS_DIR:-experiments/results/noise/calibrated}
source "$(dirname "${BASH_SOURCE[0]}")/../experiments/scripts/common.sh"
command -v jq >/dev/null || { echo "error: noise-calibrate needs jq (Debian: apt-get install jq)" >&2; exit 1; }
FORKS=${FORKS:-4} ROUNDS=${ROUNDS:-3} SLICE=${SLICE:-0.5s} WARMUP=${WARMUP:-1s} THRESHOLD=${THRESHOLD:-2%} CONNECTIONS=${CONNECTIONS:-50}
AA_RUNS=${AA_RUNS:-20} AB_RUNS=${AB_RUNS:-10} SLOW_RUNS=${SLOW_RUNS:-10} UNTIL_RUNS=${UNTIL_RUNS:-3} MAX_TIME=${MAX_TIME:-60s}
TARGET_RATIO=${TARGET_RATIO:-0.95} TOLERANCE=${TOLERANCE:-0.01} WORK_NS=${WORK_NS:-250}
CAL_FORKS=${CAL_FORKS:-3} CAL_ROUNDS=${CAL_ROUNDS:-3} CAL_STEPS=${CAL_STEPS:-6} SEED=${SEED:-$RANDOM} FORK_GAP=${FORK_GAP:-0}
LOAD_BEFORE=$(cut -d' ' -f1 /proc/loadavg)
echo "run,kind,finished,seconds,load" >"$RESULTS/runs.csv"

# run OUT KIND DESIGN... -- SERVERS...: one compare, its JSON and printout kept, its time in runs.csv;
# DESIGN is --forks F --rounds R or --until-decided --max-time T (compare refuses both together).
run() {
  local out=$1 kind=$2 t0=$EPOCHREALTIME design=()
  shift 2
  while [ "$1" != -- ]; do design+=("$1"); shift; done
  shift
  echo "# $out: ${design[*]}" >&2
  client_pin "$ROOT/bin/echo-bench" compare -c "$CONNECTIONS" -k --slice "$SLICE" --warmup "$WARMUP" --threshold "$THRESHOLD" \
    --start-timeout "${READY_TIMEOUT:-60}s" --fork-gap "$FORK_GAP" --seed "$RANDOM" "${design[@]}" --json "$RESULTS/$out.json" "$@" \
    >"$RESULTS/$out.txt" 2>&1 || echo "warning: $out: compare exited non-zero (see $out.txt)" >&2
  printf '%s,%s,%s,%s,%s\n' "$out" "$kind" "$(date -u +%FT%TZ)" \
    "$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')" "$(cut -d' ' -f1 /proc/loadavg)" >>"$RESULTS/runs.csv"
}

# ratio OUT SERVER: SERVER's rate over the baseline's in OUT.json, as compare estimated it; empty if none
ratio() {
  jq -r --arg s "$2" '.summary.comparisons[]? | select(.server == $s) | .rate.estimate // empty' "$RESULTS/$1.json" 2>/dev/null || true
}

# 1. the calibration: the pilots' W and ratios; the next W from the bracket's midpoint once the
# target is bracketed, before that from the cost model (a request's cost c grows by W: the ratio
# r = c / (c + W), so W = c (1 - r) / r), kept within a factor of 4 of the last W
echo "step,work_ns,ratio" >"$RESULTS/calibration.csv"
work=$WORK_NS lo= hi= best= best_ratio= best_miss=
for step in $(seq "$CAL_STEPS"); do
  run "cal-$step" calibration --forks "$CAL_FORKS" --rounds "$CAL_ROUNDS" -- \
    lt="$(server_command lt)" slow="$(server_command lt --work-ns "$work")"
  r=$(ratio "cal-$step" slow)
  [ -n "$r" ] || { echo "warning: pilot $step gave no ratio; W stays $work" >&2; continue; }
  echo "$step,$work,$r" >>"$RESULTS/calibration.csv"
  miss=$(awk -v r="$r" -v t="$TARGET_RATIO" 'BEGIN { d = r - t; print d < 0 ? -d : d }')
  if [ -z "$best" ] || awk -v m="$miss" -v b="$best_miss" 'BEGIN { exit !(m < b) }'; then best=$work best_ratio=$r best_miss=$miss; fi
  echo "# pilot $step: --work-ns $work gives $r (target $TARGET_RATIO ± $TOLERANCE)" >&2
  awk -v m="$miss" -v t="$TOLERANCE" 'BEGIN { exit !(m <= t) }' && break
  # too little slowdown: W is a lower bound; too much: an upper one
  if awk -v r="$r" -v t="$TARGET_RATIO" 'BEGIN { exit !(r > t) }'; then lo=$work; else hi=$work; fi
  if [ -n "$lo" ] && [ -n "$hi" ]; then
    work=$(( (lo + hi) / 2 ))
  else
    work=$(awk -v w="$work" -v r="$r" -v t="$TARGET_RATIO" 'BEGIN {
      n = (r >= 1) ? w * 2 : w * ((1 - t) / t) / ((1 - r) / r)
      if (n > 4 * w) n = 4 * w; if (n < w / 4) n = w / 4; printf "%d", n < 1 ? 1 : n }')
  fi
done
[ -n "$best" ] || { echo "error: no calibration pilot gave a ratio (see $RESULTS/cal-*.txt)" >&2; exit 1; }
WORK_NS=$best
echo "# calibrated: --work-ns $WORK_NS, measured ratio $best_ratio" >&2

# 2. the runs, in one random order
{
  for i in $(seq "$AA_RUNS"); do echo "aa $i"; done
  for i in $(seq "$AB_RUNS"); do echo "vt $i"; done
  for i in $(seq "$SLOW_RUNS"); do echo "slow $i"; done
  for i in $(seq "$UNTIL_RUNS"); do echo "until $i"; done
} | shuf --random-source=<(yes "$SEED") >"$RESULTS/tmp/order"
design=(--forks "$FORKS" --rounds "$ROUNDS")
while read -r kind i; do
  case $kind in
    aa) run "aa-$i" aa "${design[@]}" -- lt-a="$(server_command lt)" lt-b="$(server_command lt)" ;;
    vt) run "vt-$i" vt "${design[@]}" -- lt="$(server_command lt)" vt="$(server_command vt)" ;;
    slow) run "slow-$i" slow "${design[@]}" -- lt="$(server_command lt)" slow="$(server_command lt --work-ns "$WORK_NS")" ;;
    until) run "until-$i" until --until-decided --max-time "$MAX_TIME" --rounds "$ROUNDS" -- \
             lt="$(server_command lt)" slow="$(server_command lt --work-ns "$WORK_NS")" ;;
  esac
done <"$RESULTS/tmp/order"

{
  echo "key,value"
  for k in FORKS ROUNDS SLICE WARMUP THRESHOLD CONNECTIONS AA_RUNS AB_RUNS SLOW_RUNS UNTIL_RUNS MAX_TIME TARGET_RATIO TOLERANCE \
           CAL_FORKS CAL_ROUNDS CAL_STEPS SEED FORK_GAP; do
    echo "${k,,},${!k}"
  done
  echo "work_ns,$WORK_NS"; echo "work_ratio,$best_ratio"; echo "nice,$(nice)"
  echo "load_before,$LOAD_BEFORE"; echo "load_after,$(cut -d' ' -f1 /proc/loadavg)"
} >"$RESULTS/settings.csv"
conditions_end "$RESULTS"
rm -rf "$RESULTS/tmp"
publish_results

# exp-noise again, its section 3.9 from these results; a run kept elsewhere renders in a scratch copy
experiments=$ROOT/experiments
if [ "$FINAL_RESULTS" != "$ROOT/experiments/results/noise/calibrated" ]; then
  experiments=$(mktemp -d "${TMPDIR:-/tmp}/niolab-report.XXXXXX")
  cp -r "$ROOT/experiments/." "$experiments/"
  rm -rf "$experiments/results/noise/calibrated"
  cp -r "$FINAL_RESULTS" "$experiments/results/noise/calibrated"
fi
java -jar "$ROOT/experiments/reports/target/reports.jar" "$experiments" noise
echo "# kept in $FINAL_RESULTS; report: $experiments/exp-noise.md"
