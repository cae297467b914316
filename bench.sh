#!/usr/bin/env bash
# bench.sh: the lab write-up's concurrency run. C clients start at once, each one short TCP
# connection that echoes one line; QPS = C / wall time until the last client is done. Against
# each architecture in turn, starting and stopping its server here.
#
#   bash bench.sh [C]                      C concurrent clients (default 100) against each server
#   bash bench.sh --sweep 10 20 30 40 50   the sweep table: Concurrency | LT QPS | ET QPS | MP QPS
#
# Environment: ARCHS (the catalog's: bin/lab-server catalog --selection bench), PORT (9988), WORKERS (mp, 4), CLIENT (nc, or echo-bench for its
# concurrent short-connection mode: same work without a process per client, after BENCH_WARMUP
# (1000) uncounted requests), NC_TIMEOUT (5 s bound on each nc), SERVER_CPU (taskset pinning of
# the server), BENCH_CSV (append the results to this CSV file). Exit 0 when every architecture
# started and every client got its echo back. The rates come from the report generator's
# `summarize runs` (make all builds it), which computes them from what the clients did.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
source scripts/lib.sh

PORT=${PORT:-9988}
CLIENT=${CLIENT:-nc}
NC_TIMEOUT=${NC_TIMEOUT:-5}

usage() {
  sed -n '2,13p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

sweep=()
case "${1:-}" in
  -h|--help) usage ;;
  --sweep) shift; sweep=("$@"); [ ${#sweep[@]} -gt 0 ] || usage ;;
  "") sweep=(100) ;;
  *) [ $# -eq 1 ] || usage; sweep=("$1") ;;
esac
for c in "${sweep[@]}"; do
  [[ "$c" =~ ^[1-9][0-9]*$ ]] || { echo "error: '$c' is not a number of clients" >&2; exit 2; }
done

case "$CLIENT" in
  nc)
    if ! command -v nc >/dev/null 2>&1; then
      echo "error: bench.sh needs nc, the OpenBSD netcat (Debian/Ubuntu: apt-get install netcat-openbsd)" >&2
      exit 1
    fi
    if ! nc -h 2>&1 | grep -q -- '-N'; then
      echo "error: this nc has no -N (shut down the socket after EOF on stdin): install netcat-openbsd" >&2
      exit 1
    fi ;;
  echo-bench) require_fresh_jars echo-bench/target/echo-bench.jar ;;
  *) echo "error: CLIENT must be nc or echo-bench, not '$CLIENT'" >&2; exit 2 ;;
esac
# once here rather than at each server's start: a stale jar stops the run before it begins
require_fresh_jars lab-servers/target/lab-servers.jar experiments/reports/target/reports.jar
ARCHS=${ARCHS:-$(selection bench)}

