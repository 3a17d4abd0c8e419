#!/usr/bin/env bash
# Usage: bench/run.sh [--quick] [--sched N] [BENCH...]
# Compiles bench/*.erl, runs each program on erl and on beamvm (BEAMVM, default build/beamvm),
# checks that both print the same checksum and prints wall times:  bench  erl_s  beamvm_s  ratio
# --quick    runs the smaller workload (M:quick/0 instead of M:main/0).
# --sched N  runs both VMs with N schedulers (+S N, erl's syntax), e.g. to measure the parallel
#            speedup: bench/run.sh --sched 1 parallel; bench/run.sh --sched 2 parallel
# BENCH...   only these benchmarks (module names), default all of bench/*.erl.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
beamvm=${BEAMVM:-$root/build/beamvm}
entry=main
sched=()
only=()
while [ $# -gt 0 ]; do
  case $1 in
    --quick) entry=quick ;;
    --sched)
      if [ $# -lt 2 ] || ! [[ $2 =~ ^[1-9][0-9]*$ ]]; then
        echo "usage: $0 [--quick] [--sched N] [BENCH...]" >&2
        exit 2
      fi
      sched=(+S "$2")
      shift ;;
    -*) echo "usage: $0 [--quick] [--sched N] [BENCH...]" >&2; exit 2 ;;
    *) only+=("$1") ;;
  esac
  shift
done
limit=${BENCH_TIMEOUT:-300}

ebin=$(mktemp -d)
trap 'rm -rf "$ebin"' EXIT
erlc -o "$ebin" "$root"/bench/*.erl || exit 1

now() { date +%s.%N; }

# time_run OUTFILE PROGRAM MODULE: runs one benchmark, prints elapsed seconds, returns its status
time_run() {
  local out=$1 prog=$2 mod=$3 start end rc
  start=$(now)
  timeout "$limit" "$prog" "${sched[@]}" -noshell -pa "$ebin" -s "$mod" "$entry" -s erlang halt </dev/null >"$out" 2>/dev/null
  rc=$?
  end=$(now)
  echo "$end - $start" | bc
  return $rc
}

[ ${#sched[@]} -gt 0 ] && echo "schedulers: ${sched[1]} (+S ${sched[1]} on both)"
printf '%-12s %8s %9s %7s\n' bench erl_s beamvm_s ratio
status=0
for src in "$root"/bench/*.erl; do
  mod=$(basename "$src" .erl)
  if [ ${#only[@]} -gt 0 ] && [[ " ${only[*]} " != *" $mod "* ]]; then continue; fi
  if ! erl_s=$(time_run "$ebin/$mod.erl.out" erl "$mod"); then
    printf '%-12s %8s %9s %7s\n' "$mod" FAIL - -
    status=1
    continue
  fi
  if [ ! -x "$beamvm" ]; then
    printf '%-12s %8.2f %9s %7s  (no beamvm at %s)\n' "$mod" "$erl_s" FAIL - "$beamvm"
    status=1
    continue
  fi
  if ! vm_s=$(time_run "$ebin/$mod.vm.out" "$beamvm" "$mod"); then
    printf '%-12s %8.2f %9s %7s\n' "$mod" "$erl_s" FAIL -
    status=1
    continue
  fi
  if ! cmp -s "$ebin/$mod.erl.out" "$ebin/$mod.vm.out"; then
    printf '%-12s %8.2f %9s %7s  (output differs)\n' "$mod" "$erl_s" FAIL -
    status=1
    continue
  fi
  printf '%-12s %8.2f %9.2f %7.2f\n' "$mod" "$erl_s" "$vm_s" "$(echo "scale=4; $vm_s / $erl_s" | bc)"
done
exit $status
