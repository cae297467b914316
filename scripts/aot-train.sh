#!/usr/bin/env bash
# make aot: trains the AOT caches of lab-server and echo-bench into target/aot/ (JDK 25+; what
# a cache is and how runs use it: scripts/aot.sh). A cache whose stamp still matches its jars
# and JDK is kept.
#
# Each cache takes two steps: a training run records what the JVM loads, links and profiles
# (-XX:AOTMode=record; the runs are aot-training/'s *Training classes), then
# -XX:AOTMode=create writes the cache from that record. Two steps rather than JDK 25's one
# (-XX:AOTCacheOutput) because mp's workers inherit the training JVM's options: with %p in the
# record's name each worker writes a record of its own, and only the training JVM's is kept.
# Environment: AOT_PORT (29600), where echo-bench's training finds an lt echo server.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
source "$NIOLAB_HOME/scripts/aot.sh"
# the training runs and the server echo-bench trains against run without a cache
unset AOT

if [ "$JDK_FEATURE" -lt 25 ]; then
  echo "make aot: the AOT cache needs JDK 25 or newer (this JDK is $JDK_FEATURE)" >&2
  exit 2
fi
LAB_JAR=$NIOLAB_HOME/lab-servers/target/lab-servers.jar
BENCH_JAR=$NIOLAB_HOME/echo-bench/target/echo-bench.jar
TRAINING_PID=
trap '[ -z "$TRAINING_PID" ] || kill "$TRAINING_PID" 2>/dev/null || true; stop_server quiet' EXIT
trap 'exit 130' INT TERM
mkdir -p "$AOT_DIR"

# The training runs, built by make all (the aot-training module); copied only when they changed,
# since a new copy outdates the caches trained with the old one (its mtime is in their stamps).
built=$NIOLAB_HOME/aot-training/target/aot-training.jar
if [ ! -f "$built" ]; then
  echo "error: $built is missing: run make all first" >&2
  exit 1
fi
cmp -s "$built" "$AOT_TRAINING_JAR" || cp "$built" "$AOT_TRAINING_JAR"

# train APP JAR MAIN [ARGS...]: a recorded run of MAIN, APP's cache created from its record, stamped.
train() {
  local app=$1 jar=$2 main=$3
  shift 3
  local cache=$AOT_DIR/$app.aot log=$AOT_DIR/$app-training.log cp
  if aot_fresh "$app" "$jar"; then
    echo "make aot: $cache is up to date"
    return 0
  fi
  cp=$(aot_classpath "$jar")
  rm -f "$cache" "$cache.stamp" "$AOT_DIR/$app"-*.aotconf
  echo "make aot: training $app (log: $log)"
  java "$NATIVE_ACCESS" -XX:AOTMode=record -XX:AOTConfiguration="$AOT_DIR/$app-%p.aotconf" -cp "$cp" "$main" "$@" >"$log" 2>&1 &
  TRAINING_PID=$!
  if ! wait "$TRAINING_PID"; then
    echo "error: the training run of $app failed; the end of $log:" >&2
    tail -15 "$log" | sed 's/^/  /' >&2
    return 1
  fi
  # the JVM names the record pid<PID>; the records of mp's workers go with the rest
  local record=$AOT_DIR/$app-pid$TRAINING_PID.aotconf
  TRAINING_PID=
  if ! java "$NATIVE_ACCESS" -XX:AOTMode=create -XX:AOTConfiguration="$record" -XX:AOTCache="$cache" -cp "$cp" >>"$log" 2>&1; then
    echo "error: creating $cache failed; the end of $log:" >&2
    tail -15 "$log" | sed 's/^/  /' >&2
    return 1
  fi
  rm -f "$AOT_DIR/$app"-*.aotconf
  aot_stamp "$jar" >"$cache.stamp"
  echo "make aot: wrote $cache ($(du -h "$cache" | cut -f1))"
}

train lab-server "$LAB_JAR" niolab.aot.LabServerTraining

AOT_PORT=${AOT_PORT:-29600}
aot_fresh echo-bench "$BENCH_JAR" || start_server lt "$AOT_PORT"
train echo-bench "$BENCH_JAR" niolab.aot.EchoBenchTraining "127.0.0.1:$AOT_PORT" "${SERVER_PID:-0}"
