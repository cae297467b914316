#!/usr/bin/env bash
# make handin LAB=N DEST=FILE [FILES="a.txt b.txt"]: writes what a student hands in for lab N, one
# Markdown file a teacher can trust:
#   - what to look out for: one line each when the sources changed after the grade, when the
#     table came from an ONLY= run or there is none, when a recorded run used a stale jar, when
#     the regions are unchanged or cannot be diffed;
#   - the student's change: the diff of each file holding one of the regions the grade runs (the
#     lab's own and those of the labs its checkpoints need) against the handout's first commit
#     (make handout makes the handout a git repository);
#   - the machine (nproc, kernel, CPU, JDK);
#   - the grade table of the last `make grade LAB=N` (runs/labN/grade.txt, or grade-only.txt when
#     only an ONLY= run was made; an ONLY= run newer than the full one is shown after it), with the
#     hash of the sources it graded;
#   - each run kept by bin/record under runs/labN/, every other output the student kept there (a
#     sheet's strace table, make noise), and each file named in FILES.
# It grades nothing itself: a grade takes minutes, and a missing one is said, not hidden. What
# the lab's regions are, and what its grade covers, it asks the course tools (target/course-tools.jar,
# or $COURSE_TOOLS), which read the labs' manifests.
set -euo pipefail
lab=${LAB:-} dest=${DEST:-}
if ! [[ $lab =~ ^[1-9]$ ]] || [ -z "$dest" ]; then
  echo "error: say which lab and where: make handin LAB=N DEST=FILE [FILES=\"more.txt ...\"]" >&2
  exit 2
fi
here="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
# DEST is relative to where make was started: the lab's root
cd "$here"
for f in ${FILES:-}; do
  [ -f "$f" ] || { echo "error: $f (in FILES) is not a file" >&2; exit 2; }
done
# shellcheck source=scripts/jdk.sh
source scripts/jdk.sh built >/dev/null
runs="runs/lab$lab"
fence='```'
notes=()

tools() { ${COURSE_TOOLS:-java -jar target/course-tools.jar} "$@"; }

# The student's change, against the handout's first commit.
change=$(mktemp "${TMPDIR:-/tmp}/niolab-handin.XXXXXX")
trap 'rm -f "$change"' EXIT
first=
if [ ! -f HANDOUT.md ]; then
  notes+=("no region diff: this tree is not a handout (no HANDOUT.md); make handout DEST=DIR writes one")
elif [ "$(readlink -f "$(git rev-parse --show-toplevel 2>/dev/null || echo none)")" != "$(readlink -f .)" ] ||
  ! first=$(git rev-list --max-parents=0 HEAD 2>/dev/null | tail -1) || [ -z "$first" ]; then
  notes+=("no region diff: this handout is not a git repository (made before make handout made one)")
