#!/usr/bin/env bash
# Prints one line summing the Surefire reports of every module: "tests: N passed, N failed, N skipped".
# make test runs Maven quietly; this line, on a line of its own, is the result a reader or CI looks for.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
shopt -s nullglob
reports=(./*/target/surefire-reports/*.txt ./*/*/target/surefire-reports/*.txt)  # modules one or two deep
cat "${reports[@]}" /dev/null | awk -F'[:,]' '
  /^Tests run:/ { run += $2; failed += $4 + $6; skipped += $8 }
  END { printf "\ntests: %d passed, %d failed, %d skipped\n", run - failed - skipped, failed, skipped }'
