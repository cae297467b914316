#!/usr/bin/env bash
# exp-vt: vt's targets against lt and C, and vt's knobs, measured in paired random-order
# rounds. Every server stays up for the whole run, each on its own port, server on CPU 0,
# clients on CPU 1:
#   ping   keep-alive /ping, 50 connections: echo-bench compare, lt first, vt and vt with each
#          JDK knob of VT_KNOBS (server CPU per request: vt within 1.25x lt's)
#   ping-wrk  keep-alive /ping driven by wrk (where installed): lt and vt only
#   echo   keep-alive echo, 50 connections: the same servers (rate: vt at least 0.7x lt's)
#   echo-c keep-alive echo with the C keepalive-client (reference/): lt and vt, C_ROUNDS rounds
#          of C_SLICE seconds, each round in a fresh random order (rates in echo-c.csv; the
#          generator pairs them by round with the same median interval as echo-bench compare)
#   short  echo, a fresh connection per request (serial): c first, lt and LT_VARIANTS (server
#          CPU per connection: lt within 1.2x c's)
# Environment: ROUNDS (15) and SLICE (1s) of each compare; C_ROUNDS (8), C_SLICE (4); VT_KNOBS
# (NAME=JVM-OPTIONS;... as below); MEASURES ("ping ping-wrk echo echo-c short", ping-wrk where
# wrk is installed); EXP_PORT (29988: this run takes the ports from there up, one per server).
# --load wrk needs whole seconds for SLICE. RESULTS_DIR: see experiments/scripts/common.sh.
#
# FORKS=F: ping, ping-wrk, echo and short start no server; each compare starts its servers itself,
# afresh in each of F forks (the servers as commands, on CPU 0, each knob's JVM options with it),
# ROUNDS rounds per fork, so that each ratio's interval spans fresh processes; echo-c keeps lt and
# vt up for the C client's rounds, as without forks. In 3 forks of 5 rounds: 3 forks x (5 rounds
# + 2 s of warm-up) x 1 s x 16 servers (ping 6, ping-wrk 2, echo 6, short 2) = 336 s, echo-c's
# 68 s, and 48 server starts. A smoke run in forks: FORKS=2 ROUNDS=3 SLICE=1s C_ROUNDS=2 C_SLICE=1
# VT_KNOBS="vt-poller1=-Djdk.pollerMode=1" NOISE=0 RESULTS_DIR=/tmp/exp-vt.
set -euo pipefail
NAME=vt
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
ROUNDS=${ROUNDS:-15} SLICE=${SLICE:-1s} C_ROUNDS=${C_ROUNDS:-8} C_SLICE=${C_SLICE:-4}
MEASURES=${MEASURES:-"ping $(command -v wrk >/dev/null && echo ping-wrk) echo echo-c short"}
# The JDK's own knobs (JDK 21+; the JVM ignores a property it does not know, so a knob the JDK in
# use lacks measures as plain vt). Pinned to one CPU the JVM sees one processor: the scheduler's
# parallelism and the pollers' count default to 1, so the knobs raise them. JDK 25 on Linux polls
# in mode 2 by default (a MasterPoller thread, virtual sub-pollers: a thread dump shows them), so
# plain vt is mode 2 and vt-poller1 the platform-thread pollers.
VT_KNOBS=${VT_KNOBS:-"vt-poller1=-Djdk.pollerMode=1;vt-readpollers2=-Djdk.readPollers=2;vt-parallelism2=-Djdk.virtualThreadScheduler.parallelism=2;vt-maxpool1=-Djdk.virtualThreadScheduler.maxPoolSize=1"}
# lt variants for the short connections (NAME=SERVER-OPTIONS;...), none by default.
LT_VARIANTS=${LT_VARIANTS:-}
KA_CLIENT=$ROOT/reference/build/keepalive-client
make -s reference
trap - EXIT

PIDS=() LOGS=()
stop_all() {
  local i
  for i in "${!PIDS[@]}"; do SERVER_PID=${PIDS[$i]} SERVER_LOG=${LOGS[$i]} stop_server quiet; done
  PIDS=()
}
trap stop_all EXIT

# serve NAME PROTOCOL ARCH JVM-OPTIONS [SERVER-OPTIONS...]: starts a server on the next port and
# appends NAME=127.0.0.1:PORT,pid=PID to TARGETS; records it in servers.csv. With FORKS (and no
# KEEP_UP) it starts nothing and appends NAME=COMMAND, for compare to start in every fork.
next_port=$EXP_PORT
TARGETS=()
declare -A TARGET_PORT TARGET_PID
serve() {
  local name=$1 proto=$2 arch=$3 jopts=$4
  shift 4
  if [ -n "${FORKS:-}" ] && [ -z "${KEEP_UP:-}" ]; then
    TARGETS+=("$name=$(SERVER_JAVA_OPTS=$jopts server_command "$arch" --protocol "$proto" "$@")")
    echo "$name,$proto,$arch,$jopts,$*" >>"$RESULTS/servers.csv"
    return
  fi
  JAVA_OPTS="${JAVA_OPTS:-} $jopts" start_server "$arch" "$next_port" --protocol "$proto" "$@"
  PIDS+=("$SERVER_PID") LOGS+=("$SERVER_LOG")
  TARGETS+=("$name=127.0.0.1:$next_port,pid=$SERVER_PID")
  TARGET_PORT[$name-$proto]=$next_port TARGET_PID[$name-$proto]=$SERVER_PID
  echo "$name,$proto,$arch,$jopts,$*" >>"$RESULTS/servers.csv"
  next_port=$((next_port + 1))
  SERVER_PID= SERVER_LOG=
}