else
  # FILE, REGION, LAB for each region the grade runs: the lab's own, then those it needs
  placed=$(tools regions --lab "$lab")
  # the lab's own files first, then those of the labs it runs
  files=$(awk -F'\t' -v lab="$lab" '{ print ($3 == lab ? 0 : 1) "\t" $1 }' <<<"$placed" | sort -s -k1,1n | cut -f2 | awk '!seen[$0]++')
  if [ -z "$files" ]; then
    notes+=("no region diff: lab $lab's manifest declares no region")
  else
    for f in $files; do
      printf '\n### %s (%s)\n\n' "$f" "$(awk -F'\t' -v f="$f" -v lab="$lab" '$1 == f {
        printf "%s%s%s", (n++ ? "; " : ""), $2, ($3 == lab ? "" : ", lab " $3 "'"'"'s, which this lab runs") }' <<<"$placed")"
      diff=$(git diff --no-color "$first" -- "$f")
      if [ -n "$diff" ]; then printf '%sdiff\n%s\n%s\n' "$fence" "$diff" "$fence"; else echo "Unchanged since the handout."; fi
    done >"$change"
    own=$(awk -F'\t' -v lab="$lab" '$3 == lab { print $1 }' <<<"$placed" | sort -u)
    if [ -n "$own" ] && [ -z "$(git diff --no-color "$first" -- $own)" ]; then
      notes+=("lab $lab's regions are unchanged since the handout (commit ${first:0:12})")
    fi
  fi
fi

# The grade: the full table, else an ONLY= one; either names the hash of what it graded, the
# sources of this lab and of the labs it runs (writing a later lab leaves it current).
grade=$runs/grade.txt
now=
[ ! -f "$grade" ] && [ ! -f "$runs/grade-only.txt" ] || now=$(tools hash --lab "$lab")
if [ ! -f "$grade" ] && [ -f "$runs/grade-only.txt" ]; then
  grade=$runs/grade-only.txt
  notes+=("the grade table is partial, from $(head -1 "$grade" | sed 's/^\$ //'): make grade LAB=$lab grades the whole lab")
fi
if [ ! -f "$grade" ]; then
  notes+=("no grade table: make grade LAB=$lab has not been run here")
else
  graded=$(sed -n 's/^# sources sha256 //p' "$grade" | head -1)
  if [ -z "$graded" ]; then
    notes+=("the grade table names no hash of its sources (an older grader): it cannot be checked against this code")
  elif [ "$graded" != "$now" ]; then
    # which files, by content: the grade kept every source's hash beside its table
    named=
    if [ -f "${grade%.txt}.sha256" ]; then
      changed=$(tools changed --lab "$lab" "${grade%.txt}.sha256")
      count=$(grep -c . <<<"$changed" || true)
      named=$(head -3 <<<"$changed" | paste -sd, - | sed 's/,/, /g')
      [ "$count" -le 3 ] || named="$named and $((count - 3)) more"
    fi
    notes+=("the sources changed after the grade ($(sed -n 's/^# graded \([^ ]*\).*/\1/p' "$grade" | head -1))${named:+, in $named}: the table may not be this code's; make grade LAB=$lab again")
  fi
fi

# An ONLY= grade made after the full one: shown too, since it may be the only grade of these sources.
later=
if [ "$grade" = "$runs/grade.txt" ] && [ -f "$runs/grade-only.txt" ] && [ "$runs/grade-only.txt" -nt "$grade" ]; then
  later=$runs/grade-only.txt
  if [ "$(sed -n 's/^# sources sha256 //p' "$later" | head -1)" = "$now" ]; then
    notes+=("a later partial grade, $(head -1 "$later" | sed 's/^\$ //'), is of these sources (shown below the full table): make grade LAB=$lab grades the whole lab")
  else
    notes+=("a later partial grade, $(head -1 "$later" | sed 's/^\$ //'), is shown below the full table; the sources changed after it too")
  fi
fi

# The runs bin/record kept, each saying whether the jars held the code of the tree, and every
# other output kept in runs/labN/ (a sheet's strace table): the grade's own files aside.
records=()
for f in "$runs"/*; do
  [ -f "$f" ] || continue
  case ${f##*/} in grade.txt | grade-only.txt | grade.sha256 | grade-only.sha256) continue ;; esac
  grep -qI . "$f" || continue # a binary file: not for a Markdown hand-in
  records+=("$f")
  jars=$(sed -n 's/^# jars: //p' "$f" | tail -1)
  case $jars in
    fresh) ;;
    stale:*) notes+=("$f was recorded without fresh jars (${jars#stale: })") ;;
    *) head -1 "$f" | grep -q '^\$ ' && notes+=("$f does not say whether its jars were fresh (not recorded by this bin/record)") ;;
  esac
done

{
  printf '# Lab %s hand-in\n\nWritten %s by `make handin LAB=%s`.\n' "$lab" "$(date -Is)" "$lab"
  printf '\n## What to look out for\n\n'
  if [ ${#notes[@]} -eq 0 ]; then
    echo "Nothing: the grade is of these sources, every recorded run used fresh jars."
  else
    printf -- '- %s\n' "${notes[@]}"
  fi
  printf '\n## The change: lab %s'"'"'s regions, and those of the labs it runs, against the handout\n' "$lab"
  if [ -s "$change" ]; then cat "$change"; else printf '\nNone to show (see above).\n'; fi
  printf '\n## The machine\n\n%s\n' "$fence"
  printf '$ nproc\n%s\n$ uname -r\n%s\n' "$(nproc)" "$(uname -r)"
  printf '$ lscpu (model)\n%s\n' "$(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -1)"
  printf '$ java -version\n%s\n%s\n' "$(java -version 2>&1)" "$fence"
  printf '\n## The grade: %s\n\n%s\n' "$grade" "$fence"
  if [ -f "$grade" ]; then cat "$grade"; else echo "(none: make grade LAB=$lab)"; fi
  printf '%s\n' "$fence"
  if [ -n "$later" ]; then printf '\n## The later partial grade: %s\n\n%s\n' "$later" "$fence"; cat "$later"; printf '%s\n' "$fence"; fi
  for f in "${records[@]}" ${FILES:-}; do
    printf '\n## %s\n\n%s\n' "$f" "$fence"
    cat "$f"
    printf '%s\n' "$fence"
  done
  [ ${#records[@]} -gt 0 ] || [ -n "${FILES:-}" ] ||
    printf '\n## Runs\n\nNone recorded: start the sheet'"'"'s runs with `bin/record %s` in front, or name files with FILES=.\n' "$lab"
} >"$dest"
echo "hand-in for lab $lab written to $dest: the change, the grade table and ${#records[@]} recorded runs; notes: ${#notes[@]}"
for n in "${notes[@]}"; do echo "  note: $n"; done
