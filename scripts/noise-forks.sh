#!/usr/bin/env bash
# make noise-forks: does a comparison's interval survive a rerun, and what can this machine detect?
# Two studies of `echo-bench compare` with servers given as commands (a fresh process of each per
# fork), run in CYCLES cycles GAP_S apart, every cycle in a fresh random order of its runs:
#   calibration  vt against lt, 50 keep-alive echo connections, once per cycle: FORKS forks of
#                ROUNDS_FN rounds each (the question is whether one run's interval holds the next
#                run's estimate); compare refuses fewer than 3 forks of servers it starts
#   power        lt against lt --work-ns N, N sized to slow lt by each of SLOWDOWNS percent
#                (0 = A/A), FORKS forks of ROUNDS_FN rounds, compare's threshold (2% unless
#                THRESHOLD is given): which runs call B slower, which call anything
# N is sized once, before the first cycle, from lt's keep-alive echo rate R measured here: a
# request takes 1/R of the server's core, and N ns more slow it by x when N = x / (1 - x) / R.
# Environment: CYCLES (6), GAP_S (600: an hour with the defaults), FORKS (3), ROUNDS_FN (6), THRESHOLD (2%), SLICE (1s), CONNECTIONS (50), SLOWDOWNS ("0 2 5 10"), STUDIES ("calibration power"),
# SERVER_CPU (0), CLIENT_CPU (1), RESULTS_DIR (experiments/results/noise/forks).
# Every run's --json and printout are kept there, with runs.csv (what ran when, how long) and
# settings.csv; exp-noise's sections 3.7 and 3.8 are computed from them.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
SERVER_CPU=${SERVER_CPU-0} CLIENT_CPU=${CLIENT_CPU-1}
CYCLES=${CYCLES:-6} GAP_S=${GAP_S:-600} FORKS=${FORKS:-3} ROUNDS_FN=${ROUNDS_FN:-6} THRESHOLD=${THRESHOLD:-2%}
SLICE=${SLICE:-1s} CONNECTIONS=${CONNECTIONS:-50} SLOWDOWNS=${SLOWDOWNS:-0 2 5 10} STUDIES=${STUDIES:-calibration power}
dir=${RESULTS_DIR:-$NIOLAB_HOME/experiments/results/noise/forks}
rm -rf "$dir"
mkdir -p "$dir"
env_json >"$dir/env.json"

server() { # server ARCH [OPTIONS...]: the command compare starts once per fork
  echo "$(pin_prefix "${SERVER_CPU:-}") $NIOLAB_HOME/bin/lab-server $* --port {port}"
}
compare() { # compare OUT ARGS...: one compare run on the client CPU, its JSON and printout kept
  local out=$1 t0=$EPOCHREALTIME
  shift
  client_pin "$NIOLAB_HOME/bin/echo-bench" compare -c "$CONNECTIONS" -k --slice "$SLICE" --warmup 2s --threshold "$THRESHOLD" \
    --json "$dir/$out.json" "$@" \
    >"$dir/$out.txt" 2>&1 || echo "warning: $out: compare exited non-zero (see $dir/$out.txt)" >&2
  printf '%s,%s,%s,%s\n' "$out" "$(date -u +%FT%TZ)" "$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')" \
    "$(cut -d' ' -f1 /proc/loadavg)" >>"$dir/runs.csv"
  echo "# $out: $(grep -m1 -E '^[^ #]+ +rate ' "$dir/$out.txt" | tail -1 || true)"
}

free_port() { # a port nothing listens on, from the unprivileged range
  local p _
  for _ in $(seq 50); do
    p=$((20000 + RANDOM % 40000))
    ss -Hltn "sport = :$p" | grep -q . || { echo "$p"; return 0; }
  done
  return 1
}

work_ns=()
if [[ " $STUDIES " == *" power "* ]]; then
  # lt's rate alone, keep-alive echo, after a warm-up: what one request costs its core
  port=$(free_port)
  start_server lt "$port"
  client_pin "$NIOLAB_HOME/bin/echo-bench" -c "$CONNECTIONS" -k --warmup 3s -d 5s --csv "$dir/lt-rate.csv" "127.0.0.1:$port" >/dev/null
  rate=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "qps") c = i } NR == 2 { print $c }' "$dir/lt-rate.csv")
  stop_server quiet
  [ -n "$rate" ] || { echo "error: could not measure lt's rate to size --work-ns" >&2; exit 1; }
  for x in $SLOWDOWNS; do work_ns+=("$(awk -v x="$x" -v r="$rate" 'BEGIN { printf "%d", x / 100 / (1 - x / 100) / r * 1e9 }')"); done
  echo "# lt serves $rate requests/s here: --work-ns ${work_ns[*]} for slowdowns of $SLOWDOWNS %"
fi
{
  echo "key,value"
  echo "cycles,$CYCLES"; echo "gap_s,$GAP_S"; echo "forks,$FORKS"; echo "rounds_fn,$ROUNDS_FN"; echo "threshold,$THRESHOLD"
  echo "slice,$SLICE"; echo "connections,$CONNECTIONS"; echo "studies,$STUDIES"; echo "slowdowns,$SLOWDOWNS"
  echo "lt_rate,${rate:-}"; echo "nice,$(nice)"; echo "work_ns,${work_ns[*]:-}"; echo "load_before,$(cut -d' ' -f1 /proc/loadavg)"
} >"$dir/settings.csv"
echo "run,finished,seconds,load" >"$dir/runs.csv"

slowdowns=($SLOWDOWNS)
for cycle in $(seq "$CYCLES"); do
  t0=$SECONDS
  runs=()
  [[ " $STUDIES " == *" calibration "* ]] && runs+=("f$FORKS")
  [[ " $STUDIES " == *" power "* ]] && for i in "${!slowdowns[@]}"; do runs+=("w$i"); done
  for run in $(printf '%s\n' "${runs[@]}" | shuf); do
    case $run in
      f*) compare "cal-f$FORKS-$cycle" --forks "$FORKS" --rounds "$ROUNDS_FN" lt="$(server lt)" vt="$(server vt)" ;;
      w*) i=${run#w}
          compare "power-${slowdowns[$i]}-$cycle" --forks "$FORKS" --rounds "$ROUNDS_FN" \
            lt="$(server lt)" slow="$(server lt --work-ns "${work_ns[$i]}")" ;;
    esac
  done
  if [ "$cycle" -lt "$CYCLES" ]; then
    rest=$((GAP_S - (SECONDS - t0)))
    [ "$rest" -le 0 ] || { echo "# cycle $cycle done; the next in ${rest}s"; sleep "$rest"; }
  fi
done
echo "load_after,$(cut -d' ' -f1 /proc/loadavg)" >>"$dir/settings.csv"
echo "# kept in $dir"
