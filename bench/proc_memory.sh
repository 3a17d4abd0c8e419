#!/usr/bin/env bash
# Usage: bench/proc_memory.sh [RUNS] [N]   (default 3 runs of 100000 processes)
# Memory per waiting process (issue 11): runs bench/proc_memory.erl's measure/1 on beamvm
# (BEAMVM, default build/beamvm) and on erl, alternating, and prints for each VM the median
# bytes per process by erlang:memory(processes) and by resident set size (VmRSS), each the
# change over spawning N processes that block in a receive, divided by N. Extra emulator
# flags for both VMs may be given in PM_FLAGS (e.g. PM_FLAGS="+S 1").
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
beamvm=${BEAMVM:-$root/build/beamvm}
runs=${1:-3}
n=${2:-100000}
flags=(${PM_FLAGS:-})
ebin=$(mktemp -d)
trap 'rm -rf "$ebin"' EXIT
erlc -o "$ebin" "$root"/bench/proc_memory.erl || exit 1

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

echo "$n processes waiting in receive, $runs runs each; load average $(cut -d' ' -f1-3 /proc/loadavg)"
for _ in $(seq "$runs"); do
  for vm in beamvm erl; do
    prog=$beamvm
    [ "$vm" = erl ] && prog=erl
    "$prog" "${flags[@]}" -noshell -pa "$ebin" -eval "proc_memory:measure($n), halt()." \
      </dev/null >>"$ebin/$vm.out" 2>&1
  done
done
printf '%-8s %22s %16s\n' vm 'memory(processes) B/p' 'RSS B/p'
status=0
for vm in beamvm erl; do
  out=$ebin/$vm.out
  if ! grep -q memory_processes_bytes_per_process "$out"; then
    printf '%-8s %22s %16s\n' "$vm" FAIL FAIL
    head -3 "$out" >&2
    status=1
    continue
  fi
  mem=$(awk '/memory_processes_bytes_per_process/ {print $4}' "$out" | median)
  rss=$(awk '/memory_processes_bytes_per_process/ {print $6}' "$out" | median)
  printf '%-8s %22s %16s\n' "$vm" "$mem" "$rss"
done
exit $status
