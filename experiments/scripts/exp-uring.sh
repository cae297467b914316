#!/usr/bin/env bash
# exp-uring: the uring server in each mode (basic, multishot, bufring) beside et and, when it
# is built, Netty's io_uring transport (netty-uring): keep-alive echo at 1, 50 and 1000
# connections and pipelined HTTP /ping (50 connections, depth 16). Per cell a fresh server on
# CPU 0, echo-bench on CPU 1 (one thread): WARMUP, then DURATION measured; ROUNDS interleaved
# rounds, medians. Recorded per cell: requests/s, p99, server CPU per request (/proc ticks of
# the whole JVM, and of the loop thread alone, user and system: the JIT's compiler threads
# share the core and are still busy for seconds after a start, more so for FFM code), syscalls
# per request (the server's own counters: io_uring_enter calls; epoll_wait, read, send and
# accept calls for et), SQEs per request, completions per io_uring_enter, context switches per request
# (/proc/PID/task/*/status). Needs JDK 22+ (JAVA_HOME). About 15 minutes with the defaults.
NAME=uring
# One JDK for bin/lab-server, echo-bench and env.json: scripts/jdk.sh picks the one the jars
# were built with (or JAVA_HOME); without it, JAVA_HOME or the java on the PATH.
jdk_sh=$(dirname "${BASH_SOURCE[0]}")/../../scripts/jdk.sh
if [ -f "$jdk_sh" ]; then
  source "$jdk_sh" built
elif [ -n "${JAVA_HOME:-}" ]; then
  PATH=$JAVA_HOME/bin:$PATH
fi
jdk=$(java -XshowSettings:properties -version 2>&1 | awk -F' = ' '/java.specification.version/{print $2}')
if [ "${jdk%%.*}" -lt 22 ]; then
  echo "error: exp-uring needs JDK 22 or newer (java here is $jdk): JAVA_HOME=/path/to/jdk-22+ make exp-uring" >&2
  exit 2
fi
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
WARMUP=${WARMUP:-10s}
DURATION=${DURATION:-5s}
ROUNDS=${ROUNDS:-3}
WORKLOADS=${WORKLOADS:-"echo-1 echo-50 echo-1000 http-pipeline"}
SERVERS=${SERVERS:-"et uring-basic uring-multishot uring-bufring netty-uring"}
mkdir -p "$RESULTS/raw"

# What this kernel's io_uring offers (the jar must have been built on JDK 22+ to know).
if ! java --enable-native-access=ALL-UNNAMED -cp lab-servers/target/lab-servers.jar niolab.uring.UringSupport \
    >"$RESULTS/uring-support.txt" 2>&1; then
  echo "error: io_uring is not usable here, or lab-servers was built on an older JDK (then: make clean all):" >&2
  sed 's/^/  /' "$RESULTS/uring-support.txt" >&2
  exit 1
fi
uname -r >"$RESULTS/kernel.txt"
: >"$RESULTS/notes.txt"
if [[ " $SERVERS " == *" netty-uring "* ]] && ! bin/lab-server netty-uring --help 2>&1 | grep -q '^Usage: lab-server netty-uring'; then
  echo "netty-uring: not in this build of netty-peers; skipped" | tee -a "$RESULTS/notes.txt"
  SERVERS=${SERVERS/netty-uring/}
fi

# server_command SERVER WORKLOAD: the lab-server arguments after the port.
server_command() {
  local protocol=echo
  [[ $2 == http-* ]] && protocol=http
  case $1 in
    uring-*) echo "uring --uring-mode ${1#uring-} --protocol $protocol" ;;
    *) echo "$1 --protocol $protocol" ;;
  esac
}

# load_args WORKLOAD: echo-bench's options for it.
load_args() {
  case $1 in
    echo-*) echo "--keepalive -c ${1#echo-}" ;;
    http-pipeline) echo "--protocol http -c 50 --pipeline 16" ;;
  esac
}

# loop_tid PID: the thread running the event loop of a single-loop lab server: the Java main
# thread, the one task named "java" besides the launcher's (empty when there is none).
loop_tid() {
  local t
  for t in /proc/"$1"/task/*; do
    [ "${t##*/}" != "$1" ] && [ "$(cat "$t/comm" 2>/dev/null)" = java ] && { echo "${t##*/}"; return; }
  done
}

# loop_ticks PID TID: user and system clock ticks of thread TID so far ("0 0" without one).
loop_ticks() {
  if [ -n "$2" ] && [ -r "/proc/$1/task/$2/stat" ]; then sed 's/^.*) //' "/proc/$1/task/$2/stat" | awk '{print $12, $13}'
  else echo "0 0"; fi
}

