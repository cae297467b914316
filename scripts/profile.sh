#!/usr/bin/env bash
# make profile ARCH=lt MODE=keepalive: one server under the lab's own load, profiled, as an
# interactive flame graph (Java, JVM and kernel frames) and its collapsed stacks.
#
#   ARCH   a server of the catalog (bin/lab-server catalog): lt, et, et-ffm, vt, uring-bufring, mp,
#          bio, netty-epoll, c...
#   MODE   keepalive (HTTP GET /ping, keep-alive), pipelined (/ping, DEPTH=16 in flight per
#          connection), echo (keep-alive echo, 64 bytes), short (echo, a fresh connection per
#          request: the accept-to-close path)
#   OPTS   more server options, e.g. OPTS="--binding ffm" (et), OPTS="--loops 2" (lt, et),
#          OPTS="--mode multishot" (uring); JAVA_OPTS reach the server's JVM as usual
#   DURATION (10s) of the profiled load, after WARMUP (3s) of the same load unprofiled, so that
#   the JIT's first work stays out of the picture; CONNECTIONS (50; 1 for short: the original write-up's
#   serial client); PORT (25990); SERVER_CPU (0), CLIENT_CPU (1); OUT_DIR (target/profile).
#
# The profiler is async-profiler, from Maven Central (tools.profiler:async-profiler, unpacked
# into target/async-profiler by Maven; its converter jfr-converter writes the HTML). The agent
# is loaded at the server's start with -agentpath and idles until jcmd's JVMTI.agent_load
# starts it after the warm-up and stops it after the load (the same calls async-profiler's own
# launcher makes). mp: every JVM of the tree (master and workers) is profiled; each gets its
# own files, and ARCH-MODE.collapsed holds them all. c: the C reference is no JVM, perf profiles it.
#
# Event: cpu (perf_events' software cpu-clock, which takes kernel frames too); where the
# kernel closes perf events (perf_event_paranoid above 2) it falls back to itimer and says so.
# Output: OUT_DIR/NAME-MODE.html and .collapsed (NAME is ARCH and OPTS, e.g. et-ffm or lt-loops-2), the
# profiled load's echo-bench output (.load.txt, .json), and on the terminal the load's rate, the
# server's CPU per request (echo-bench --server-pid) and the CPU by category (profile-shares).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

ASYNC_PROFILER_VERSION=4.2
ARCH=${ARCH:-} MODE=${MODE:-} OPTS=${OPTS:-} DURATION=${DURATION:-10s} WARMUP=${WARMUP:-3s}
PORT=${PORT:-25990} DEPTH=${DEPTH:-16} OUT_DIR=${OUT_DIR:-$NIOLAB_HOME/target/profile}
SERVER_CPU=${SERVER_CPU:-0} CLIENT_CPU=${CLIENT_CPU:-1}
INTERVAL=${INTERVAL:-1ms}
export SERVER_CPU CLIENT_CPU

usage() {
  echo "error: $1; usage: make profile ARCH=NAME (a server 'bin/lab-server catalog' names)" \
    "MODE=keepalive|pipelined|echo|short [DURATION=10s] [OPTS='--binding ffm']" >&2
  exit 2
}
[ -n "$ARCH" ] || usage "say which server: ARCH=..."
catalog_load
words=$(server_words "$ARCH" 2>/dev/null) || usage "no server '$ARCH' in the catalog"
read -ra WORDS <<<"$words"
arch=${WORDS[0]}
case $MODE in
  keepalive | pipelined) protocol=http ;;
  echo | short) protocol=echo ;;
  '') usage "say which load: MODE=..." ;;
  *) usage "no mode '$MODE'" ;;
esac
# What the server would refuse anyway, refused before anything starts (exit 2, as the server).
# (the catalog's min_jdk: of the server, of the workers' architecture, of et-ffm for --binding ffm)
needs=$(catalog_field "$ARCH" min_jdk)
more=()
[[ " $OPTS " =~ --worker-arch[=\ ]([a-z]+) ]] && more+=("${BASH_REMATCH[1]}")
[[ " $OPTS " =~ --binding[=\ ]ffm ]] && more+=(et-ffm)
for s in "${more[@]}"; do
  n=$(catalog_field "$s" min_jdk 2>/dev/null || echo 0)
  [ "$n" -le "$needs" ] || needs=$n
