#!/usr/bin/env bash
# make handin LAB=N DEST=FILE [FILES="a.txt b.txt"]: writes what a student hands in for lab N,
# one Markdown file: the machine (nproc, kernel, CPU, JDK), the grade table of the last
# `make grade LAB=N` (graded now if there is none), then each run kept by bin/record under
# runs/labN/ and each file named in FILES, every one with its command and raw output.
set -euo pipefail
lab=${LAB:-} dest=${DEST:-}
if ! [[ $lab =~ ^[1-9]$ ]] || [ -z "$dest" ]; then
  echo "error: say which lab and where: make handin LAB=N DEST=FILE [FILES=\"more.txt ...\"]" >&2
  exit 2
fi
here="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
cd "$here"
runs="runs/lab$lab"
grade="$runs/grade.txt"
for f in ${FILES:-}; do
  [ -f "$f" ] || { echo "error: $f (in FILES) is not a file" >&2; exit 2; }
done
if [ ! -f "$grade" ]; then
  echo "no grade table for lab $lab yet: make grade LAB=$lab (a few minutes)" >&2
  make -s grade LAB="$lab" >/dev/null || true
fi
# shellcheck source=scripts/jdk.sh
source scripts/jdk.sh built >/dev/null
fence='```'
{
  printf '# Lab %s hand-in\n\nWritten %s by `make handin LAB=%s`.\n\n## The machine\n\n%s\n' "$lab" "$(date -Is)" "$lab" "$fence"
  printf '$ nproc\n%s\n$ uname -r\n%s\n' "$(nproc)" "$(uname -r)"
  printf '$ lscpu (model)\n%s\n' "$(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -1)"
  printf '$ java -version\n%s\n%s\n' "$(java -version 2>&1)" "$fence"
  printf '\n## make grade LAB=%s\n\n%s\n' "$lab" "$fence"
  if [ -f "$grade" ]; then cat "$grade"; else echo "(no grade table: make grade LAB=$lab failed to run; see target/grade.log)"; fi
  printf '%s\n' "$fence"
  count=0
  for f in "$runs"/*.txt ${FILES:-}; do
    [ -f "$f" ] && [ "$f" != "$grade" ] || continue
    count=$((count + 1))
    printf '\n## %s\n\n%s\n' "$f" "$fence"
    cat "$f"
    printf '%s\n' "$fence"
  done
  [ "$count" -gt 0 ] || printf '\n## Runs\n\nNone recorded: start the sheet'"'"'s runs with `bin/record %s` in front, or name files with FILES=.\n' "$lab"
} >"$dest"
echo "hand-in for lab $lab written to $dest: the machine, the grade table and $count runs"
