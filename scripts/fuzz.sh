#!/usr/bin/env bash
# make fuzz: fuzzes every Jazzer target (a @FuzzTest method) for FUZZ_SECONDS each, one JVM per
# target (Jazzer fuzzes one test per run), and prints per target its executions, the coverage
# reached and any finding with its reproducer. FUZZ_TARGETS=REGEX keeps the targets whose
# Class#method matches. A finding's input is written by Jazzer into the target's inputs directory
# under src/test/resources, where `make test` replays it from then on: fix the parser, keep the file.
# Each target's whole log: target/fuzz/CLASS#METHOD.log. docs/fuzzing.md says more.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/jdk.sh

seconds=${FUZZ_SECONDS:-60}
filter=${FUZZ_TARGETS:-.}
mvn=${MVN:-mvn -q -B -Dstyle.color=never}
mkdir -p target/fuzz

# Module, class and method of each @FuzzTest: the method is declared on the line after the annotation.
targets=$(grep -rn -A1 --include='*FuzzTest.java' '@FuzzTest' --exclude-dir=target . |
  awk '/@FuzzTest/ { file = $0; sub(/:[0-9]+:.*/, "", file); next }
       match($0, /void [A-Za-z0-9_]+\(/) {
         method = substr($0, RSTART + 5, RLENGTH - 6)
         module = file; sub(/^\.\//, "", module); sub(/\/src\/test\/java\/.*/, "", module)
         cls = file; sub(/.*\/src\/test\/java\//, "", cls); sub(/\.java$/, "", cls); gsub(/\//, ".", cls)
         print module, cls "#" method }' | sort -u | grep -E -- "$filter")
if [ -z "$targets" ]; then
  echo "error: no @FuzzTest matches FUZZ_TARGETS=$filter" >&2
  exit 2
fi

echo "fuzzing each target for ${seconds} s on $JDK_LABEL (logs in target/fuzz/)"
printf '%-62s %12s %8s %8s  %s\n' "target" "executions" "cov" "corpus" "finding"
found=0
while read -r module target; do
  log="target/fuzz/${target}.log"
  # JAZZER_FUZZ switches jazzer-junit from replaying inputs to fuzzing; jazzer.hooks turns the
  # coverage instrumentation on (make test replays without it); the libFuzzer arguments after the
  # first (argv[0]) bound the run. C2 and a 1 GiB heap: speed, and an allocation past it is a finding.
  JAZZER_FUZZ=1 $mvn -pl "$module" -am test -Dtest="$target" -Dsurefire.failIfNoSpecifiedTests=false \
      -Djazzer.hooks=true -Djazzer.keep_going=20 -Djazzer.internal.arg.0=fuzz -Djazzer.internal.arg.1=-max_total_time="$seconds" \
      -Djazzer.internal.arg.2=-max_len=16384 -Djazzer.internal.arg.3=-timeout=10 \
      -Dtest.jit.options="-Xmx1g -XX:+UseSerialGC" -Dtest.forks=1 >"$log" 2>&1
  rc=$?
  done_line=$(grep -E '^(#[0-9]+[[:space:]]+DONE|Done [0-9]+ runs)' "$log" | tail -1)
  executions=$(grep -oE '^Done [0-9]+ runs' "$log" | tail -1 | grep -oE '[0-9]+')
  last=$(grep -E '^#[0-9]+[[:space:]].*cov: ' "$log" | tail -1)
  [ -z "$executions" ] && executions=$(sed -E 's/^#([0-9]+).*/\1/' <<<"$last")
  cov=$(grep -oE 'cov: [0-9]+' <<<"$last" | grep -oE '[0-9]+')
  corp=$(grep -oE 'corp: [0-9]+' <<<"$last" | grep -oE '[0-9]+')
  finding=""
  if grep -q '== Java Exception\|ERROR: libFuzzer\|Out of memory\|Tests run:.*Failures: [1-9]\|Tests run:.*Errors: [1-9]' "$log" || [ $rc -ne 0 ]; then
    found=$((found + 1))
    finding=$(grep '== Java Exception' "$log" | sed 's/^== Java Exception: //' | sort | uniq -c | sed 's/^ *//' | head -3 | cut -c1-140 | paste -sd';' -)
    [ -z "$finding" ] && finding="maven exited $rc: see $log"
  fi
  [ -z "$done_line" ] && [ -z "$finding" ] && finding="no fuzzing run: see $log"
  printf '%-62s %12s %8s %8s  %s\n' "$target" "${executions:-?}" "${cov:-?}" "${corp:-?}" "$finding"
  if [ -n "$finding" ]; then
    grep -E 'Test unit written to|reproducer|crash-[0-9a-f]+' "$log" | sed 's/^/    /' | sort -u | head -5
  fi
done <<<"$targets"
echo "fuzz: $(wc -l <<<"$targets") targets, $found with a finding"
[ "$found" -eq 0 ]
