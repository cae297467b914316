# tether.sh PGID STARTER: stops process group PGID when STARTER, the process that started it, dies.
# Its starter runs it as `setpriv --pdeathsig TERM sh tether.sh PGID STARTER` (PR_SET_PDEATHSIG): when
# the starter dies, by any signal, SIGKILL included, the kernel sends this watcher SIGTERM, and it
# sends the group SIGTERM, gives it up to a second to exit, then SIGKILL. Once the group is gone it
# exits by itself. Used by lab-common's niolab.common.Tether (echo-bench compare) and by
# scripts/lib.sh's tethered (bench.sh, make run-bench-*, the experiments); the limits are in
# echo-bench/README.md, "Stopped or killed".
pg=$1 starter=$2 nap=

stop_group() {
  trap '' TERM
  [ -z "$nap" ] || kill "$nap" 2>/dev/null
  kill -TERM -"$pg" 2>/dev/null
  i=0
  while [ "$i" -lt 10 ] && kill -0 -"$pg" 2>/dev/null; do
    sleep 0.1
    i=$((i + 1))
  done
  kill -KILL -"$pg" 2>/dev/null
  exit 0
}

trap stop_group TERM
# a terminal's Ctrl-C or hang-up is for the starter, which stops its servers itself
trap '' INT HUP QUIT
# a starter that died before setpriv armed the signal left this watcher with another parent already
[ "$(cut -d' ' -f4 "/proc/$$/stat")" = "$starter" ] || stop_group
while kill -0 -"$pg" 2>/dev/null; do
  # a background sleep: the shell runs the trap as soon as the signal comes, not after the sleep
  sleep 1 &
  nap=$!
  wait "$nap"
  nap=
done
