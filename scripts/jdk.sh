# shellcheck shell=bash
# The one place that picks the JDK the lab builds and runs on. Source it (bash):
#   source scripts/jdk.sh          JAVA_HOME if set, else the newest JDK installed
#   source scripts/jdk.sh built    JAVA_HOME if set (saying so on stderr when another JDK built
#                                  the jars), else the JDK that built the jars
#                                  (target/jdk-home, written by make), else the newest
# It exports JAVA_HOME, puts its bin first on PATH, and sets JDK_FEATURE (17, 25 ...),
# JDK_LABEL ("JDK 25 (/usr/lib/jvm/temurin-25-jdk-amd64)") and NATIVE_ACCESS.
# The newest wins because the build compiles src/main/java21 and java22 only on a JDK that has
# their API; the launchers take the build's JDK so that an older java first on PATH does not
# quietly run a lab built with newer features (the entry points would refuse those features).
# Installed JDKs: every NIOLAB_JVM_DIR/*/bin/javac (default /usr/lib/jvm) and the java on PATH.

# jdk_feature HOME: the feature release of the JDK in HOME (8, 17, 25), from its release file
# or, failing that, from java -version.
jdk_feature() {
  local v
  v=$(sed -n 's/^JAVA_VERSION="\(.*\)"/\1/p' "$1/release" 2>/dev/null || true)
  [ -n "$v" ] || v=$("$1/bin/java" -version 2>&1 | sed -n '1s/^[^"]*"\([^"]*\)".*/\1/p' || true)
  v=${v#1.}
  echo "${v%%[^0-9]*}"
}

# jdk_installed: "FEATURE HOME" for each JDK installed, one a line, in the order found.
jdk_installed() {
  local home
  for home in "${NIOLAB_JVM_DIR:-/usr/lib/jvm}"/*/; do
    [ -x "$home/bin/javac" ] && echo "$(jdk_feature "$home") $(readlink -f "$home")"
  done
  # the java on PATH counts too: a JDK installed elsewhere (SDKMAN, a tarball)
  if command -v java >/dev/null 2>&1; then
    home=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
    echo "$(jdk_feature "$home") $home"
  fi
  return 0
}

# jdk_newest: the home of the newest JDK installed (the first found, on a tie), empty if none.
jdk_newest() {
  jdk_installed | sort -s -k1,1nr | sed -n '1s/^[0-9]* //p'
}

# jdk_home_of FEATURE: the home of an installed JDK of that feature release, empty if none.
jdk_home_of() {
  jdk_installed | sed -n "s/^$1 //p" | sed -n 1p
}

if [ "${1:-}" = built ]; then
  JDK_BUILT=$(cat "$(dirname "${BASH_SOURCE[0]}")/../target/jdk-home" 2>/dev/null || true)
  if [ -z "${JAVA_HOME:-}" ]; then
    JAVA_HOME=$JDK_BUILT
    [ -x "$JAVA_HOME/bin/java" ] || JAVA_HOME=
  elif [ -n "$JDK_BUILT" ] && [ "$(readlink -f "$JAVA_HOME")" != "$(readlink -f "$JDK_BUILT")" ]; then
    # JAVA_HOME wins, as it does for make; said once, so that a run on another JDK is not a surprise
    echo "note: running on JAVA_HOME=$JAVA_HOME, not $JDK_BUILT that built the jars (unset JAVA_HOME for that one)" >&2
  fi
fi
if [ -z "${JAVA_HOME:-}" ]; then
  JAVA_HOME=$(jdk_newest)
  if [ -z "$JAVA_HOME" ]; then
    echo "error: no JDK found (in ${NIOLAB_JVM_DIR:-/usr/lib/jvm} or as java on PATH): install JDK 17 or newer, or set JAVA_HOME" >&2
    return 1 2>/dev/null || exit 1
  fi
elif [ ! -x "$JAVA_HOME/bin/java" ]; then
  echo "error: JAVA_HOME=$JAVA_HOME holds no bin/java" >&2
  return 1 2>/dev/null || exit 1
fi
export JAVA_HOME
export PATH="$JAVA_HOME/bin:$PATH"
JDK_FEATURE=$(jdk_feature "$JAVA_HOME")
JDK_LABEL="JDK $JDK_FEATURE ($JAVA_HOME)"

# Every JVM that loads native code (JNA for et, Netty's epoll library) grants it explicitly:
# JDK 24+ warns on each start otherwise (JEP 472) and a later JDK refuses; JDK 17 accepts it.
NATIVE_ACCESS=--enable-native-access=ALL-UNNAMED

# Maven 3.8's Guava calls sun.misc.Unsafe, which JDK 24+ reports on every build (JEP 471).
# The option that allows it exists from JDK 23 on and older JDKs refuse it, so it is set for
# this JDK alone (a JDK picked before, in this environment, may have added it).
MAVEN_UNSAFE=--sun-misc-unsafe-memory-access=allow
MAVEN_OPTS=${MAVEN_OPTS:-}
MAVEN_OPTS=${MAVEN_OPTS//$MAVEN_UNSAFE/}
if [ "$JDK_FEATURE" -ge 23 ]; then MAVEN_OPTS="$MAVEN_OPTS $MAVEN_UNSAFE"; fi
export MAVEN_OPTS
