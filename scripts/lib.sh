# shellcheck shell=bash
# The shell library of bench.sh, scripts/*.sh and experiments/scripts/*.sh: start a lab server
# in the background, tied to the script (tethered: it dies with the script, even a SIGKILLed one),
# and stop it by PID whatever happens, pin servers and clients to CPUs, save
# /proc as it is (proc_sample: the report generator's `summarize` computes from it), record the
# environment of a run. Source it (after set -euo pipefail); it picks the JDK the jars were built
# on (scripts/jdk.sh), defines NIOLAB_HOME and require_fresh_jars (scripts/fresh.sh).
#
# Pinning: SERVER_CPU and CLIENT_CPU (taskset CPU lists, e.g. 0 and 1), unpinned when empty.
# mp: WORKERS worker JVMs (default 4), added here to every mp command line.

NIOLAB_HOME=${NIOLAB_HOME:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
source "$NIOLAB_HOME/scripts/jdk.sh" built
source "$NIOLAB_HOME/scripts/fresh.sh"
SERVER_PID=
SERVER_LOG=
TETHER_SH=$NIOLAB_HOME/lab-common/src/main/resources/niolab/common/tether.sh
# tethered's watchers, by the pid of the command each one guards
declare -gA TETHERS=()

# tethered CMD...: runs CMD in the background in a process group of its own, tied to this shell:
# when the shell dies, by any signal, SIGKILL included, CMD and whatever it forked are stopped
# within about a second. CMD runs under setsid setpriv --pdeathsig KILL and beside it a watcher,
# lab-common's tether.sh, under setpriv --pdeathsig TERM; echo-bench compare ties its servers the
# same way (echo-bench/README.md, "Stopped or killed", has the limits). Sets TETHERED_PID, CMD's
# own pid (setsid and setpriv exec it).
# Call it in the shell that keeps running, never in a $(...) or a pipeline: the signal comes when
# the calling process ends. untether PID ends the watcher once the command is stopped.
tethered() {
  # this process, the parent of both: inside the & below, BASHPID would be the child's own pid
  local starter=$BASHPID
  setsid setpriv --pdeathsig KILL "$@" &
  TETHERED_PID=$!
  setpriv --pdeathsig TERM sh "$TETHER_SH" "$TETHERED_PID" "$starter" </dev/null >/dev/null 2>&1 &
  TETHERS[$TETHERED_PID]=$!
}

# untether PID: ends the watcher of tethered's PID (already stopped), so that nothing is left.
untether() {
  local w=${TETHERS[$1]:-}
  [ -n "$w" ] || return 0
  kill -KILL "$w" 2>/dev/null || true
  wait "$w" 2>/dev/null || true
  unset "TETHERS[$1]"
}

# The catalog (lab-common's ServerCatalog, printed by `bin/lab-server catalog`): every server the
# lab names, and what each script runs when not told otherwise. Read once: catalog_load, then
# the functions below read NIOLAB_CATALOG (each loads it again when it is unset, at a JVM start).
#   selection NAME           the servers of a selection, on one line: SERVERS=${SERVERS:-$(selection http)}
#   catalog_field NAME FIELD one column of a server: catalog_field et-ffm min_jdk  ->  22
#   server_words NAME [N]    the lab-server words that start it, its count N (default 2): lt --loops 4
NIOLAB_CATALOG=${NIOLAB_CATALOG:-}
NIOLAB_SELECTIONS=${NIOLAB_SELECTIONS:-}
catalog_load() {
  if [ -z "$NIOLAB_CATALOG" ]; then
    NIOLAB_CATALOG=$("$NIOLAB_HOME/bin/lab-server" catalog) || return 1
    NIOLAB_SELECTIONS=$("$NIOLAB_HOME/bin/lab-server" catalog --selections) || return 1
  fi
}

selection() {
  catalog_load || return 1
  local line
  line=$(awk -F'\t' -v s="$1" '$1 == s { print $2 }' <<<"$NIOLAB_SELECTIONS")
  [ -n "$line" ] || { echo "error: the catalog has no selection '$1' (bin/lab-server catalog --selections)" >&2; return 2; }
  echo "$line"
}

catalog_field() {
  catalog_load || return 1
  local value
  value=$(awk -F'\t' -v n="$1" -v f="$2" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $1 == n { print $col[f]; found = 1 } END { exit !found }' <<<"$NIOLAB_CATALOG") \
    || { echo "error: the catalog has no server '$1' (bin/lab-server catalog)" >&2; return 2; }
  echo "$value"
}

server_words() {
  local command
  command=$(catalog_field "$1" command) || return $?
  echo "${command//\{n\}/${2:-2}}"
}

# pin_prefix CPU: the words that run a command on CPU ("taskset -c CPU"), none when CPU is
# empty. Used unquoted, as a prefix: $(pin_prefix "$CLIENT_CPU") CMD... keeps CMD's own PID.
pin_prefix() {
  if [ -n "$1" ]; then echo "taskset -c $1"; fi
}

# server_command ARCH [OPTIONS...]: lab-server ARCH as a command that `echo-bench compare --forks`
# starts afresh in every fork, on SERVER_CPU, its port written {port} (compare picks a free one);
# mp gets --workers WORKERS as start_server gives it. JAVA_OPTS set in the caller's environment
# reaches it; SERVER_JAVA_OPTS=OPTS, when set, is prefixed as its own JAVA_OPTS (a JVM knob per server).
server_command() {
  local arch=$1 words
  shift
  words="$(pin_prefix "${SERVER_CPU:-}") $NIOLAB_HOME/bin/lab-server $arch --port {port}"
  [ "$arch" = mp ] && words="$words --workers ${WORKERS:-4}"
  [ $# -eq 0 ] || words="$words $*"
  [ -z "${SERVER_JAVA_OPTS:-}" ] || words="JAVA_OPTS='${JAVA_OPTS:-} $SERVER_JAVA_OPTS' $words"
  echo "${words# }"
}

# client_pin CMD...: runs CMD on CLIENT_CPU.
client_pin() {
  # shellcheck disable=SC2046
  $(pin_prefix "${CLIENT_CPU:-}") "$@"
}

# http_mode_args MODE LOAD: echo-bench compare's options for a /ping mode (keepalive, close, or
# pipeline at DEPTH, 16) under LOAD (wrk pipelines through scripts/wrk-pipeline.lua), on one line.
http_mode_args() {
  case $1 in
    keepalive) echo "-k" ;;
    close) echo "" ;;
    pipeline) if [ "$2" = wrk ]; then echo "--pipeline ${DEPTH:-16} --wrk-script $NIOLAB_HOME/scripts/wrk-pipeline.lua"; else echo "--pipeline ${DEPTH:-16}"; fi ;;
    *) echo "error: unknown mode '$1' (keepalive, close, pipeline)" >&2; return 2 ;;
  esac
}

