# shellcheck shell=bash
# JDK 25's AOT cache (JEP 483, 514, 515) for lab-server and echo-bench: the classes a training
# run loaded, already parsed, verified and linked, with its method profiles, mapped at start
# instead of loaded again from the jar. `make aot` trains the caches into target/aot/
# (scripts/aot-train.sh); AOT=1 makes bin/lab-server and bin/echo-bench run with them, and so
# make run-bench-*, the experiments and mp's workers (which get their master's JVM options).
# Source it after scripts/jdk.sh.
#
# A cache belongs to the jars and the JDK it was trained on, and JDK 25.0.3 does not check the
# jars: it maps a cache whose jar has been rebuilt since and runs the old classes, silently
# (JDK-8377932, fixed in 25.0.4). So each cache has a stamp of both beside it, and a run whose
# jars or JDK differ from the stamp is refused with one line.

AOT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/target/aot
# The training drivers: the training run's classpath, which the cache then requires of every run.
AOT_TRAINING_JAR=$AOT_DIR/aot-training.jar

# aot_stamp JAR: what a cache of the application in JAR is trained on: the JDK's exact build
# and home, then size and mtime of each jar on the classpath (what the JVM's own check compares).
aot_stamp() {
  echo "jdk $(sed -n 's/^JAVA_RUNTIME_VERSION=//p' "$JAVA_HOME/release") $JAVA_HOME"
  stat -c 'jar %n %s %Y' "$1" "$AOT_TRAINING_JAR"
}

# aot_fresh APP JAR: whether target/aot/APP.aot exists and was trained on JAR and this JDK.
aot_fresh() {
  [ -f "$AOT_DIR/$1.aot" ] && [ "$(aot_stamp "$2" 2>/dev/null)" = "$(cat "$AOT_DIR/$1.aot.stamp" 2>/dev/null)" ]
}

# aot_classpath JAR: the classpath of the training run and of every run using its cache.
aot_classpath() {
  echo "$1:$AOT_TRAINING_JAR"
}

# aot_use APP JAR: sets AOT_CLASSPATH and AOT_OPTIONS to run APP (lab-server, echo-bench) from
# JAR with target/aot/APP.aot; else prints one line and returns 2 (an older JDK, an application
# without a cache) or 1 (no cache yet, or one trained on other jars or another JDK).
aot_use() {
  local cache=$AOT_DIR/$1.aot
  if [ "$JDK_FEATURE" -lt 25 ]; then
    echo "error: AOT=1 needs JDK 25 or newer (this JVM is $JDK_FEATURE)" >&2
    return 2
  fi
  case $1 in
    lab-server | echo-bench) ;;
    *) echo "error: AOT=1: make aot trains lab-server and echo-bench only, not $1" >&2; return 2 ;;
  esac
  if [ ! -f "$cache" ]; then
    echo "error: AOT=1: $cache is missing; run 'make aot'" >&2
    return 1
  fi
  if ! aot_fresh "$1" "$2"; then
    echo "error: AOT=1: $cache was trained on another $(basename "$2") or JDK; run 'make aot' to retrain it" >&2
    return 1
  fi
  AOT_CLASSPATH=$(aot_classpath "$2")
  # on, not auto: a cache the JVM rejects itself (other JVM flags) stops the start with the
  # JVM's reason, where auto would print it and run on without the cache
  AOT_OPTIONS=(-XX:AOTCache="$cache" -XX:AOTMode=on)
}
