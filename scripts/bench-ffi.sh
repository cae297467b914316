#!/usr/bin/env bash
# make bench-ffi: what one hot-path call of an epoll loop costs, in ns, through each way a JVM
# has to make it, beside the bare cost from C, all pinned to one CPU:
#   epollWait   epoll_wait with timeout 0 on an empty set (SocketChannel column: Selector.selectNow)
#   readEagain  read on an empty non-blocking TCP socket (EAGAIN)
#   send64      a 64-byte send to a TCP_NODELAY loopback socket whose peer is drained, untimed,
#               before each batch of 256 sends (see microbench/.../SyscallCosts.java)
# Columns: C (microbench/src/main/c/syscall-cost.c), JNA direct mapping, FFM, FFM with
# Linker.Option.critical (the lab's FFM binding; never for epoll_wait, which sleeps), the JDK's
# SocketChannel. A binding's overhead per call is its ns minus C's. Each figure is the median
# over the timed rounds (C) or measurement iterations (JMH); results.json also has the fastest
# (*_min_ns), the least disturbed on a shared CPU, where a round the scheduler interrupts only
# gets slower. B/op is JMH's -prof gc.
#
# Needs JDK 22+ (JAVA_HOME if it is one, else the newest in /usr/lib/jvm), gcc, taskset, and the
# report generator (make all), which computes the figures from what was measured (summarize ffi).
# Environment: CPU (1: the CPU everything is pinned to), JMH_ARGS ("-f 1 -wi 5 -i 5 -w 1s -r 1s"),
# C_CALLS (200000 per round), C_ROUNDS (5), RESULTS_DIR (default: a new temp dir): c.csv,
# jmh.json, jmh.log, env.json, results.csv, results.json, table.txt.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

CPU=${CPU:-1} JMH_ARGS=${JMH_ARGS:-"-f 1 -wi 5 -i 5 -w 1s -r 1s"}
C_CALLS=${C_CALLS:-200000} C_ROUNDS=${C_ROUNDS:-5}
RESULTS_DIR=${RESULTS_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/bench-ffi.XXXXXX")}
MVN=${MVN:-mvn -q -B -Dstyle.color=never}
BENCH_JAR=$NIOLAB_HOME/microbench/target/microbench.jar
C_BIN=$NIOLAB_HOME/microbench/target/syscall-cost

for tool in gcc taskset; do
  command -v "$tool" >/dev/null || { echo "error: $tool is missing (Debian: apt-get install ${tool/taskset/util-linux})" >&2; exit 1; }
done

# JAVA_HOME if it is JDK 22+, else the newest JDK installed (scripts/jdk.sh)
JDK=$JAVA_HOME
[ "$JDK_FEATURE" -ge 22 ] || JDK=$(jdk_newest)
if [ -z "$JDK" ] || [ "$(jdk_feature "$JDK")" -lt 22 ]; then
  echo "error: bench-ffi needs JDK 22 or newer (FFM); JAVA_HOME and /usr/lib/jvm have none" >&2
  exit 2
fi
JAVA=$JDK/bin/java
echo "bench-ffi: JDK $(jdk_feature "$JDK") ($JDK), pinned to CPU $CPU, results in $RESULTS_DIR" >&2

# Build what is older than its sources: the benchmarks jar (on that JDK) and the C program.
mkdir -p "$RESULTS_DIR" "$NIOLAB_HOME/microbench/target"
RESULTS_DIR=$(cd "$RESULTS_DIR" && pwd)
if [ ! -f "$BENCH_JAR" ] || [ -n "$(find "$NIOLAB_HOME"/{pom.xml,native-epoll,microbench} \
      -newer "$BENCH_JAR" \( -name '*.java' -o -name pom.xml \) -print -quit)" ]; then
  (cd "$NIOLAB_HOME" && JAVA_HOME=$JDK $MVN -pl microbench -am -DskipTests package)
fi
C_SRC=$NIOLAB_HOME/microbench/src/main/c/syscall-cost.c
[ "$C_BIN" -nt "$C_SRC" ] || gcc -O2 -Wall -Wextra -o "$C_BIN" "$C_SRC"

PATH="$JDK/bin:$PATH" SERVER_CPU=$CPU CLIENT_CPU=$CPU env_json >"$RESULTS_DIR/env.json"

echo "bench-ffi: C, $C_ROUNDS rounds of $C_CALLS calls each" >&2
taskset -c "$CPU" "$C_BIN" "$C_CALLS" "$C_ROUNDS" >"$RESULTS_DIR/c.csv"

echo "bench-ffi: JMH $JMH_ARGS -prof gc (log: $RESULTS_DIR/jmh.log)" >&2
# shellcheck disable=SC2086
taskset -c "$CPU" "$JAVA" -jar "$BENCH_JAR" $JMH_ARGS -prof gc \
  -foe true -e 'FfmCriticalCosts.epollWait' -rf json -rff "$RESULTS_DIR/jmh.json" 'niolab.microbench.' \
  >"$RESULTS_DIR/jmh.log" 2>&1 || { tail -30 "$RESULTS_DIR/jmh.log" >&2; exit 1; }

# Per call: C's median and fastest over its rounds, each JMH column's over its iterations, and B/op
# (results.json, results.csv), computed by the report generator, which prints the tables: ns per
# call, overhead over C, FFM's overhead as a share of JNA's; then B/op.
{
  summarize ffi "$RESULTS_DIR"
  echo
  echo "ns per call (medians), pinned to CPU $CPU; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
} | tee "$RESULTS_DIR/table.txt"
