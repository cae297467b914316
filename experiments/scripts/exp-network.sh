#!/usr/bin/env bash
# exp-network: client and server on separate network hosts with a real round-trip time.
# Four network namespaces, created and removed here: srv (the servers), cli1 and cli2 (load
# generators) and mid (the path between them). veth pairs join cli1-mid, cli2-mid and mid-srv;
# mid routes (ip_forward) for the direct path, and runs tools/delay-relay for the delayed
# paths: a user-space relay holding every chunk DELAY ms each way, so RTT = 2 x DELAY (this
# kernel has no netem), one relay per server port.
#
# Per protocol (echo, http) the servers (NET_ARCHS: lt, et, mp; lt the baseline) run side by
# side in srv, each on its own port, and per path one `echo-bench compare` in cli1 drives them:
# NET_ROUNDS rounds, each visiting every server once in a fresh random order, paired ratios
# against lt with 95% intervals, server CPU per request from each server's pid. The
# relay's zero-delay path is measured in the direct path's compare, as targets of their own
# (lt-relay0, ...: the same servers through the relay), so that relayed and routed slices pair
# by round. A slice lasts NET_SLICE, or 400 round trips where that is longer (rtt5: 2 s): each
# slice opens its connections and fills its window anew, about two round trips, and 400 keep
# that under 0.5% of the slice.
#
# The load with the defaults: per protocol 10 rounds of 6 slices of 1 s (direct and relay0),
# 3 of 1 s (rtt0.2), 3 of 1 s (rtt1) and 3 of 2 s (rtt5) = 180 s, twice = 360 s; 1 s of
# warm-up per target and compare (30 s); besides, six server starts, the two generators, the
# noise floor, the build and the namespaces.
# A smoke run: NET_ROUNDS=8 NET_SLICE=0.25s NET_WARMUP=0.25s NET_PATHS="direct:0 relay0:0 rtt5:2.5"
# NET_DURATION=1s NOISE=0. RESULTS_DIR: see experiments/scripts/common.sh.
#
# FORKS=F: the whole series above runs F times, each fork with fresh servers (started and stopped
# here: compare's own forks start a server on its loopback, and these live in srv), NET_ROUNDS
# rounds per fork, its files suffixed -fK (compare-P-PATH-fK.json, server-A-P-fK.txt) and listed
# in runs.csv with their fork; the report gives each ratio's interval over the forks, so that it
# spans fresh processes. The two generators run once, after the last fork. In 3 forks of 3
# rounds: 3 forks x 2 protocols x (18 slices of 3 rounds + 15 s of warm-up) = 414 s and 18
# server starts, against 390 s and 6 for the defaults in one fork. A smoke run in forks: FORKS=2
# NET_ROUNDS=3 NET_SLICE=0.25s NET_WARMUP=0.25s NET_PATHS="direct:0 relay0:0 rtt5:2.5"
# NET_DURATION=1s NOISE=0 RESULTS_DIR=/tmp/exp-network.
#
# Writes to experiments/results/network/:
#   settings.csv        key,value: rounds, slice, warm-up, connections, archs
#   runs.csv            protocol,path,rtt_ms,slice_s,file,suffix: where each path's slices are
#                       (the compare's file, and the suffix of its targets' names: "" or -relay0)
#   compare-P-PATH.json echo-bench compare's report (every slice), and its printout (.txt)
#   relay.csv           protocol,path,relay,relay_cpu_s,elapsed_s: each relay's CPU seconds over each
#                       compare that ran through it
#   server-A-P.txt      each server's output (counters last)
#   merge-*.txt/json    two generators (cli1, cli2) against one server, merged from their --hlog logs
#   tmp/                (not kept by git) the relays' /proc samples and the list of relayed compares
set -euo pipefail
NAME=network
EXP_PORT=${EXP_PORT:-9988}
RELAY_PORT=${RELAY_PORT:-9900}
CONNECTIONS=${NET_CONNECTIONS:-50}
DURATION=${NET_DURATION:-3s}
WARMUP=${NET_WARMUP:-1s}
ROUNDS=${NET_ROUNDS:-10}
SLICE=${NET_SLICE:-1s}
# path name and one-way delay in ms (the relay's); direct is kernel routing through mid
PATHS=${NET_PATHS:-direct:0 relay0:0 rtt0.2:0.1 rtt1:0.5 rtt5:2.5}
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
# the catalog's network selection: common.sh loads the catalog
read -r -a ARCHS <<<"${NET_ARCHS:-$(selection network)}"
[ ${#ARCHS[@]} -gt 0 ] || { echo "error: no servers to run (NET_ARCHS, or the catalog's network selection, is empty)" >&2; exit 2; }

TAG=$$
NSS=(srv-$TAG mid-$TAG cli1-$TAG cli2-$TAG)
RELAY_PIDS=() SERVER_PIDS=() SERVER_LOGS=() COMPARE_PID=
stop_relays() {
  local pid
  for pid in "${RELAY_PIDS[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  RELAY_PIDS=()
}
# stop_servers [KEEP]: stops every server started by start_servers; KEEP=PROTOCOL keeps each one's output
stop_servers() {
  local i
  for i in "${!SERVER_PIDS[@]}"; do
    SERVER_PID=${SERVER_PIDS[$i]} SERVER_LOG=${SERVER_LOGS[$i]}
    SERVER_LOG_COPY=${1:+$RESULTS/server-${ARCHS[$i]}-$1.txt} stop_server quiet
  done
  SERVER_PIDS=() SERVER_LOGS=()
}
cleanup() {
  # compare runs in the background (see below): stopped, it writes what it measured as partial
  if [ -n "$COMPARE_PID" ]; then
    kill -TERM "$COMPARE_PID" 2>/dev/null
    wait "$COMPARE_PID" 2>/dev/null || true
    untether "$COMPARE_PID"
  fi
  stop_relays
  stop_servers
  stop_server quiet
  for ns in "${NSS[@]}"; do ip netns del "niolab-$ns" 2>/dev/null || true; done
  return 0
}
trap cleanup EXIT
command -v ip >/dev/null || { echo "error: exp-network needs ip (iproute2)" >&2; exit 1; }
if ! ip netns add "niolab-probe-$TAG" 2>/dev/null; then
  echo "error: exp-network needs root to create network namespaces (ip netns add)" >&2
  exit 1
fi
ip netns del "niolab-probe-$TAG"
# A run killed outright (SIGKILL: no trap runs) leaves its namespaces, named after its pid: the
# next run removes those whose run is gone.
for ns in $(ip netns list | grep -oE '^niolab-(srv|mid|cli1|cli2|probe)-[0-9]+'); do
  kill -0 "${ns##*-}" 2>/dev/null || { ip netns del "$ns" 2>/dev/null && echo "removed $ns, left by a run that was killed" >&2; }
done
make -s -C tools build/delay-relay >/dev/null
RELAY=$ROOT/tools/build/delay-relay

in_ns() { local ns=$1; shift; ip netns exec "niolab-$ns" "$@"; }

# link A B SUBNET: a veth pair between namespaces A (.1) and B (.2) of 10.201.SUBNET.0/30
link() {
  local a=$1 b=$2 n=$3
  ip link add "v$n-a-$TAG" netns "niolab-$a" type veth peer name "v$n-b-$TAG" netns "niolab-$b"
  in_ns "$a" ip addr add "10.201.$n.1/30" dev "v$n-a-$TAG"
  in_ns "$b" ip addr add "10.201.$n.2/30" dev "v$n-b-$TAG"
  in_ns "$a" ip link set "v$n-a-$TAG" up
  in_ns "$b" ip link set "v$n-b-$TAG" up
}
for ns in "${NSS[@]}"; do ip netns add "niolab-$ns"; in_ns "$ns" ip link set lo up; done
link "mid-$TAG" "cli1-$TAG" 1
link "mid-$TAG" "cli2-$TAG" 2
link "mid-$TAG" "srv-$TAG" 3
in_ns "mid-$TAG" sysctl -qw net.ipv4.ip_forward=1
in_ns "cli1-$TAG" ip route add default via 10.201.1.1
in_ns "cli2-$TAG" ip route add default via 10.201.2.1
in_ns "srv-$TAG" ip route add default via 10.201.3.1
SERVER_ADDR=10.201.3.2

TMP=$RESULTS/tmp
# target PATH CLIENT I: the address a client in namespace CLIENT (cli1, cli2) connects to for
# server number I (0, 1, ...): the server's own port routed, its relay's port in mid otherwise
target() {
  if [ "$1" = direct ]; then echo "$SERVER_ADDR:$((EXP_PORT + $3))"; else echo "10.201.${2#cli}.1:$((RELAY_PORT + $3))"; fi
}

# start_relay DELAY I: a relay in mid, on the client's CPU, from RELAY_PORT+I to server I's port
start_relay() {
  # shellcheck disable=SC2046
  tethered ip netns exec "niolab-mid-$TAG" $(pin_prefix "${CLIENT_CPU:-}") "$RELAY" --listen "0.0.0.0:$((RELAY_PORT + $2))" \
    --to "$SERVER_ADDR:$((EXP_PORT + $2))" --delay-ms "$1" >/dev/null
  RELAY_PIDS+=("$TETHERED_PID")
}
start_relays() {
  local i
  for i in "${!ARCHS[@]}"; do start_relay "$1" "$i"; done
  sleep 0.3
}

# start_servers PROTOCOL: every server of ARCHS in srv, server I on EXP_PORT+I
start_servers() {
  local i
  for i in "${!ARCHS[@]}"; do
    SERVER_NETNS="niolab-srv-$TAG" start_server "${ARCHS[$i]}" "$((EXP_PORT + i))" --host "$SERVER_ADDR" --protocol "$1"
    SERVER_PIDS+=("$SERVER_PID") SERVER_LOGS+=("$SERVER_LOG")
  done
  SERVER_PID= SERVER_LOG=
}

# targets PATH [SUFFIX]: compare's NAME=HOST:PORT,pid=PID for every server on PATH, names suffixed
targets() {
  local i
  for i in "${!ARCHS[@]}"; do echo "${ARCHS[$i]}${2:-}=$(target "$1" cli1 "$i"),pid=${SERVER_PIDS[$i]}"; done
}

# sample_relays KEY: the relays' /proc now, one key per relay (KEY-I)
sample_relays() {
  local i
  for i in "${!RELAY_PIDS[@]}"; do proc_sample "$TMP/relay-proc.txt" "$1-$i" "${RELAY_PIDS[$i]}" process; done
}

# slice_of RTT_MS: NET_SLICE, or 400 round trips where that is longer (in seconds)
slice_of() {
  awk -v s="$SLICE" -v rtt="$1" 'BEGIN {
    v = s + 0; if (s ~ /ms$/) v /= 1000
    if (0.4 * rtt > v) v = 0.4 * rtt
    print v }'
}

has_path() { [[ " $PATHS " == *" $1:"* ]]; }

echo "key,value" >"$RESULTS/settings.csv"
printf 'rounds,%s\nslice,%s\nwarmup,%s\nconnections,%s\narchs,%s\n' "$ROUNDS" "$SLICE" "$WARMUP" "$CONNECTIONS" "${ARCHS[*]}" \
  >>"$RESULTS/settings.csv"
# with FORKS, a fork column in runs.csv and a -fK suffix on each fork's files
fork_column= fork_tag=
if [ -n "${FORKS:-}" ]; then
  echo "forks,$FORKS" >>"$RESULTS/settings.csv"
  fork_column=,fork
fi
echo "protocol,path,rtt_ms,slice_s,file,suffix$fork_column" >"$RESULTS/runs.csv"
echo "protocol,path,relay,key,t0,t1" >"$TMP/relay-runs.csv"
for fork in $(seq "${FORKS:-1}"); do
  [ -z "${FORKS:-}" ] || fork_tag=-f$fork
  for protocol in echo http; do
    start_servers "$protocol"
    for p in $PATHS; do
      path=${p%%:*} delay=${p#*:}
      # relay0 runs in the direct path's compare when both are asked for: paired by round
      [ "$path" = relay0 ] && has_path direct && continue
      rtt=$(awk -v d="$delay" -v p="$path" 'BEGIN { print (p == "direct" ? 0 : 2 * d) }')
      slice=$(slice_of "$rtt")
      file=compare-$protocol-$path$fork_tag.json
      mapfile -t specs < <(targets "$path")
      echo "$protocol,$path,$rtt,$slice,$file,${fork_column:+,$fork}" >>"$RESULTS/runs.csv"
      relayed=$path
      if [ "$path" = direct ]; then
        relayed=
        if has_path relay0; then
          start_relays 0
          relayed=relay0
          mapfile -t -O "${#specs[@]}" specs < <(targets relay0 -relay0)
          echo "$protocol,relay0,0,$slice,$file,-relay0${fork_column:+,$fork}" >>"$RESULTS/runs.csv"
        fi
      else
        start_relays "$delay"
      fi
      key=$protocol-$path$fork_tag
      [ -z "$relayed" ] || sample_relays "$key"
      t0=$EPOCHREALTIME
      echo "# $file: ${specs[*]}" >&2
      # tethered, and waited for: a SIGTERM to this script then runs its trap at once (bash holds a
      # trap until a foreground command ends), which stops compare and removes the namespaces; a
      # SIGKILL stops compare through its tether
      # shellcheck disable=SC2046
      tethered $(pin_prefix "${CLIENT_CPU:-}") ip netns exec "niolab-cli1-$TAG" "$ROOT/bin/echo-bench" compare --protocol "$protocol" \
        -c "$CONNECTIONS" --keepalive --threads 1 --rounds "$ROUNDS" --slice "${slice}s" --warmup "$WARMUP" --seed "$RANDOM" \
        --json "$RESULTS/$file" "${specs[@]}" >"$RESULTS/${file%.json}.txt" 2>&1
      COMPARE_PID=$TETHERED_PID
      wait "$COMPARE_PID" || echo "warning: $file: compare exited non-zero (see ${file%.json}.txt)" >&2
      untether "$COMPARE_PID"
      COMPARE_PID=
      if [ -n "$relayed" ]; then
        sample_relays "$key"
        for i in "${!RELAY_PIDS[@]}"; do echo "$protocol,$relayed,$i,$key-$i,$t0,$EPOCHREALTIME" >>"$TMP/relay-runs.csv"; done
      fi
      stop_relays
    done
    stop_servers "$protocol$fork_tag"
  done
done

# Two generators against one server at RTT 1 ms, started together, merged from their interval logs.
MERGE_ARCH=${NET_MERGE_ARCH:-et}
SERVER_NETNS="niolab-srv-$TAG" start_server "$MERGE_ARCH" "$EXP_PORT" --host "$SERVER_ADDR"
start_relay 0.5 0
sleep 0.3
start_at=$(( $(date +%s) + 15 ))  # room for two JVMs to start on a busy machine
clients=()
for c in cli1 cli2; do
  client_pin ip netns exec "niolab-$c-$TAG" "$ROOT/bin/echo-bench" -c $((CONNECTIONS / 2)) --keepalive --threads 1 \
    -d "$DURATION" --start-at "$start_at" --hlog "$RESULTS/merge-$c.hlog" --tag "$c" \
    --json "$RESULTS/merge-$c.json" "$(target rtt1 "$c" 0)" >/dev/null &
  clients+=($!)
done
for pid in "${clients[@]}"; do wait "$pid" || true; done
stop_relays
stop_server quiet
"$ROOT/bin/echo-bench" merge --json "$RESULTS/merge.json" "$RESULTS/merge-cli1.hlog" "$RESULTS/merge-cli2.hlog" | tee "$RESULTS/merge.txt"

if [ -s "$TMP/relay-proc.txt" ]; then
  summarize runs "$TMP/relay-runs.csv" --proc "$TMP/relay-proc.txt" --out protocol,path,relay,relay_cpu_s=cpu_s,elapsed_s \
    >"$RESULTS/relay.csv"
else
  echo "protocol,path,relay,relay_cpu_s,elapsed_s" >"$RESULTS/relay.csv"
fi
uname -r >"$RESULTS/kernel.txt"
report