# ready_line [LOG]: the server's ready line in LOG (or on stdin), "listening on HOST:PORT (LABEL)":
# the one format every lab server, Netty peer and the C reference prints (lab-common's ReadyLine
# owns it); exit status 1 while there is none. A worker's "[w1] listening on ..." is not one.
ready_line() {
  grep -m1 -E '^listening on (\[[^]]+\]|[^[:space:]]+):[0-9]+ \(.*\)$' "$@"
}

# start_server ARCH PORT [server options...]: sets SERVER_PID and SERVER_LOG; returns 1 if the
# server exits or is not ready within READY_TIMEOUT seconds (default 60), printing its output.
# The server runs on SERVER_CPU; SERVER_NETNS=NS runs it inside network namespace NS.
start_server() {
  local arch=$1 port=$2
  shift 2
  SERVER_LOG=$(mktemp "${TMPDIR:-/tmp}/niolab-$arch.XXXXXX")
  local prefix=()
  # ip netns exec and taskset both exec their command: SERVER_PID stays the server's own
  [ -n "${SERVER_NETNS:-}" ] && prefix=(ip netns exec "$SERVER_NETNS")
  # shellcheck disable=SC2207
  prefix+=($(pin_prefix "${SERVER_CPU:-}"))
  local options=()
  [ "$arch" = mp ] && options=(--workers "${WORKERS:-4}")
  tethered "${prefix[@]}" "$NIOLAB_HOME/bin/lab-server" "$arch" --port "$port" "${options[@]}" "$@" >"$SERVER_LOG" 2>&1
  SERVER_PID=$TETHERED_PID
  local deadline=$((SECONDS + ${READY_TIMEOUT:-60}))
  until ready_line "$SERVER_LOG" >/dev/null; do
    if ! kill -0 "$SERVER_PID" 2>/dev/null || [ $SECONDS -ge $deadline ]; then
      echo "error: lab-server $arch did not start on port $port:" >&2
      sed 's/^/  /' "$SERVER_LOG" >&2
      stop_server
      return 1
    fi
    sleep 0.1
  done
  # the JVM's or a library's warnings would otherwise stay in the log, unseen
  grep -E '^(\[w[0-9]+\] )?WARNING:' "$SERVER_LOG" >&2 || true
}

# stop_server [quiet]: SIGTERM, up to 15 s to drain and exit, then SIGKILL; prints the counters.
stop_server() {
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    local i
    for i in $(seq 150); do
      kill -0 "$SERVER_PID" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    [ "${1:-}" = quiet ] || grep -E '^(counters|total|\[w[0-9]+\] counters)' "$SERVER_LOG" | sed 's/^/server /' || true
  fi
  [ -z "$SERVER_PID" ] || untether "$SERVER_PID"
  SERVER_PID=
  # SERVER_LOG_COPY=FILE keeps the server's whole output (its counters come last, at exit)
  if [ -n "$SERVER_LOG" ] && [ -n "${SERVER_LOG_COPY:-}" ]; then cp "$SERVER_LOG" "$SERVER_LOG_COPY"; fi
  if [ -n "$SERVER_LOG" ]; then rm -f "$SERVER_LOG"; fi
  SERVER_LOG=
}

