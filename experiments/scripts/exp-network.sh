#!/usr/bin/env bash
# exp-network: client and server on separate network hosts with a real round-trip time.
# Four network namespaces, created and removed here: srv (the server), cli1 and cli2 (load
# generators) and mid (the path between them). veth pairs join cli1-mid, cli2-mid and mid-srv;
# mid routes (ip_forward) for the direct path, and runs tools/delay-relay for the delayed
# paths: a user-space relay holding every chunk DELAY ms each way, so RTT = 2 x DELAY (this
# kernel has no netem). The relay's own CPU is recorded, and its zero-delay path is measured
# against the direct one.
#
# Writes to experiments/results/network/:
#   runs.csv            arch,protocol,path,rtt_ms,round,file: one row per echo-bench run
#   bench-*.json        echo-bench's report of each run (--server-pid: server CPU per request)
#   relay.csv           arch,protocol,path,round,relay_cpu_s,elapsed_s: the relay's CPU seconds during each relayed run
#   merge-*.txt/json    two generators (cli1, cli2) against one server, merged from their --hlog logs
#   tmp/                (not kept by git) the relay's /proc samples and the list of relayed runs
set -euo pipefail
NAME=network
EXP_PORT=${EXP_PORT:-9988}
RELAY_PORT=9900
CONNECTIONS=${NET_CONNECTIONS:-50}
DURATION=${NET_DURATION:-3s}
WARMUP=${NET_WARMUP:-1s}
ROUNDS=${NET_ROUNDS:-3}
ARCHS=${NET_ARCHS:-lt et mp}
# path name and one-way delay in ms (the relay's); direct is kernel routing through mid
PATHS=${NET_PATHS:-direct:0 relay0:0 rtt0.2:0.1 rtt1:0.5 rtt5:2.5}
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

TAG=$$
NSS=(srv-$TAG mid-$TAG cli1-$TAG cli2-$TAG)
RELAY_PID=
cleanup() {
  [ -n "$RELAY_PID" ] && { kill "$RELAY_PID" 2>/dev/null || true; wait "$RELAY_PID" 2>/dev/null || true; }
  RELAY_PID=
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
# target PATH CLIENT: the address a client in namespace CLIENT (cli1, cli2) connects to
target() {
  if [ "$1" = direct ]; then echo "$SERVER_ADDR:$EXP_PORT"; else echo "10.201.${2#cli}.1:$RELAY_PORT"; fi
}

start_relay() {
  ip netns exec "niolab-mid-$TAG" taskset -c "$CLIENT_CPU" "$RELAY" --listen "0.0.0.0:$RELAY_PORT" --to "$SERVER_ADDR:$EXP_PORT" --delay-ms "$1" >/dev/null &
  RELAY_PID=$!
  sleep 0.3
}
stop_relay() { [ -n "$RELAY_PID" ] && { kill "$RELAY_PID" 2>/dev/null || true; wait "$RELAY_PID" 2>/dev/null || true; }; RELAY_PID=; }

echo "arch,protocol,path,rtt_ms,round,file" >"$RESULTS/runs.csv"
echo "arch,protocol,path,round,key,t0,t1" >"$TMP/relay-runs.csv"
for round in $(seq "$ROUNDS"); do
  for arch in $ARCHS; do
    for protocol in echo http; do
      SERVER_NETNS="niolab-srv-$TAG" start_server "$arch" "$EXP_PORT" --host "$SERVER_ADDR" --protocol "$protocol"
      for p in $PATHS; do
        path=${p%%:*} delay=${p#*:}
        rtt=$(awk -v d="$delay" -v p="$path" 'BEGIN { print (p == "direct" ? 0 : 2 * d) }')
        [ "$path" = direct ] || start_relay "$delay"
        file=bench-$arch-$protocol-$path-r$round.json
        key=$arch-$protocol-$path-r$round
        [ -z "$RELAY_PID" ] || proc_sample "$TMP/relay-proc.txt" "$key" "$RELAY_PID" process
        t0=$EPOCHREALTIME
        client_pin ip netns exec "niolab-cli1-$TAG" "$ROOT/bin/echo-bench" --server-pid "$SERVER_PID" \
          --protocol "$protocol" -c "$CONNECTIONS" --keepalive --threads 1 --warmup "$WARMUP" -d "$DURATION" \
          --json "$RESULTS/$file" "$(target "$path" cli1)" | grep -E '^mean' | sed "s/^/$arch $protocol $path r$round: /" || true
        if [ -n "$RELAY_PID" ]; then
          proc_sample "$TMP/relay-proc.txt" "$key" "$RELAY_PID" process
          echo "$arch,$protocol,$path,$round,$key,$t0,$EPOCHREALTIME" >>"$TMP/relay-runs.csv"
        fi
        stop_relay
        echo "$arch,$protocol,$path,$rtt,$round,$file" >>"$RESULTS/runs.csv"
      done
      SERVER_LOG_COPY="$RESULTS/server-$arch-$protocol-r$round.txt" stop_server quiet
    done
  done
done

# Two generators against one server at RTT 1 ms, started together, merged from their interval logs.
MERGE_ARCH=${NET_MERGE_ARCH:-et}
SERVER_NETNS="niolab-srv-$TAG" start_server "$MERGE_ARCH" "$EXP_PORT" --host "$SERVER_ADDR"
start_relay 0.5
start_at=$(( $(date +%s) + 15 ))  # room for two JVMs to start on a busy machine
clients=()
for c in cli1 cli2; do
  client_pin ip netns exec "niolab-$c-$TAG" "$ROOT/bin/echo-bench" -c $((CONNECTIONS / 2)) --keepalive --threads 1 \
    -d "$DURATION" --start-at "$start_at" --hlog "$RESULTS/merge-$c.hlog" --tag "$c" \
    --json "$RESULTS/merge-$c.json" "$(target rtt1 "$c")" >/dev/null &
  clients+=($!)
done
for pid in "${clients[@]}"; do wait "$pid" || true; done
stop_relay
stop_server quiet
"$ROOT/bin/echo-bench" merge --json "$RESULTS/merge.json" "$RESULTS/merge-cli1.hlog" "$RESULTS/merge-cli2.hlog" | tee "$RESULTS/merge.txt"

if [ -s "$TMP/relay-proc.txt" ]; then
  summarize runs "$TMP/relay-runs.csv" --proc "$TMP/relay-proc.txt" --out arch,protocol,path,round,relay_cpu_s=cpu_s,elapsed_s \
    >"$RESULTS/relay.csv"
else
  echo "arch,protocol,path,round,relay_cpu_s,elapsed_s" >"$RESULTS/relay.csv"
fi
uname -r >"$RESULTS/kernel.txt"
report