WORKDIR=$(mktemp -d "${TMPDIR:-/tmp}/niolab-bench.XXXXXX")
CLIENT_PIDS=()
cleanup() {
  # the client PIDs are timeout's: TERM makes timeout stop its nc as well
  local p
  for p in "${CLIENT_PIDS[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  for p in "${CLIENT_PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
  CLIENT_PIDS=()
  stop_server quiet
  rm -rf "$WORKDIR"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# run_nc C and run_echo_bench C add the run to $RUNS (arch,clients,requests,errors,t0,t1,table:
# what `summarize runs` computes qps, errors and elapsed_s from). They run in this shell, not in
# a $(...) subshell, so that an interrupt reaches the trap while clients are out.
RUNS=$WORKDIR/runs.csv
echo "arch,clients,requests,errors,t0,t1,table" >"$RUNS"
# run_nc: the requests are the clients whose echo was their line, an error any other.
run_nc() {
  local c=$1 i
  rm -f "$WORKDIR"/in.* "$WORKDIR"/out.*
  for ((i = 1; i <= c; i++)); do printf 'niolab client %d of %d\n' "$i" "$c" >"$WORKDIR/in.$i"; done
  CLIENT_PIDS=()
  local t0=$EPOCHREALTIME
  for ((i = 1; i <= c; i++)); do
    timeout "$NC_TIMEOUT" nc -N 127.0.0.1 "$PORT" <"$WORKDIR/in.$i" >"$WORKDIR/out.$i" 2>/dev/null &
    CLIENT_PIDS+=($!)
  done
  local p
  # a client that timed out or failed shows as a wrong echo below
  for p in "${CLIENT_PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
  local t1=$EPOCHREALTIME
  CLIENT_PIDS=()
  local answered=0 errors=0
  for ((i = 1; i <= c; i++)); do
    if cmp -s "$WORKDIR/in.$i" "$WORKDIR/out.$i"; then answered=$((answered + 1)); else errors=$((errors + 1)); fi
  done
  echo "$arch,$c,$answered,$errors,$t0,$t1," >>"$RUNS"
}

# run_echo_bench: the same work, C concurrent short connections of one request each.
# run_echo_bench: its table (qps, elapsed) and errors: line; a run without a table failed whole.
run_echo_bench() {
  local c=$1 out=$WORKDIR/echo-bench-$arch-$1.txt
  # the warm-up (not counted) takes the client JVM's cold start out of a run this short
  bin/echo-bench --connections "$c" --requests "$c" --warmup "${BENCH_WARMUP:-1000}" --size 24 "127.0.0.1:$PORT" >"$out" 2>&1 || true
  if grep -q '^1 ' "$out"; then
    echo "$arch,$c,,,,,${out##*/}" >>"$RUNS"
  else
    QPS[$arch,$c]='?' ERR[$arch,$c]=$c SECS[$arch,$c]='?'
    sed 's/^/  echo-bench: /' "$out" >&2
  fi
}

declare -A QPS ERR SECS SKIPPED
for arch in $ARCHS; do
  if ! start_server "$arch" "$PORT" 2>"$WORKDIR/start.err"; then
    SKIPPED[$arch]=$(grep -v '^error: lab-server' "$WORKDIR/start.err" | head -1 | sed 's/^ *//' || true)
    echo "$arch: skipped, lab-server $arch did not start on port $PORT (${SKIPPED[$arch]:-no output})" >&2
    continue
  fi
  for c in "${sweep[@]}"; do
    if [ "$CLIENT" = nc ]; then run_nc "$c"; else run_echo_bench "$c"; fi
  done
  stop_server quiet
done
qps=qps
[ "$CLIENT" = nc ] && qps=qps=rate
summarize runs "$RUNS" --out "arch,clients,$qps,errors,elapsed_s" >"$WORKDIR/results.csv"
while IFS=, read -r arch c q e s; do
  QPS[$arch,$c]=$q ERR[$arch,$c]=$e SECS[$arch,$c]=$s
done < <(tail -n +2 "$WORKDIR/results.csv")

if [ ${#sweep[@]} -eq 1 ]; then
  c=${sweep[0]}
  echo "# bench.sh: $c concurrent $CLIENT clients, one short connection each echoing one line, port $PORT"
  printf '%-6s %8s %10s %7s %9s\n' arch clients qps errors elapsed
  for arch in $ARCHS; do
    if [ -n "${SKIPPED[$arch]+x}" ]; then
      printf '%-6s %8s %10s %7s %9s  skipped: server did not start\n' "$arch" "$c" - - -
    else
      printf '%-6s %8s %10s %7s %9s\n' "$arch" "$c" "${QPS[$arch,$c]}" "${ERR[$arch,$c]}" "${SECS[$arch,$c]}"
    fi
  done
else
  echo "# bench.sh --sweep: $CLIENT clients, one short connection each echoing one line, port $PORT (QPS; errors in brackets)"
  printf '%-12s' Concurrency
  for arch in $ARCHS; do printf ' %12s' "${arch^^} QPS"; done
  echo
  for c in "${sweep[@]}"; do
    printf '%-12s' "$c"
    for arch in $ARCHS; do
      if [ -n "${SKIPPED[$arch]+x}" ]; then
        v=-
      else
        v=${QPS[$arch,$c]}
        [ "${ERR[$arch,$c]}" != 0 ] && v="$v [${ERR[$arch,$c]}]"
      fi
      printf ' %12s' "$v"
    done
    echo
  done
fi

# BENCH_CSV=FILE appends the results as rows (the experiments read them), the file rewritten whole
if [ -n "${BENCH_CSV:-}" ]; then
  {
    if [ -s "$BENCH_CSV" ]; then cat "$BENCH_CSV"; else echo "client,arch,clients,qps,errors,elapsed_s"; fi
    for arch in $ARCHS; do
      [ -n "${SKIPPED[$arch]+x}" ] && continue
      for c in "${sweep[@]}"; do
        echo "$CLIENT,$arch,$c,${QPS[$arch,$c]},${ERR[$arch,$c]},${SECS[$arch,$c]}"
      done
    done
  } | atomic_write "$BENCH_CSV"
fi

# the exit code says whether every architecture started and every client got its echo back
status=0
for arch in $ARCHS; do
  if [ -n "${SKIPPED[$arch]+x}" ]; then status=1; continue; fi
  for c in "${sweep[@]}"; do [ "${ERR[$arch,$c]}" = 0 ] || status=1; done
done
exit $status