# atomic_write FILE: stdin to FILE whole or not at all: written to FILE.partial beside it, then
# renamed into place (a rename within a folder is atomic), so a run killed while writing leaves
# the old FILE, never half of one; lab-common's AtomicFile does the same for the Java tools.
atomic_write() {
  cat >"$1.partial"
  mv -f "$1.partial" "$1"
}

# tree_pids PID: PID and all its descendants (mp: the master and its workers), one a line.
tree_pids() {
  local kid
  echo "$1"
  for kid in $(ps -o pid= --ppid "$1" 2>/dev/null); do tree_pids "$kid"; done
}

# hold N PORT [DATA]: opens N connections to 127.0.0.1:PORT from this shell and keeps them open
# (in HELD_FDS, until release), a scenario's quiet clients: each sends DATA once, if given, and
# never reads. The caller's descriptor limit bounds N.
HELD_FDS=()
hold() {
  local i fd
  for i in $(seq "$1"); do
    exec {fd}<>"/dev/tcp/127.0.0.1/$2"
    if [ -n "${3:-}" ]; then printf %s "$3" >&"$fd"; fi
    HELD_FDS+=("$fd")
  done
}

# release: closes every connection hold opened.
release() {
  local fd
  for fd in "${HELD_FDS[@]}"; do exec {fd}>&-; done
  HELD_FDS=()
}

# proc_sample FILE KEY PID process|tree: the one /proc sampler. Appends to FILE what /proc says
# now about PID (process: PID alone; tree: PID and its descendants, an mp master and its workers),
# as it says it, a line each prefixed "KEY TIME " (TIME: EPOCHREALTIME as the sample begins):
# every process's and thread's stat line, each thread's context-switch counts and each process's
# VmRSS (KEY: no spaces or commas). `summarize runs` (the report generator) computes from these:
# the CPU ticks, switches and memory from a key's first sample to its last.
proc_sample() {
  local file=$1 key=$2 pid=$3 scope=$4 time=$EPOCHREALTIME p pids
  case $scope in
    process) pids=$pid ;;
    tree) pids=$(tree_pids "$pid") ;;
    *) echo "error: proc_sample: the scope is process or tree, not '$scope'" >&2; return 2 ;;
  esac
  echo "$key $time" >>"$file"
  for p in $pids; do
    # a thread may end between the glob and its read: what is gone is not counted
    { grep -H '' /proc/"$p"/stat /proc/"$p"/task/*/stat
      grep -H '^VmRSS:' /proc/"$p"/status
      grep -H '_ctxt_switches:' /proc/"$p"/task/*/status; } 2>/dev/null || true
  done | sed "s|^|$key $time |" >>"$file"
}

# summarize SUBCOMMAND ARGS...: the report generator's `summarize`, which computes every number
# the scripts save from their raw output (runs: a row per run; medians; strace: a trace's calls).
summarize() {
  java -jar "$NIOLAB_HOME/experiments/reports/target/reports.jar" summarize "$@"
}

# run_recorder ARGS...: lab-common's RunRecorder from echo-bench's jar on the java first on PATH
# (the JDK a run uses is the one it records), with SERVER_CPU, CLIENT_CPU and JAVA_OPTS as set.
run_recorder() {
  local jar=$NIOLAB_HOME/echo-bench/target/echo-bench.jar
  if [ ! -f "$jar" ]; then
    echo "error: $jar is missing; run 'make all' in $NIOLAB_HOME first" >&2
    return 1
  fi
  SERVER_CPU=${SERVER_CPU:-} CLIENT_CPU=${CLIENT_CPU:-} JAVA_OPTS=${JAVA_OPTS:-} \
    java -cp "$jar" niolab.common.results.RunRecorder "$@"
}

# env_json: the environment of a run as JSON (env.json), what a reader needs to judge its numbers:
# CPU, cores, memory, kernel, JDK, pinning, JVM flags, limits, commit.
env_json() {
  run_recorder env --repo "$NIOLAB_HOME"
}

# conditions_begin DIR: notes the load average and the CPU counters of /proc/stat now, in
# DIR/.conditions-begin, for conditions_end.
conditions_begin() {
  mkdir -p "$1"
  { cut -d' ' -f1-3 /proc/loadavg; grep -m1 '^cpu ' /proc/stat; } >"$1/.conditions-begin"
}

# conditions_end DIR [NOISE_JSON]: writes DIR/conditions.json, the machine's state over the run
# since conditions_begin: the load average before and after, the steal time (the hypervisor's
# share of all CPU time, from /proc/stat) and, when given, the noise floor measured then (the
# `echo-bench compare --json` file of `make noise`, copied to DIR/noise.json).
conditions_end() {
  local dir=$1 noise=${2:-}
  if [ -n "$noise" ] && [ "$noise" != "$dir/noise.json" ]; then cp "$noise" "$dir/noise.json"; fi
  run_recorder conditions "$dir/.conditions-begin" ${noise:+--noise noise.json} >"$dir/conditions.json"
  rm -f "$dir/.conditions-begin"
}
