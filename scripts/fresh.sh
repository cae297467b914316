# shellcheck shell=bash
# Whether what was built from the tree is still the tree. Source it (bash); it defines
#   jar_fresh JAR               returns 0 when JAR is fresh, else sets STALE to why and returns 1
#   require_fresh_jars JAR...   exits 1 with one line naming `make all` at the first stale JAR
# (JAR: a path relative to the lab's root, or absolute).
#
# The launchers (bin/lab-server, bin/echo-bench, bin/record, bench.sh) refuse a stale jar rather
# than rebuild it: a build started by a launcher would take the CPU of the run it launches, and
# launches that overlap (echo-bench compare's servers, bench.sh's server and its clients) would
# rebuild the same target/ at once. `make all` builds in one place and says what failed.
#
# A jar is stale when a file it is built from is newer than it: a file under src/main or the
# pom.xml of a module it holds, the parent pom.xml, or target/jdk-home (the build's JDK). The
# modules a jar holds are read from the jar (the shade plugin keeps each one's
# META-INF/maven/niolab/ID/), so that this follows the poms with no list of its own; a jar built
# on JDK 17 holds no native-uring and is not stale when only native-uring changes.

# Every launcher pays for this check at each start, so it forks twice (grep, find) and no more.
FRESH_ROOT=${BASH_SOURCE[0]}
[[ $FRESH_ROOT == /* ]] || FRESH_ROOT=$PWD/$FRESH_ROOT
FRESH_ROOT=${FRESH_ROOT%/*/*}

# jar_fresh JAR: returns 0 when JAR is fresh, else sets STALE to why and returns 1.
jar_fresh() {
  local jar=$1 id dir newer
  [[ $jar == /* ]] || jar=$FRESH_ROOT/$jar
  STALE=
  if [ ! -f "$jar" ]; then
    STALE="${jar#"$FRESH_ROOT"/} is missing"
    return 1
  fi
  local paths=("$FRESH_ROOT/pom.xml" "$FRESH_ROOT/target/jdk-home") modules=()
  declare -A seen=()
  # each name is stored twice in a jar (the entry's header and the central directory)
  while read -r id; do
    id=${id#META-INF/maven/niolab/}
    id=${id%/pom.properties}
    [ -z "${seen[$id]:-}" ] || continue
    seen[$id]=1
    dir=$FRESH_ROOT/$id
    if [ ! -f "$dir/pom.xml" ]; then
      modules=("$FRESH_ROOT"/*/"$id"/pom.xml)
      dir=${modules[0]%/pom.xml}
    fi
    paths+=("$dir/pom.xml" "$dir/src/main")
  done < <(grep -aoE 'META-INF/maven/niolab/[A-Za-z0-9_.-]+/pom\.properties' "$jar")
  # Files only, and no editor's swap or backup file: neither is compiled.
  newer=$(find "${paths[@]}" -type f ! -name '.*' ! -name '*~' -newer "$jar" -print -quit 2>/dev/null)
  [ -n "$newer" ] || return 0
  if [ "$newer" = "$FRESH_ROOT/target/jdk-home" ]; then
    STALE="${jar#"$FRESH_ROOT"/} was built on another JDK than target/jdk-home names"
  else
    STALE="${jar#"$FRESH_ROOT"/} is older than ${newer#"$FRESH_ROOT"/}"
  fi
  return 1
}

# require_fresh_jars JAR...: exits 1 with one line naming `make all` at the first stale JAR.
require_fresh_jars() {
  local jar
  for jar; do
    if ! jar_fresh "$jar"; then
      echo "error: $STALE: run 'make all' in $FRESH_ROOT first" >&2
      exit 1
    fi
  done
}
