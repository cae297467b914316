#!/usr/bin/env bash
# Prints the environment of an experiment run as JSON: what a reader needs to judge the numbers.
# Usage: env.sh > results/NAME/env.json   (SERVER_CPU, CLIENT_CPU, JAVA_OPTS are recorded if set)
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
j() { printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' | tr -d '\n'; }
cpu=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//')
jdk=$(java -version 2>&1 | head -1)
commit=$(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown)
# tracked files only: the results being written (env.json itself) are untracked until committed
[ -n "$(git -C "$here" status --porcelain --untracked-files=no 2>/dev/null)" ] && commit="$commit (with uncommitted changes)"
cat <<EOF2
{
  "date": "$(date -u +%Y-%m-%dT%H:%M:%SZ)",
  "cpu": "$(j "${cpu:-unknown}")",
  "cores": $(nproc),
  "memory": "$(j "$(free -h 2>/dev/null | awk '/^Mem:/{print $2}')")",
  "kernel": "$(j "$(uname -sr)")",
  "jdk": "$(j "$jdk")",
  "java_opts": "$(j "${JAVA_OPTS:-}")",
  "server_cpu": "$(j "${SERVER_CPU:-unpinned}")",
  "client_cpu": "$(j "${CLIENT_CPU:-unpinned}")",
  "ulimit_n": "$(ulimit -n)",
  "ip_local_port_range": "$(j "$(cat /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null | tr '\t' ' ')")",
  "tcp_tw_reuse": "$(j "$(cat /proc/sys/net/ipv4/tcp_tw_reuse 2>/dev/null)")",
  "commit": "$(j "$commit")"
}
EOF2
