#!/usr/bin/env bash
# exp-profile: every server profiled (make profile) under keep-alive /ping, pipelined /ping and
# keep-alive echo, and SHORT_SERVERS (the catalog's profile-short: lt et c) under short connections (echo, a fresh connection
# per request: lt's accept-to-close path against et's and C's); keeps the collapsed stacks (gzip) and the profiled echo-bench run per server
# and mode, and regenerates exp-profile.md. DURATION (10s) per profiled run after WARMUP (5s);
# SERVERS and MODES narrow it. Server on CPU 0, client on CPU 1. About 27 runs of WARMUP + DURATION each.
set -euo pipefail
NAME=profile
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
SERVERS=${SERVERS:-$(selection profile)}
MODES=${MODES:-"keepalive pipelined echo"} SHORT_SERVERS=${SHORT_SERVERS-$(selection profile-short)}
export DURATION=${DURATION:-10s} WARMUP=${WARMUP:-5s} WORKERS=${WORKERS:-2} PORT=$EXP_PORT
export OUT_DIR=$ROOT/target/profile/exp
make -s reference
trap - EXIT

# profile_all SERVER MODES...: each mode of one server, its stacks and run kept in $RESULTS.
profile_all() {
  local s=$1 m name
  shift
  for m in "$@"; do
    echo "== $s $m"
    if ! ARCH=$s MODE=$m OPTS= bash "$ROOT/scripts/profile.sh"; then
      echo "   (no profile of $s $m: see above)"
      continue
    fi
    name=$s-$m
    gzip -n -9 -c "$OUT_DIR/$name.collapsed" >"$RESULTS/$s-$m.collapsed.gz"
    cp "$OUT_DIR/$name.json" "$RESULTS/$s-$m.json"
  done
}

# shellcheck disable=SC2086
for s in $SERVERS; do profile_all "$s" $MODES; done
for s in $SHORT_SERVERS; do profile_all "$s" short; done
report
