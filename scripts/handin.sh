#!/usr/bin/env bash
# make handin LAB=N DEST=FILE [FILES="a.txt b.txt"]: writes what a student hands in for lab N, one
# Markdown file a teacher can trust:
#   - what to look out for: one line each when the sources changed after the grade, when the
#     table came from an ONLY= run or there is none, when a recorded run used a stale jar, when
#     the regions are unchanged or cannot be diffed;
#   - the student's change: the diff of each file holding one of the lab's regions against the
#     handout's first commit (make handout makes the handout a git repository);
#   - the machine (nproc, kernel, CPU, JDK);
#   - the grade table of the last `make grade LAB=N` (runs/labN/grade.txt, or grade-only.txt when
#     only an ONLY= run was made; an ONLY= run newer than the full one is shown after it), with the
#     hash of the sources it graded;
#   - each run kept by bin/record under runs/labN/ and each file named in FILES, with its command
#     and raw output.
# It grades nothing itself: a grade takes minutes, and a missing one is said, not hidden.
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
# shellcheck source=scripts/fresh.sh
source scripts/fresh.sh
# shellcheck source=scripts/jdk.sh
source scripts/jdk.sh built >/dev/null
runs="runs/lab$lab"
fence='```'
notes=()

# region_files: "FILE REGION" for each of the lab's regions, one a line, from HANDOUT.md's table
# (a row per region: its name and `FILE:LINE`). A region's lab is the row's own lab column when
# it has one, else the earliest lab whose checkpoints labs/hints.tsv blames on it (a later lab's
# hint may name an earlier lab's region it depends on).
region_files() {
  awk -v want="$lab" '
    BEGIN { FS = "\t" }
    FILENAME ~ /checkpoints\.tsv$/ { if ($0 !~ /^#/ && NF > 2) lab_of[$2] = $1 + 0; next }
    FILENAME ~ /hints\.tsv$/ {
      if ($0 !~ /^#/ && NF > 2 && $2 != "-" && ($1 in lab_of) && (!($2 in lab) || lab_of[$1] < lab[$2])) lab[$2] = lab_of[$1]
      next
    }
    /^\|/ {
      n = split($0, cell, "|"); region = ""; where = ""; given = ""
      for (i = 2; i < n; i++) {
        c = cell[i]; gsub(/^ +| +$/, "", c)
        if (match(c, /`[^`]+:[0-9]+`/)) { where = substr(c, RSTART + 1, RLENGTH - 2); sub(/:[0-9]+$/, "", where) }
        else if (c ~ /^(lab )?[0-9]+$/) { given = c; sub(/^lab /, "", given) }
        else { gsub(/`/, "", c); if (region == "" && c ~ /^[A-Za-z0-9][A-Za-z0-9_-]*$/) region = c }
      }
      if (region == "" || where == "") next
      if ((given != "" ? given + 0 : (region in lab ? lab[region] : -1)) == want) print where, region
    }' labs/checkpoints.tsv labs/hints.tsv HANDOUT.md | sort -u
}

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
  placed=$(region_files)
  files=$(cut -d' ' -f1 <<<"$placed" | sort -u)
  if [ -z "$files" ]; then
    notes+=("no region diff: HANDOUT.md places none of lab $lab's regions")
  else
    for f in $files; do
      printf '\n### %s (%s)\n\n' "$f" "$(awk -v f="$f" '$1 == f { print $2 }' <<<"$placed" | paste -sd, | sed 's/,/, /g')"
      diff=$(git diff --no-color "$first" -- "$f")
      if [ -n "$diff" ]; then printf '%sdiff\n%s\n%s\n' "$fence" "$diff" "$fence"; else echo "Unchanged since the handout."; fi
    done >"$change"
    if [ -z "$(git diff --no-color "$first" -- $files)" ]; then
      notes+=("lab $lab's regions are unchanged since the handout (commit ${first:0:12})")
    fi
  fi
fi

# The grade: the full table, else an ONLY= one; either names the hash of what it graded.
grade=$runs/grade.txt
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
  elif [ "$graded" != "$(sources_hash)" ]; then
    # which files, so that a teacher sees whether the change touched this lab (a later lab's region often)
    newer=$(cd "$FRESH_ROOT" && source_files -newer "$here/$grade" | tr '\0' '\n' | sed 's|^\./||' | LC_ALL=C sort)
    count=$(grep -c . <<<"$newer" || true)
    named=$(head -3 <<<"$newer" | paste -sd, - | sed 's/,/, /g')
    [ "$count" -le 3 ] || named="$named and $((count - 3)) more"
    notes+=("the sources changed after the grade ($(sed -n 's/^# graded \([^ ]*\).*/\1/p' "$grade" | head -1))${named:+, in $named}: the table may not be this code's; make grade LAB=$lab again")
  fi
fi

# An ONLY= grade made after the full one: shown too, since it may be the only grade of these sources.
later=
if [ "$grade" = "$runs/grade.txt" ] && [ -f "$runs/grade-only.txt" ] && [ "$runs/grade-only.txt" -nt "$grade" ]; then
  later=$runs/grade-only.txt
  if [ "$(sed -n 's/^# sources sha256 //p' "$later" | head -1)" = "$(sources_hash)" ]; then
    notes+=("a later partial grade, $(head -1 "$later" | sed 's/^\$ //'), is of these sources (shown below the full table): make grade LAB=$lab grades the whole lab")
  else
    notes+=("a later partial grade, $(head -1 "$later" | sed 's/^\$ //'), is shown below the full table; the sources changed after it too")
  fi
fi

# The runs bin/record kept: each says whether the jars held the code of the tree.
records=()
for f in "$runs"/*.txt; do
  [ -f "$f" ] || continue
  case ${f##*/} in grade.txt | grade-only.txt) continue ;; esac
  records+=("$f")
  jars=$(sed -n 's/^# jars: //p' "$f" | tail -1)
  case $jars in
    fresh) ;;
    stale:*) notes+=("$f was recorded without fresh jars (${jars#stale: })") ;;
    *) notes+=("$f does not say whether its jars were fresh (not recorded by this bin/record)") ;;
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
  printf '\n## The change: lab %s'"'"'s regions against the handout\n' "$lab"
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