done
if [ "$needs" -gt "$JDK_FEATURE" ]; then
  echo "error: $ARCH ${OPTS:+$OPTS }needs JDK $needs or newer; the lab runs on $JDK_LABEL (JAVA_HOME=... picks another)" >&2
  exit 2
fi
CONNECTIONS=${CONNECTIONS:-$([ "$MODE" = short ] && echo 1 || echo 50)}

name=$ARCH$(printf '%s' "$OPTS" | tr -cs 'a-zA-Z0-9' '-' | sed 's/-$//')
name=${name//--/-}-$MODE
mkdir -p "$OUT_DIR"
OUT_DIR=$(cd "$OUT_DIR" && pwd)
collapsed=$OUT_DIR/$name.collapsed html=$OUT_DIR/$name.html
rm -f "$OUT_DIR/$name".*

tools=$NIOLAB_HOME/target/async-profiler
agent=$tools/linux-x64/libasyncProfiler.so converter=$tools/jfr-converter-$ASYNC_PROFILER_VERSION.jar
if [ ! -f "$agent" ] || [ ! -f "$converter" ]; then
  # Maven fetches and unpacks; the parent pom pins the dependency plugin's version (-N: root only).
  (cd "$NIOLAB_HOME" && ${MVN:-mvn -q -B} -N dependency:unpack -Dmdep.unpack.includes='linux-x64/**' \
    -Dartifact="tools.profiler:async-profiler:$ASYNC_PROFILER_VERSION:jar" -DoutputDirectory="$tools" &&
    ${MVN:-mvn -q -B} -N dependency:copy -Dartifact="tools.profiler:jfr-converter:$ASYNC_PROFILER_VERSION:jar" \
      -DoutputDirectory="$tools") >&2 || { echo "error: Maven could not fetch async-profiler $ASYNC_PROFILER_VERSION" >&2; exit 1; }
fi

event=cpu
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo 4)
if [ "$paranoid" -gt 2 ]; then
  event=itimer
  echo "note: perf events are closed here (kernel.perf_event_paranoid=$paranoid): profiling with itimer, Java and JVM frames only, no kernel frames" >&2
fi
if [ "$arch" = c ] && ! command -v perf >/dev/null; then
  echo "error: the C reference is not a JVM and perf is not installed (Debian: apt-get install linux-perf)" >&2
  exit 1
fi

CLIENT_PID= PERF_PID=
cleanup() {
  [ -n "$CLIENT_PID" ] && kill "$CLIENT_PID" 2>/dev/null && wait "$CLIENT_PID" 2>/dev/null
  [ -n "$PERF_PID" ] && kill -INT "$PERF_PID" 2>/dev/null && wait "$PERF_PID" 2>/dev/null
  stop_server quiet
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# load DURATION [echo-bench options]: the mode's load, pinned to CLIENT_CPU, in the background
# so that the trap can stop it.
load() {
  local duration=$1 args=(--protocol "$protocol" -c "$CONNECTIONS" --threads 1 --max-error-rate 0.01)
  shift
  case $MODE in
    keepalive | echo) args+=(--keepalive) ;;
    pipelined) args+=(--pipeline "$DEPTH") ;;
  esac
  client_pin "$NIOLAB_HOME/bin/echo-bench" "${args[@]}" --duration "$duration" "$@" "127.0.0.1:$PORT" &
  CLIENT_PID=$!
  local rc=0
  wait "$CLIENT_PID" || rc=$?
  CLIENT_PID=
  return $rc
}

load_failed() { # WHAT
  echo "error: the $1 of $name failed (echo-bench's output follows)" >&2
  sed 's/^/  /' "$OUT_DIR/$name.load.txt" >&2
  exit 1
}