# ctx_switches PID: voluntary and non-voluntary context switches summed over its threads.
ctx_switches() {
  cat /proc/"$1"/task/*/status 2>/dev/null |
    awk '/^voluntary_ctxt_switches/{v+=$2} /^nonvoluntary_ctxt_switches/{n+=$2} END{print v+0, n+0}'
}

# csv_field FILE COLUMN: the column of the CSV's first data row, by its header name.
csv_field() {
  awk -F, -v col="$2" 'NR==1{for(i=1;i<=NF;i++) if($i==col) c=i} NR==2{print (c ? $c : "")}' "$1"
}

# counter LOG NAME: a value of the server's exit counters line (empty if it has none).
counter() {
  { grep '^counters:' "$1" || true; } | tail -1 | tr ' ' '\n' | awk -F= -v k="$2" '$1==k{print $2}'
}

printf 'warmup,duration,rounds\n%s,%s,%s\n' "$WARMUP" "$DURATION" "$ROUNDS" >"$RESULTS/settings.csv"
samples=$RESULTS/samples.csv
echo "round,server,workload,requests_per_s,p99_us,server_cpu_us_per_req,loop_user_us_per_req,loop_sys_us_per_req,errors,requests,syscalls_per_req,sqes_per_req,completions_per_enter,ctx_switches_per_req,nonvoluntary_per_req" >"$samples"
for round in $(seq "$ROUNDS"); do
  for w in $WORKLOADS; do
    for s in $SERVERS; do
      tag=$s-$w-r$round
      read -r -a cmd <<<"$(server_command "$s" "$w")"
      start_server "${cmd[0]}" "$EXP_PORT" "${cmd[@]:1}"
      # shellcheck disable=SC2046
      echo_bench $(load_args "$w") --threads 1 --duration "$WARMUP" --max-error-rate 1 --csv "$RESULTS/raw/$tag-warmup.csv" >/dev/null
      # Netty's loop runs on a thread of its own event-loop group, not on main: not measured
      tid=''
      [[ $s == netty-* ]] || tid=$(loop_tid "$SERVER_PID")
      read -r v0 n0 < <(ctx_switches "$SERVER_PID")
      read -r u0 k0 < <(loop_ticks "$SERVER_PID" "$tid")
      # shellcheck disable=SC2046
      echo_bench $(load_args "$w") --threads 1 --duration "$DURATION" --max-error-rate 1 \
        --csv "$RESULTS/raw/$tag.csv" --json "$RESULTS/raw/$tag.json" >/dev/null
      read -r v1 n1 < <(ctx_switches "$SERVER_PID")
      read -r u1 k1 < <(loop_ticks "$SERVER_PID" "$tid")
      stop_keep_log "$RESULTS/raw/$tag.log"

      measured=$(csv_field "$RESULTS/raw/$tag.csv" requests)
      total=$((measured + $(csv_field "$RESULTS/raw/$tag-warmup.csv" requests)))
      log=$RESULTS/raw/$tag.log
      # The server's own counts over its whole life (warm-up and measured run, one workload).
      syscalls='' per_enter='' sqes=''
      if [[ $s == uring-* ]]; then
        syscalls=$(counter "$log" enters)
        sqes=$(counter "$log" submissions)
        per_enter=$(awk -v e="$(counter "$log" events)" -v n="$syscalls" 'BEGIN{if (n > 0) printf "%.2f", e / n}')
      elif [ "$s" = et ]; then
        syscalls=$(($(counter "$log" epoll_waits) + $(counter "$log" reads) + $(counter "$log" writes) + $(counter "$log" accepts)))
      fi
      awk -v r="$round" -v s="$s" -v w="$w" -v qps="$(csv_field "$RESULTS/raw/$tag.csv" qps)" \
        -v p99="$(csv_field "$RESULTS/raw/$tag.csv" p99_us)" -v cpu="$(csv_field "$RESULTS/raw/$tag.csv" server_cpu_us_per_req)" \
        -v err="$(csv_field "$RESULTS/raw/$tag.csv" errors)" -v n="$measured" -v total="$total" -v sys="$syscalls" -v sqes="$sqes" \
        -v pe="$per_enter" -v dv=$((v1 - v0)) -v dn=$((n1 - n0)) -v du=$((u1 - u0)) -v dk=$((k1 - k0)) \
        -v tick_us=$((1000000 / $(getconf CLK_TCK))) -v has_loop="$tid" 'BEGIN{
          per_req = ""; sqe_per_req = ""; ctx = ""; nonvol = ""; lu = ""; lk = ""
          if (sys != "" && total > 0) per_req = sprintf("%.3f", sys / total)
          if (sqes != "" && total > 0) sqe_per_req = sprintf("%.3f", sqes / total)
          if (n > 0) { ctx = sprintf("%.4f", (dv + dn) / n); nonvol = sprintf("%.4f", dn / n) }
          if (n > 0 && has_loop != "") { lu = sprintf("%.3f", du * tick_us / n); lk = sprintf("%.3f", dk * tick_us / n) }
          printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", r, s, w, qps, p99, cpu, lu, lk, err, n, per_req, sqe_per_req, pe, ctx, nonvol
        }' >>"$samples"
      echo "round $round: $s $w done" >&2
    done
  done
done

# Medians over the rounds, per server and workload.
awk -F, 'NR == 1 { for (i = 4; i <= NF; i++) name[i] = $i; last = NF; next }
  { key = $2 "," $3; if (!(key in seen)) { seen[key] = 1; order[++k] = key }
    for (i = 4; i <= last; i++) if ($i != "") vals[key, i, ++cnt[key, i]] = $i }
  function median(key, i,   n, j, m, v, t) {
    n = cnt[key, i]; if (n == 0) return ""
    for (j = 1; j <= n; j++) v[j] = vals[key, i, j]
    for (j = 2; j <= n; j++) for (m = j; m > 1 && v[m - 1] + 0 > v[m] + 0; m--) { t = v[m]; v[m] = v[m - 1]; v[m - 1] = t }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
  }
  END { printf "server,workload"; for (i = 4; i <= last; i++) printf ",%s", name[i]; print ""
    for (j = 1; j <= k; j++) { printf "%s", order[j]; for (i = 4; i <= last; i++) printf ",%s", median(order[j], i); print "" } }' \
  "$samples" >"$RESULTS/summary.csv"
column -s, -t "$RESULTS/summary.csv" | tee "$RESULTS/table.txt"
echo "kernel $(cat "$RESULTS/kernel.txt"); $(cat "$RESULTS/uring-support.txt")"
report
