#!/usr/bin/env bash
# Prints one line summing the Surefire reports of every module: "tests: N passed, N failed, N skipped".
# make test runs Maven quietly; this line, on a line of its own (Maven may leave terminal escape
# codes unterminated), is the result a reader or CI looks for.
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cat ./*/target/surefire-reports/*.txt ./experiments/*/target/surefire-reports/*.txt 2>/dev/null | awk -F'[:,]' '
  /^Tests run:/ { run += $2; failed += $4 + $6; skipped += $8 }
  END { printf "\ntests: %d passed, %d failed, %d skipped\n", run - failed - skipped, failed, skipped }'