# agent PID COMMAND: hands COMMAND to the agent already loaded in JVM PID (jcmd runs on the
# client's CPU; the quotes keep the commas and = signs in one argument of jcmd's parser).
agent() {
  client_pin jcmd "$1" JVMTI.agent_load "$agent" "\"$2\"" >/dev/null
}

jvm_options=("-agentpath:$agent")
# JDK 21+ warns when an agent is loaded while running (JEP 451) unless this is said
[ "$JDK_FEATURE" -ge 21 ] && jvm_options+=(-XX:+EnableDynamicAgentLoading)
if [ "$arch" = c ]; then jvm_options=(); fi
# shellcheck disable=SC2086
JAVA_OPTS="${JAVA_OPTS:-} ${jvm_options[*]}" start_server "$arch" "$PORT" "${WORDS[@]:1}" --protocol "$protocol" $OPTS
ready_line "$SERVER_LOG" >&2
load "$WARMUP" >"$OUT_DIR/$name.load.txt" 2>&1 || load_failed warm-up

if [ "$arch" = c ]; then
  perf record -q -e cpu-clock -F 997 -g -o "$OUT_DIR/$name.perf.data" -p "$SERVER_PID" 2>/dev/null &
  PERF_PID=$!
  jvms=()
else
  mapfile -t jvms < <(tree_pids "$SERVER_PID")
  for p in "${jvms[@]}"; do agent "$p" "start,event=$event,interval=$INTERVAL"; done
fi
load "$DURATION" --server-pid "$SERVER_PID" --json "$OUT_DIR/$name.json" >"$OUT_DIR/$name.load.txt" 2>&1 || load_failed load
if [ "$arch" = c ]; then
  kill -INT "$PERF_PID"; wait "$PERF_PID" 2>/dev/null || true
  PERF_PID=
  # perf script prints a sample as a header line and its frames, innermost first, then a blank line
  perf script -i "$OUT_DIR/$name.perf.data" 2>/dev/null | awk '
    /^[^ \t]/ { n = 0; next }
    /^[ \t]+[0-9a-f]+ / { sub(/^[ \t]+[0-9a-f]+ /, ""); sub(/\+0x[0-9a-f]+/, ""); dso = $NF; sub(/ \([^)]*\)$/, "")
                           if ($0 == "[unknown]") next; if (dso ~ /kernel/) $0 = $0 "_[k]"; f[n++] = $0; next }
    /^$/ && n { s = f[n - 1]; for (i = n - 2; i >= 0; i--) s = s ";" f[i]; c[s]++; n = 0 }
    END { for (s in c) print s, c[s] }' >"$collapsed"
  rm -f "$OUT_DIR/$name.perf.data"
else
  for p in "${jvms[@]}"; do agent "$p" "stop,collapsed,file=$OUT_DIR/$name-$p.collapsed"; done
  cat "$OUT_DIR/$name"-*.collapsed >"$collapsed"
  # one JVM: its own file is the merged one
  [ "${#jvms[@]}" -eq 1 ] && rm -f "$OUT_DIR/$name"-*.collapsed
fi
stop_server quiet
[ -s "$collapsed" ] || { echo "error: the profile of $name holds no sample" >&2; exit 1; }
java -jar "$converter" --title "$name ($event, $DURATION, $CONNECTIONS connections)" "$collapsed" "$html" >/dev/null

echo "$name: $event, every $INTERVAL; server on cpu $SERVER_CPU, echo-bench on cpu $CLIENT_CPU"
# the samples, the load's rate and server CPU per request (echo-bench's JSON), the shares by
# ProfileCategories (the report generator's rules), when the generator is built
reports=$NIOLAB_HOME/experiments/reports/target/reports.jar
[ -f "$reports" ] && java -jar "$reports" profile-shares --load "$OUT_DIR/$name.json" --flame-svg "$OUT_DIR/$name.svg" "$collapsed"
echo "flame graph: $html"
echo "collapsed stacks: $collapsed"
