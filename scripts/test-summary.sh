#!/usr/bin/env bash
# Prints one line summing the Surefire reports of every module: "tests: N passed, N failed, N skipped",
# and, when some were skipped, what for: "(N for io_uring: why; N for ...)", grouped by the capability a
# skip names (test-kit's Capability writes "[label] why"), or by its whole reason when it names none.
# make test runs Maven quietly; this line, on a line of its own, is the result a reader or CI looks for.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
shopt -s nullglob
reports=(./*/target/surefire-reports/*.txt ./*/*/target/surefire-reports/*.txt)  # modules one or two deep
xml=(./*/target/surefire-reports/TEST-*.xml ./*/*/target/surefire-reports/TEST-*.xml)
# Each skipped test case's reason: the message attribute, or the first line of the exception in its body.
why=$(cat "${xml[@]}" /dev/null | sed -n -e 's/.*<skipped message="\([^"]*\)".*/\1/p' \
        -e 's/.*<skipped type="[^"]*"><!\[CDATA\[[^:]*: \(.*\)/\1/p' | sed -e 's/^Assumption failed: //' -e 's/&quot;/"/g')
cat "${reports[@]}" /dev/null | WHY="$why" awk -F'[:,]' '
  /^Tests run:/ { run += $2; failed += $4 + $6; skipped += $8 }
  END {
    n = split(ENVIRON["WHY"], reasons, "\n")
    for (i = 1; i <= n; i++) {
      r = reasons[i]
      if (r == "") continue
      key = r
      if (match(r, /^\[[^]]*\] /)) { key = substr(r, 2, RLENGTH - 3); r = substr(r, RLENGTH + 1) }
      if (!(key in count)) { order[++groups] = key; first[key] = r }
      count[key]++
    }
    detail = ""
    for (g = 1; g <= groups; g++) {
      k = order[g]
      detail = detail (g > 1 ? "; " : " (") count[k] " for " (k == first[k] ? "" : k ": ") first[k]
    }
    if (groups) detail = detail ")"
    printf "\ntests: %d passed, %d failed, %d skipped%s\n", run - failed - skipped, failed, skipped, detail
  }'
