#!/usr/bin/env bash
# exp-time-wait: short connections until the ephemeral ports run out, and the mitigations.
# Each scenario runs in a network namespace of its own, created and removed here, so the
# sysctls (a 1000-port ip_local_port_range, tcp_tw_reuse) never touch the host: the server
# and echo-bench both run inside it and talk over its loopback. TIME-WAIT is sampled every
# 100 ms from the namespace's /proc/net/sockstat.
#
# Writes to experiments/results/time-wait/, per scenario S:
#   bench-S.json      echo-bench's report (errors by class, 250 ms intervals)
#   tw-S.csv          t_s,tw: seconds since echo-bench was launched, TIME-WAIT sockets
#   holders-S.csv     side,tw: who holds the TIME-WAIT sockets at the end (client or server port)
#   counters-S.txt    the server's output (counters last: resets, closes ...)
#   scenarios.csv     scenario,tw_reuse,options: what each scenario ran
#   tmp/              (not kept by git) the sockstat lines and ss's list, which `summarize` counts
set -euo pipefail
NAME=time-wait
EXP_PORT=${EXP_PORT:-29120}
PORTS=${TW_PORTS:-40000 40999}
REQUESTS=${TW_REQUESTS:-3000}
RATE=${TW_RATE:-500}
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
TMP=$RESULTS/tmp

NS=
SAMPLER=
cleanup() {
  if [ -n "$SAMPLER" ]; then kill "$SAMPLER" 2>/dev/null || true; wait "$SAMPLER" 2>/dev/null || true; fi
  stop_server
  if [ -n "$NS" ]; then ip netns del "$NS" 2>/dev/null || true; fi
  NS=
  SAMPLER=
  return 0
}
trap cleanup EXIT
if ! ip netns add "niolab-tw-probe-$$" 2>/dev/null; then
  echo "error: exp-time-wait needs root to create network namespaces (ip netns add)" >&2
  exit 1
fi
ip netns del "niolab-tw-probe-$$"

# The scenarios: name, tcp_tw_reuse inside the namespace, echo-bench options. The serial ones
# (linger0 too) run --cold-client: the client's warm-up against its own echo sink would take its
# connections' ports from the same 1000 and leave as many TIME-WAIT sockets before the first
# timed request, closed normally whatever the timed run's --linger0.
SCENARIOS=(reuse0-serial reuse2-serial reuse0-paced reuse2-paced reuse0-keepalive reuse0-linger0)
declare -A REUSE=([reuse0-serial]=0 [reuse2-serial]=2 [reuse0-paced]=0 [reuse2-paced]=2 [reuse0-keepalive]=0 [reuse0-linger0]=0)
declare -A OPTS=(
  [reuse0-serial]="-n $REQUESTS --cold-client"
  [reuse2-serial]="-n $REQUESTS --cold-client"
  [reuse0-paced]="-n $REQUESTS --rate $RATE"
  [reuse2-paced]="-n $REQUESTS --rate $RATE"
  [reuse0-keepalive]="-n $REQUESTS --keepalive"
  [reuse0-linger0]="-n $REQUESTS --cold-client --linger0"
)

# sample FILE: /proc/net/sockstat's TCP line inside the namespace every 100 ms, after the time
# (EPOCHREALTIME; the first line, the time alone, is when sampling began), until killed.
sample() {
  # shellcheck disable=SC2016
  ip netns exec "$NS" bash -c 'echo "$EPOCHREALTIME"
    while :; do
      while read -r line; do [[ $line == TCP:* ]] && break; done </proc/net/sockstat
      echo "$EPOCHREALTIME $line"
      sleep 0.1
    done' >"$1" &
  SAMPLER=$!
}

echo "scenario,tw_reuse,options" >"$RESULTS/scenarios.csv"
for s in "${SCENARIOS[@]}"; do
  echo "== $s: tcp_tw_reuse=${REUSE[$s]}, echo-bench ${OPTS[$s]}"
  echo "$s,${REUSE[$s]},${OPTS[$s]}" >>"$RESULTS/scenarios.csv"
  NS=niolab-tw-$$
  ip netns add "$NS"
  ip netns exec "$NS" ip link set lo up
  ip netns exec "$NS" sysctl -qw net.ipv4.ip_local_port_range="$PORTS" net.ipv4.tcp_tw_reuse="${REUSE[$s]}"
  SERVER_NETNS=$NS start_server lt "$EXP_PORT"
  sample "$TMP/sockstat-$s.txt"
  # shellcheck disable=SC2086
  client_pin ip netns exec "$NS" "$ROOT/bin/echo-bench" --server-pid "$SERVER_PID" ${OPTS[$s]} --interval 250ms \
    --json "$RESULTS/bench-$s.json" "127.0.0.1:$EXP_PORT" | grep -E '^(mean|errors|ports exhausted)' || true
  sleep 1
  ip netns exec "$NS" ss -Htan state time-wait >"$TMP/ss-$s.txt"
  summarize tw-holders --port "$EXP_PORT" "$TMP/ss-$s.txt" >"$RESULTS/holders-$s.csv"
  stop_keep_log "$RESULTS/counters-$s.txt"
  cleanup
  summarize tw-timeline "$TMP/sockstat-$s.txt" >"$RESULTS/tw-$s.csv"
done

report
