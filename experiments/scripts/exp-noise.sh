#!/usr/bin/env bash
# exp-noise: how noise behaves on the machine that runs it, measured with `echo-bench compare`
# (scripts/compare.sh: servers on SERVER_CPU, the client on CLIENT_CPU, 50 keep-alive echo
# connections). Every design gets the same budget, BUDGET_S seconds of load per server:
#   slice-0.25.json, slice-1.json, slice-4.json   A/A, lt against lt, slices of 0.25, 1 and 4 s
#                                                  (BUDGET_S / slice rounds), each round in random order
#   seq-a.json, seq-b.json                         the same budget in sequential rounds: lt-a's
#                                                  rounds, then lt-b's (the reports' old design)
#   hog.json                                       A/A, 1 s slices, a CPU hog (a busy shell loop) on
#                                                  SERVER_CPU from HOG_START_S to HOG_END_S into the run
#   ab-1.json .. ab-AB_RUNS.json                   vt against lt, 1 s slices, AB_RUNS runs AB_GAP_S
#                                                  apart (default 5 runs, 720 s apart); with
#                                                  AB_GAP_WORK="CMD1;;CMD2;;...", gap I runs CMDI
#                                                  (other experiments, say) and sleeps the rest
# The generator computes every interval from the slices (paired per round; fixed order read off
# the random-order rounds by which server went first). The A/B runs' gaps make the default
# run long; BUDGET_S=16 AB_RUNS=5 AB_GAP_S=0 make exp-noise is a short one.
set -euo pipefail
NAME=noise
NOISE=0 # the whole experiment is the noise: no separate floor after it (the report takes slice-1.json's A/A)
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
BUDGET_S=${BUDGET_S:-40}
AB_RUNS=${AB_RUNS:-5}
AB_GAP_S=${AB_GAP_S:-720}
HOG_START_S=${HOG_START_S:-$((BUDGET_S / 2))}
HOG_END_S=${HOG_END_S:-$((BUDGET_S * 3 / 2))}
LOAD=(-c 50 -k --warmup 2s)
# the catalog's A/A twin (lt: NAME-a, NAME-b) and A/B pair (vt against lt, the baseline first)
AA=$(selection noise)
AA_PAIR=("$AA-a:$(server_words "$AA")" "$AA-b:$(server_words "$AA")")
AB_PAIR=()
for s in $(selection noise-ab); do AB_PAIR+=("$s:$(server_words "$s")"); done

# compare OUT SLICE_S ROUNDS SPEC...: one `echo-bench compare` run, its JSON kept as OUT.
compare() {
  local out=$1 slice=$2 rounds=$3
  shift 3
  echo "# $out: ${slice}s slices, $rounds rounds: $*"
  PORT=$EXP_PORT bash "$ROOT/scripts/compare.sh" "$@" -- "${LOAD[@]}" --slice "${slice}s" --rounds "$rounds" \
    --seed "$RANDOM" --json "$RESULTS/$out" >"$RESULTS/${out%.json}.txt" 2>&1 \
    || echo "warning: $out: compare exited non-zero (see ${out%.json}.txt)" >&2
}

rounds_for() {
  awk -v b="$BUDGET_S" -v s="$1" 'BEGIN { printf "%d", b / s }'
}

for slice in 0.25 1 4; do
  compare "slice-$slice.json" "$slice" "$(rounds_for "$slice")" "${AA_PAIR[@]}"
done
compare seq-a.json 1 "$BUDGET_S" "${AA_PAIR[0]}"
compare seq-b.json 1 "$BUDGET_S" "${AA_PAIR[1]}"

# the hog: a busy loop on the servers' core for part of the run; timeout ends it, and so does
# the exit trap if the run is stopped first (timeout passes the signal on to the loop)
( sleep "$HOG_START_S"; exec timeout "$((HOG_END_S - HOG_START_S))" taskset -c "${SERVER_CPU:-0}" bash -c 'while :; do :; done' ) &
HOG_PID=$!
trap 'kill "$HOG_PID" 2>/dev/null; stop_server' EXIT
compare hog.json 1 "$BUDGET_S" "${AA_PAIR[@]}"
wait "$HOG_PID" 2>/dev/null || true
trap stop_server EXIT

# gap I: AB_GAP_WORK's Ith command (the machine in use, as a shared machine is between two
# measurements), then sleep for what remains of AB_GAP_S; gaps.csv says what ran in each
GAP_WORK=()
[ -n "${AB_GAP_WORK:-}" ] && mapfile -t GAP_WORK < <(printf '%s' "$AB_GAP_WORK" | sed 's/;;/\n/g')
echo "gap,work,work_s,slept_s" >"$RESULTS/gaps.csv"
for i in $(seq 1 "$AB_RUNS"); do
  if [ "$i" -gt 1 ]; then
    gap=$((i - 1)) t0=$SECONDS work=${GAP_WORK[$((i - 2))]:-}
    if [ -n "$work" ]; then
      echo "# gap $gap: $work"
      (cd "$ROOT" && bash -c "$work") </dev/null || echo "warning: gap $gap: '$work' failed" >&2
    fi
    used=$((SECONDS - t0)) rest=$((AB_GAP_S - (SECONDS - t0)))
    [ "$rest" -gt 0 ] || rest=0
    sleep "$rest"
    echo "$gap,${work//,/;},$used,$rest" >>"$RESULTS/gaps.csv"
  fi
  compare "ab-$i.json" 1 "$BUDGET_S" "${AB_PAIR[@]}"
done

{
  echo "key,value"
  echo "budget_s,$BUDGET_S"
  echo "ab_runs,$AB_RUNS"
  echo "ab_gap_s,$AB_GAP_S"
  echo "hog_start_s,$HOG_START_S"
  echo "hog_end_s,$HOG_END_S"
} >"$RESULTS/settings.csv"
report