# serve_entries PROTOCOL NAME...: serve each catalog entry by its name, with its own words.
serve_entries() {
  local proto=$1 name words
  shift
  for name in "$@"; do
    read -r -a words <<<"$(server_words "$name")"
    serve "$name" "$proto" "${words[0]}" "" "${words[@]:1}"
  done
}

# The catalog's selections: vt-pair (lt, the baseline, and vt) for the keep-alive measures, vt-short
# (c, the baseline, and lt) for short connections; VT is the pair's second, the knobs' server.
read -r -a PAIR <<<"$(selection vt-pair)"
read -r -a SHORT <<<"$(selection vt-short)"
read -r -a VT_WORDS <<<"$(server_words "${PAIR[1]}")"

# vt_servers PROTOCOL: lt, vt and vt with each knob.
vt_servers() {
  local knob
  TARGETS=()
  serve_entries "$1" "${PAIR[@]}"
  IFS=';' read -r -a knobs <<<"$VT_KNOBS"
  for knob in "${knobs[@]}"; do [ -n "$knob" ] && serve "${knob%%=*}" "$1" "${VT_WORDS[0]}" "${knob#*=}" "${VT_WORDS[@]:1}"; done
}

compare() {
  local out=$1
  shift
  client_pin "$ROOT/bin/echo-bench" compare "${FORK_ARGS[@]}" --rounds "$ROUNDS" --slice "$SLICE" --seed "${SEED:-28}" --json "$RESULTS/$out.json" \
    "$@" "${TARGETS[@]}" | tee "$RESULTS/$out.txt" || echo "   (compare $out failed: see above)"
}

echo "name,protocol,arch,jvm_options,server_options" >"$RESULTS/servers.csv"
for m in $MEASURES; do
  echo "== $m"
  case $m in
    ping)
      vt_servers http
      compare ping --protocol http -k -c 50 --threads 1
      stop_all
      ;;
    ping-wrk)
      TARGETS=()
      serve_entries http "${PAIR[@]}"
      compare ping-wrk --load wrk --protocol http -k -c 50 --threads 1
      stop_all
      ;;
    echo | echo-c)
      if [ "$m" = echo-c ] && [ -n "${FORKS:-}" ]; then
        # the C client's rounds need servers that stay up: lt and vt only, as it measures no knob
        TARGETS=()
        KEEP_UP=1 serve_entries echo "${PAIR[@]}"
      elif [ ${#PIDS[@]} -eq 0 ]; then
        vt_servers echo
      fi
      if [ "$m" = echo ]; then
        compare echo --protocol echo -k -c 50 --threads 1
      else
        # The C client, paired the way compare pairs: every round visits lt and vt in a fresh order.
        echo "round,position,server,rate" >"$RESULTS/echo-c.csv"
        for s in "${PAIR[@]}"; do client_pin "$KA_CLIENT" -c 50 -d 2 "127.0.0.1:${TARGET_PORT[$s-echo]}" >/dev/null || true; done
        for r in $(seq "$C_ROUNDS"); do
          pos=0
          for s in $(shuf -e "${PAIR[@]}"); do
            line=$(client_pin timeout $((C_SLICE + 30)) "$KA_CLIENT" -c 50 -d "$C_SLICE" "127.0.0.1:${TARGET_PORT[$s-echo]}") || line=
            rate=$(sed -n 's/.*s: \([0-9.]*\) requests\/s.*/\1/p' <<<"$line")
            echo "$r,$pos,$s,${rate:-}" >>"$RESULTS/echo-c.csv"
            pos=$((pos + 1))
          done
        done
        cat "$RESULTS/echo-c.csv"
      fi
      [[ " $MEASURES " == *" echo-c "* && "$m" = echo ]] || stop_all
      ;;
    short)
      TARGETS=()
      serve_entries echo "${SHORT[@]}"
      IFS=';' read -r -a variants <<<"$LT_VARIANTS"
      for v in "${variants[@]}"; do
        # shellcheck disable=SC2086
        [ -n "$v" ] && serve "${v%%=*}" echo "${SHORT[1]}" "" ${v#*=}
      done
      compare short --protocol echo -c 1
      stop_all
      ;;
    *) echo "error: unknown measure '$m' (ping ping-wrk echo echo-c short)" >&2; exit 2 ;;
  esac
done
report
