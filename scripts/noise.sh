#!/usr/bin/env bash
# make noise: this machine's noise floor now. An A/A comparison, the catalog's noise server (lt)
# against a second one, 50 keep-alive connections, ROUNDS (20) rounds of SLICE (1s) slices in random order, servers on
# SERVER_CPU (0), client on CLIENT_CPU (1); the interval of the rate ratio of two identical
# servers is the smallest difference a comparison run now can resolve.
# Environment: PORT (9988: lt-a there, lt-b on PORT+1), ROUNDS, SLICE, CONNECTIONS (50),
# JSON (a file for `echo-bench compare --json`, e.g. RESULTS/noise.json; default: none kept).
set -euo pipefail
here=$(dirname "${BASH_SOURCE[0]}")
source "$here/lib.sh"
AA=$(selection noise)
ROUNDS=${ROUNDS:-20} SLICE=${SLICE:-1s} CONNECTIONS=${CONNECTIONS:-50}
json=${JSON:-$(mktemp "${TMPDIR:-/tmp}/niolab-noise.XXXXXX")}
[ -n "${JSON:-}" ] || trap 'rm -f "$json"' EXIT
echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
out=$(bash "$here/compare.sh" "$AA-a:$(server_words "$AA")" "$AA-b:$(server_words "$AA")" -- -c "$CONNECTIONS" -k --rounds "$ROUNDS" --slice "$SLICE" \
  --json "$json" "$@") || { rc=$?; echo "$out"; exit $rc; }
echo "$out"
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
# the A/A rate line of compare's own summary: the floor is its interval
floor=$(grep -E "^$AA-b +rate " <<<"$out" | sed -E "s/^$AA-b +rate +//")
echo "noise floor now (A/A, $AA against $AA, rate ratio, 95%): ${floor:-unknown}"
