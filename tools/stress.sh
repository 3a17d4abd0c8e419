#!/usr/bin/env bash
# Long-running checks that stay out of the default test command. Each runs on erl and on beamvm
# (BEAMVM, default build/beamvm) in the same run and prints figures for both.
#   tools/stress.sh [--quick] [CHECK...]
#     --quick   the same programs at a size that takes seconds
#     CHECK     any of gc_10gb spawn_million fairness idle hot_reload (default: all)
# gc_10gb        allocates about 13 GB with a small live set: time and peak RSS
# spawn_million  1,000,000 waiting processes messaged and answered: time, peak RSS, bytes per process
# fairness       a 10 ms ticker next to one busy loop per scheduler: worst lateness, ok if < 50 ms
# idle           1,000 processes in receive for 2 s: user and sys CPU seconds of the whole run,
#                start-up included (erl spends about 0.15 s starting)
# hot_reload     1,000 successive versions of one module loaded (each after a soft purge) while
#                100 processes call it: no call lost, and peak RSS at 100 versions against 1,000
#                (memory bounded: old versions are freed)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
beamvm=${BEAMVM:-$root/build/beamvm}
limit=${STRESS_TIMEOUT:-900}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ebin=$work/ebin
mkdir -p "$ebin"
erlc -o "$ebin" "$root"/tests/stress/*.erl "$root"/tests/conformance/hot_reload.erl || exit 1
for v in 1 2 3; do
  mkdir -p "$ebin/hot_v$v"
  erlc -DVSN=$v -o "$ebin/hot_v$v" "$root"/tests/conformance/hot/versions/hc_mod.erl || exit 1
done

quick=0
if [ "${1:-}" = "--quick" ]; then quick=1; shift; fi
checks=("$@")
[ ${#checks[@]} -eq 0 ] && checks=(gc_10gb spawn_million fairness idle hot_reload)

rounds=700 procs=1000000 versions=1000
[ $quick -eq 1 ] && rounds=40 procs=100000 versions=100

# measure VM ARGS...: runs VM with ARGS (stdin /dev/null) under /usr/bin/time and sets
# out (stdout on one line), note (last stderr line), secs, peak_kb, cpu_user, cpu_sys, rc.
measure() {
  local vm=$1; shift
  rc=0
  if [ "$vm" != erl ] && [ ! -x "$vm" ]; then
    out="(no beamvm at $vm)" note="" secs=- peak_kb=- cpu_user=- cpu_sys=- rc=127
    return
  fi
  : >"$work/time"
  timeout "$limit" /usr/bin/time -o "$work/time" -f "%e %M %U %S" "$vm" "$@" \
    </dev/null >"$work/out" 2>"$work/err" || rc=$?
  out=$(tr -d '\r\n' <"$work/out")
  [ $rc -eq 124 ] && out="TIMEOUT after ${limit}s"
  [ $rc -ne 0 ] && [ $rc -ne 124 ] && out="FAIL (status $rc) $out"
  note=$(tail -n 1 "$work/err")
  secs=- peak_kb=- cpu_user=- cpu_sys=-
  read -r secs peak_kb cpu_user cpu_sys < <(tail -n 1 "$work/time" | grep -E '^[0-9.]+ [0-9]+ ') || true
}

vms=(erl "$beamvm")
name() { basename "$1"; }

run_gc_10gb() {
  echo "== gc_10gb ($rounds rounds)"
  printf '%-8s %-22s %9s %10s\n' vm output seconds peak_KB
  for vm in "${vms[@]}"; do
    measure "$vm" -noshell -pa "$ebin" -run gc_10gb main "$rounds" -s erlang halt
    printf '%-8s %-22s %9s %10s\n' "$(name "$vm")" "$out" "$secs" "$peak_kb"
  done
}

run_spawn_million() {
  echo "== spawn_million ($procs processes)"
  printf '%-8s %-40s %9s %10s %9s\n' vm output seconds peak_KB B/proc
  for vm in "${vms[@]}"; do
    # erl refuses more than 262,144 processes unless +P raises the limit, and so does beamvm.
    measure "$vm" +P $((procs + 100000)) -noshell -pa "$ebin" -run spawn_million main "$procs" -s erlang halt
    local per=-
    [ "$peak_kb" != - ] && per=$((peak_kb * 1024 / procs))
    printf '%-8s %-40s %9s %10s %9s\n' "$(name "$vm")" "$out" "$secs" "$peak_kb" "$per"
    [ -n "$note" ] && echo "         $note"
  done
}

run_fairness() {
  echo "== fairness (ticker every 10 ms, one busy loop per scheduler)"
  for vm in "${vms[@]}"; do
    measure "$vm" -noshell -pa "$ebin" -s fairness main -s erlang halt
    printf '%-8s %-26s %s\n' "$(name "$vm")" "$out" "$note"
  done
}

run_idle() {
  echo "== idle (1,000 processes in receive, 2 s)"
  printf '%-8s %-16s %9s %9s %9s %9s\n' vm output seconds user_s sys_s cpu_s
  for vm in "${vms[@]}"; do
    measure "$vm" -noshell -pa "$ebin" -s idle main -s erlang halt
    local cpu=-
    [ "$cpu_user" != - ] && cpu=$(printf '%.2f' "$(echo "$cpu_user + $cpu_sys" | bc)")
    printf '%-8s %-16s %9s %9s %9s %9s\n' "$(name "$vm")" "$out" "$secs" "$cpu_user" "$cpu_sys" "$cpu"
  done
}

run_hot_reload() {
  echo "== hot_reload (versions of one module while 100 processes call it)"
  printf '%-8s %-9s %-72s %9s %10s\n' vm versions output seconds peak_KB
  for vm in "${vms[@]}"; do
    for n in $((versions / 10)) "$versions"; do
      measure "$vm" -noshell -pa "$ebin" -run hot_reload stress "$n" 100 -s erlang halt
      printf '%-8s %-9s %-72s %9s %10s\n' "$(name "$vm")" "$n" "$out" "$secs" "$peak_kb"
    done
  done
}

for c in "${checks[@]}"; do
  case $c in
    gc_10gb | spawn_million | fairness | idle | hot_reload) "run_$c" ;;
    *) echo "unknown check '$c' (gc_10gb spawn_million fairness idle hot_reload)" >&2; exit 2 ;;
  esac
done
