# Shared by the experiment scripts (experiments/scripts/exp-*.sh). Source it after setting NAME.
# It builds the project if needed, makes a fresh results folder with env.json, pins by default
# (server on CPU 0, client on CPU 1: override with SERVER_CPU= / CLIENT_CPU=), and offers
# echo_bench, which runs echo-bench against the running server. Servers, pinning and /proc
# samples come from scripts/lib.sh. Raw files too large to keep (proc_sample's) go to
# $RESULTS/tmp/, which git ignores.
# A run writes into NAME.partial/ beside its results folder; report() renames it into place once
# the run is complete (publish_results), so an interrupted or killed run leaves the old results
# whole, and what it measured in NAME.partial/.
# RESULTS_DIR=DIR: the results go to DIR (replaced when the run is complete) instead of
# experiments/results/NAME (a smoke run); the report is then rendered in a scratch copy of
# experiments/, never over the committed one.
# FORKS=F: an experiment that supports it runs its rate comparisons through `echo-bench compare
# --forks F` with its servers as commands (FORK_ARGS, server_command): every fork starts fresh
# server processes, so an interval spans processes, where the variance between runs lives.
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
source scripts/lib.sh
: "${NAME:?set NAME before sourcing common.sh}"
FINAL_RESULTS=${RESULTS_DIR:-$ROOT/experiments/results/$NAME}
case $FINAL_RESULTS in /*) ;; *) FINAL_RESULTS=$ROOT/$FINAL_RESULTS ;; esac
RESULTS=$FINAL_RESULTS.partial
# the A/A twin compare would add is left out: the run's threshold comes from its noise floor
# (noise.json, itself measured in forks when FORKS is set)
FORK_ARGS=()
# a server gets as long to listen as start_server gives it (READY_TIMEOUT)
[ -z "${FORKS:-}" ] || FORK_ARGS=(--forks "$FORKS" --start-timeout "${READY_TIMEOUT:-60}s")
export SERVER_CPU=${SERVER_CPU-0}
export CLIENT_CPU=${CLIENT_CPU-1}
EXP_PORT=${EXP_PORT:-29988}

make -s all >/dev/null
catalog_load # the servers' catalog, once (scripts/lib.sh: selection, catalog_field, server_words)
rm -rf "$RESULTS"
mkdir -p "$RESULTS/tmp"
env_json >"$RESULTS/env.json"
conditions_begin "$RESULTS"
trap stop_server EXIT
trap 'exit 130' INT TERM

# echo_bench ARGS...: echo-bench on the client CPU against the running server, with its PID
# (CPU per request), never failing the script: errors are data here, recorded in the JSON.
echo_bench() {
  client_pin "$ROOT/bin/echo-bench" --server-pid "$SERVER_PID" "$@" "127.0.0.1:$EXP_PORT" || true
}

# stop_keep_log FILE: stops the server, keeping its whole output (counters last) in FILE.
stop_keep_log() {
  SERVER_LOG_COPY=$1 stop_server quiet
}
# stop_servers LOG_PATTERN: stops every server a script keeps up at once in its associative arrays
# PID and LOG (keyed by the script's own names), each one's output kept in LOG_PATTERN with @ as its key.
stop_servers() {
  local key
  for key in "${!PID[@]}"; do
    SERVER_PID=${PID[$key]} SERVER_LOG=${LOG[$key]}
    stop_keep_log "${1//@/$key}"
    unset "PID[$key]"
  done
}

# publish_results: the run is complete: its folder replaces the old results (each rename atomic;
# the old folder is set aside first and removed after), and RESULTS names it from now on.
publish_results() {
  [ "$RESULTS" != "$FINAL_RESULTS" ] || return 0
  rm -rf "$FINAL_RESULTS.old"
  if [ -d "$FINAL_RESULTS" ]; then mv "$FINAL_RESULTS" "$FINAL_RESULTS.old"; fi
  mv "$RESULTS" "$FINAL_RESULTS"
  rm -rf "$FINAL_RESULTS.old"
  RESULTS=$FINAL_RESULTS
}

# report: records the machine's state over the run (conditions.json: load average before and
# after, steal time; with NOISE=1, the default, the noise floor measured now by scripts/noise.sh,
# in noise.json, in FORKS forks when set), puts the results in place (publish_results), then
# regenerates experiments/exp-$NAME.md from them; with RESULTS_DIR, in a scratch copy of
# experiments/ whose path it prints.
report() {
  if [ "${NOISE:-1}" = 1 ]; then
    stop_server quiet
    PORT=$EXP_PORT JSON=$RESULTS/noise.json bash "$ROOT/scripts/noise.sh" >"$RESULTS/noise.txt" 2>&1 \
      || echo "warning: make noise failed (see $RESULTS/noise.txt)" >&2
  fi
  conditions_end "$RESULTS" "$([ -f "$RESULTS/noise.json" ] && echo "$RESULTS/noise.json")"
  publish_results
  local experiments=$ROOT/experiments
  if [ -n "${RESULTS_DIR:-}" ]; then
    experiments=$(mktemp -d "${TMPDIR:-/tmp}/niolab-report.XXXXXX")
    cp -r "$ROOT/experiments/." "$experiments/"
    rm -rf "$experiments/results/$NAME"
    cp -r "$RESULTS" "$experiments/results/$NAME"
  fi
  java -jar "$ROOT/experiments/reports/target/reports.jar" "$experiments" "$NAME"
  [ -z "${RESULTS_DIR:-}" ] || echo "report (scratch copy): $experiments/exp-$NAME.md"
}

# ready_ms FILE KEY CPUS ARCH [OPTIONS...]: starts bin/lab-server on CPUS and stops it at its
# ready line, read line by line through a FIFO so that it is seen the moment it comes. Sets
# READY_T0 and READY_T1 (EPOCHREALTIME at the exec and at the ready line: `summarize runs` makes
# elapsed_ms of them) and samples the server and its workers into FILE under KEY then (cpu_ms).
ready_ms() {
  local file=$1 key=$2 cpus=$3 fifo line fd rw
  shift 3
  fifo=$(mktemp -u "${TMPDIR:-/tmp}/niolab-ready.XXXXXX")
  mkfifo "$fifo"
  READY_T1=
  # tethered opens the FIFO in this shell: a reader must hold it first, or the open would wait for one
  exec {rw}<>"$fifo"
  READY_T0=$EPOCHREALTIME
  tethered taskset -c "$cpus" "$ROOT/bin/lab-server" "$@" --port "$EXP_PORT" >"$fifo" 2>&1
  SERVER_PID=$TETHERED_PID
  exec {fd}<"$fifo"
  exec {rw}<&-
  while IFS= read -r -t 60 -u "$fd" line; do
    if ready_line <<<"$line" >/dev/null; then
      READY_T1=$EPOCHREALTIME
      proc_sample "$file" "$key" "$SERVER_PID" tree
      break
    fi
  done
  stop_server quiet
  exec {fd}<&-
  rm -f "$fifo"
  [ -n "$READY_T1" ] || { echo "error: lab-server $* did not get ready" >&2; return 1; }
}

# compare_servers OUT NAME:ARCH[ OPTIONS]... -- COMPARE-OPTIONS...: one `echo-bench compare` of
# fresh servers (scripts/compare.sh: ports from EXP_PORT up, pinned like the others, each
# stopped after), its JSON kept as $RESULTS/OUT and its printout beside it (.txt); a failed
# compare is a warning, not the end of the run: the report names what is missing.
compare_servers() {
  local out=$1
  shift
  echo "# $out: $*" >&2
  PORT=$EXP_PORT bash "$ROOT/scripts/compare.sh" "$@" --json "$RESULTS/$out" >"$RESULTS/${out%.json}.txt" 2>&1 \
    || echo "warning: $out: compare exited non-zero (see ${out%.json}.txt)" >&2
}

# start_server_free ARCH PORT [OPTIONS...]: start_server on PORT or, when a client's connection
# holds that port (a port inside the ephemeral range, on a busy machine), on the next free one,
# up to 20 ports on; sets SERVER_PORT.
start_server_free() {
  local arch=$1 errors tries
  SERVER_PORT=$2
  shift 2
  errors=$(mktemp "${TMPDIR:-/tmp}/niolab-start.XXXXXX")
  for tries in $(seq 20); do
    if start_server "$arch" "$SERVER_PORT" "$@" 2>"$errors"; then
      cat "$errors" >&2
      rm -f "$errors"
      return 0
    fi
    grep -q 'is already in use' "$errors" && [ "$tries" -lt 20 ] || break
    SERVER_PORT=$((SERVER_PORT + 1))
  done
  cat "$errors" >&2
  rm -f "$errors"
  return 1
}
