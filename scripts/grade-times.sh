#!/usr/bin/env bash
# make grade-times [LABS="2 3"] [OUT=labs/grade-times.tsv]: how long `make grade LAB=N` takes a
# teacher, measured. Writes two fresh handouts to a temporary folder, the reference
# (SOLUTIONS=1: full marks) and the stubs (a fresh handout: its stalls), runs `make all` in each
# (not timed, as a student does first), then times `make grade LAB=N` for each lab of LABS in
# each, and writes OUT: the machine (nproc, CPU, kernel, JDK), the load average before and after,
# and a row per lab and tree (seconds, points). `make labs` quotes OUT in
# labs/README.md, with how long the whole run took; LABS="1 2 3 4 5 6 7" times every lab.
set -euo pipefail
labs=${LABS:-2 3}
out=${OUT:-labs/grade-times.tsv}
for lab in $labs; do
  [[ $lab =~ ^[1-7]$ ]] || { echo "error: LABS takes lab numbers 1 to 7 with spaces (LABS=\"2 3\"), not '$lab'" >&2; exit 2; }
done
here="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
cd "$here"
# shellcheck source=scripts/jdk.sh
source scripts/jdk.sh >/dev/null
mvn_cmd=${MVN:-mvn -o -q -B}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/grade-times.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
run_start=$SECONDS
make -s handout DEST="$tmp/reference" SOLUTIONS=1 >/dev/null
make -s handout DEST="$tmp/stubs" >/dev/null
rows=""
for tree in reference stubs; do
  echo "== $tree: make all" >&2
  (cd "$tmp/$tree" && make -s all MVN="$mvn_cmd") >"$tmp/$tree-all.log" 2>&1 \
    || { echo "error: make all failed in the $tree handout ($(tail -1 "$tmp/$tree-all.log"))" >&2; exit 1; }
  for lab in $labs; do
    echo "== $tree: make grade LAB=$lab" >&2
    start=$(date +%s%N)
    code=0
    (cd "$tmp/$tree" && make -s grade LAB="$lab" MVN="$mvn_cmd") >"$tmp/$tree-$lab.txt" 2>&1 || code=$?
    seconds=$(( ($(date +%s%N) - start + 500000000) / 1000000000 ))
    # the grader's last line per lab: "  total   11/16  full"
    total=$(sed -n 's|^  total  *\([0-9]*\)/\([0-9]*\).*|\1\t\2|p' "$tmp/$tree-$lab.txt" | tail -1)
    [ -n "$total" ] || { echo "error: make grade LAB=$lab printed no total in the $tree handout (exit $code)" >&2; cat "$tmp/$tree-$lab.txt" >&2; exit 1; }
    echo "   $seconds s, ${total%	*} of ${total#*	} points (exit $code)" >&2
    rows+="$lab	$tree	$seconds	$total	$code"$'\n'
  done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

mkdir -p "$(dirname "$out")"
{
  echo "# Grading times: written by make grade-times (scripts/grade-times.sh), read by make labs."
  echo "# make grade LAB=N timed in two fresh handouts after make all: the reference (SOLUTIONS=1) and the stubs."
  printf 'date\t%s\n' "$(date -u +%Y-%m-%d)"
  printf 'cpu\t%s\n' "$(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -1)"
  printf 'nproc\t%s\n' "$(nproc)"
  printf 'kernel\t%s\n' "$(uname -r)"
  printf 'jdk\t%s\n' "$JDK_LABEL"
  printf 'maven\t%s\n' "$mvn_cmd"
  printf 'load_before\t%s\n' "$load_before"
  printf 'load_after\t%s\n' "$load_after"
  printf 'wall_seconds\t%s\n' "$((SECONDS - run_start))"
  printf 'lab\ttree\tseconds\tearned\tpossible\texit\n'
  printf '%s' "$rows"
} >"$out"
echo "wrote $out; make labs quotes it in README.md and labs/README.md" >&2
