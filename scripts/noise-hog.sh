#!/usr/bin/env bash
# make noise-hog: REPEATS (20) A/A comparisons, lt against lt at 50 keep-alive connections,
# ROUNDS (20) rounds of SLICE (1s), with a CPU hog (a busy shell loop) on the servers' core
# SERVER_CPU (0) throughout; counts the verdicts that call a difference (faster or slower). A 95% interval
# errs about once in twenty by design: more than two of twenty means the interval is too narrow
# for the noise. Each repeat starts a fresh pair of servers, in random order, and warms both:
# two processes of the same code differ by their own luck (JIT, placement), and a pair kept up
# across the repeats made that one difference count twenty times (four "lt-b slower" of twenty).
# Environment: PORT (9988), REPEATS, ROUNDS, SLICE, CONNECTIONS (50), SERVER_CPU, CLIENT_CPU (1),
# RESULTS_DIR (each repeat's --json kept there as aa-N.json, with env.json and settings.csv;
# default: a temp dir, removed). exp-noise's report counts the verdicts of the comparisons kept
# in experiments/results/noise/hog-repeats/ (RESULTS_DIR=experiments/results/noise/hog-repeats).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
PORT=${PORT:-9988} SERVER_CPU=${SERVER_CPU-0} CLIENT_CPU=${CLIENT_CPU-1}
REPEATS=${REPEATS:-20} ROUNDS=${ROUNDS:-20} SLICE=${SLICE:-1s} CONNECTIONS=${CONNECTIONS:-50}
dir=${RESULTS_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/niolab-noise-hog.XXXXXX")}
mkdir -p "$dir"

A_PID= A_LOG= B_PID= B_LOG= HOG_PID=
cleanup() {
  if [ -n "$HOG_PID" ]; then kill "$HOG_PID" 2>/dev/null || true; wait "$HOG_PID" 2>/dev/null || true; fi
  stop_pair
  [ -n "${RESULTS_DIR:-}" ] || rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

stop_pair() {
  SERVER_PID=$A_PID SERVER_LOG=$A_LOG; stop_server quiet
  SERVER_PID=$B_PID SERVER_LOG=$B_LOG; stop_server quiet
  A_PID= B_PID=
}
# start_pair: the catalog's A/A twin (lt), NAME-a on PORT and NAME-b on PORT+1, the one started first picked at random
AA=$(selection noise)
read -r -a AA_WORDS <<<"$(server_words "$AA")"
start_pair() {
  if [ $((RANDOM % 2)) = 0 ]; then
    start_server "${AA_WORDS[0]}" "$PORT" "${AA_WORDS[@]:1}"; A_PID=$SERVER_PID A_LOG=$SERVER_LOG
    start_server "${AA_WORDS[0]}" "$((PORT + 1))" "${AA_WORDS[@]:1}"; B_PID=$SERVER_PID B_LOG=$SERVER_LOG
  else
    start_server "${AA_WORDS[0]}" "$((PORT + 1))" "${AA_WORDS[@]:1}"; B_PID=$SERVER_PID B_LOG=$SERVER_LOG
    start_server "${AA_WORDS[0]}" "$PORT" "${AA_WORDS[@]:1}"; A_PID=$SERVER_PID A_LOG=$SERVER_LOG
  fi
  SERVER_PID= SERVER_LOG=
}
load_before=$(cut -d' ' -f1 /proc/loadavg)
[ -z "${RESULTS_DIR:-}" ] || { rm -f "$dir"/aa-*.json; env_json >"$dir/env.json"; }
# shellcheck disable=SC2046
$(pin_prefix "${SERVER_CPU:-}") bash -c 'while :; do :; done' &
HOG_PID=$!
echo "# $REPEATS A/A comparisons (a fresh pair of lt servers each on cpu ${SERVER_CPU:-unpinned}, a CPU hog pid $HOG_PID there too)," \
  "-c $CONNECTIONS -k, $ROUNDS rounds of $SLICE; load average $(cut -d' ' -f1-3 /proc/loadavg)"
other=0
for r in $(seq "$REPEATS"); do
  start_pair
  out=$(client_pin "$NIOLAB_HOME/bin/echo-bench" compare -c "$CONNECTIONS" -k --rounds "$ROUNDS" --slice "$SLICE" --warmup 2s \
    --json "$dir/aa-$r.json" "$AA-a=127.0.0.1:$PORT,pid=$A_PID" "$AA-b=127.0.0.1:$((PORT + 1)),pid=$B_PID")
  stop_pair
  line=$(grep -E "^$AA-b +rate " <<<"$out" | sed -E "s/^$AA-b +rate +//")
  echo "repeat $r: $line"
  case $line in
    *"no difference"*|*"the same within"*|*undecided*) ;;
    *faster*|*slower*) other=$((other + 1)) ;;
    *) echo "error: repeat $r reached no verdict (more rounds or longer slices)" >&2; exit 1 ;;
  esac
done
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ -n "${RESULTS_DIR:-}" ]; then
  printf 'key,value\nrepeats,%s\nrounds,%s\nslice,%s\nconnections,%s\nserver_cpu,%s\nclient_cpu,%s\nload_before,%s\nload_after,%s\n' \
    "$REPEATS" "$ROUNDS" "$SLICE" "$CONNECTIONS" "${SERVER_CPU:-}" "${CLIENT_CPU:-}" "$load_before" "$(cut -d' ' -f1 /proc/loadavg)" \
    >"$dir/settings.csv"
fi
echo "verdicts that call a difference: $other of $REPEATS (a 95% interval: about 1 by design; the target: at most 2)"
