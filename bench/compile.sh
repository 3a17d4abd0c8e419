#!/usr/bin/env bash
# Usage: bench/compile.sh [--runs N] [FILE.erl...]
# OTP's compiler on erl and on beamvm (BEAMVM, default build/beamvm): one emulator run
# compiles every FILE with compile:file(F, [binary]) (default: the sources listed in
# tests/compiler/modules.txt, which tools/compile_compare.sh checks for identical output).
# Each emulator runs N times (default 3), alternating; prints every time, the best of each,
# the ratio beamvm / erl, and the load average before and after.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
beamvm=${BEAMVM:-$root/build/beamvm}
runs=3
files=()
while [ $# -gt 0 ]; do
  case $1 in
    --runs)
      if [ $# -lt 2 ] || ! [[ $2 =~ ^[1-9][0-9]*$ ]]; then
        echo "usage: $0 [--runs N] [FILE.erl...]" >&2
        exit 2
      fi
      runs=$2
      shift ;;
    -*) echo "usage: $0 [--runs N] [FILE.erl...]" >&2; exit 2 ;;
    *) files+=("$(cd "$(dirname "$1")" && pwd)/$(basename "$1")") ;;
  esac
  shift
done
if [ ${#files[@]} -eq 0 ]; then
  while read -r line; do
    case $line in ''|'#'*) continue ;; esac
    files+=("$root/$line")
  done <"$root/tests/compiler/modules.txt"
fi
list=$(printf '"%s",' "${files[@]}")
expr="lists:foreach(fun(F) -> {ok, _, _} = compile:file(F, [binary]) end, [${list%,}]), halt()."

now() { date +%s.%N; }
# time_run PROGRAM: prints the elapsed seconds of one run, fails if the run failed
time_run() {
  local start end
  start=$(now)
  "$1" -noshell -eval "$expr" </dev/null >/dev/null 2>&1 || return 1
  end=$(now)
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }'
}
load() { cut -d' ' -f1-3 /proc/loadavg; }

echo "${#files[@]} modules, compile:file(F, [binary]) in one emulator run, $runs runs each"
echo "load average before: $(load)"
best_erl= best_vm=
for i in $(seq "$runs"); do
  e=$(time_run erl) || { echo "erl failed"; exit 1; }
  v=$(time_run "$beamvm") || { echo "beamvm failed"; exit 1; }
  echo "run $i: erl $e s, beamvm $v s"
  best_erl=$(awk -v a="$e" -v b="${best_erl:-$e}" 'BEGIN { print (a < b ? a : b) }')
  best_vm=$(awk -v a="$v" -v b="${best_vm:-$v}" 'BEGIN { print (a < b ? a : b) }')
done
echo "load average after: $(load)"
awk -v e="$best_erl" -v v="$best_vm" 'BEGIN { printf "best: erl %.2f s, beamvm %.2f s, ratio %.2f\n", e, v, v / e }'
