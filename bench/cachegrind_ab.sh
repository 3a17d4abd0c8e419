#!/usr/bin/env bash
# Usage: bench/cachegrind_ab.sh [--main] WORKLOAD BEAMVM [BEAMVM...]
# Runs one workload (a module of bench/ or bench/real/ that exports quick/0 and main/0) under
# valgrind's cachegrind on each beamvm binary given, one after the other, at +S 1, and prints
# per binary: instructions executed, L1 data misses (reads + writes), last-level misses, and
# conditional and indirect branches mispredicted (cachegrind's simple predictor models).
# Why: this project's 2-core machines drift in speed by up to a third, so a change worth 1-2%
# cannot be seen in timed runs; these counts come out the same run after run. They are
# counts, not time: a mispredict or a miss costs tens of cycles where an instruction costs a
# fraction of one, so weigh them (docs/benchmarks.md, session 29). The whole program is
# counted, start-up and loading included (the quick size of real_compile: about 2.4 G
# instructions, 3 minutes). --main runs the full size (about 50 times a native run's time).
# Needs valgrind (Debian's valgrind); beamvm runs under it since its ports hold children by
# pid where pidfd_open is missing (scheduler/port_spawn.cpp).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
entry=quick
if [ "${1:-}" = --main ]; then entry=main; shift; fi
if [ $# -lt 2 ]; then
  echo "usage: $0 [--main] WORKLOAD BEAMVM [BEAMVM...]" >&2
  exit 2
fi
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 2; }
workload=$1
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
erlc -o "$work" "$root"/bench/bench_harness.erl "$root"/bench/real/*.erl "$root"/bench/*.erl
printf '%-40s %15s %12s %10s %12s %12s\n' beamvm instructions D1-misses LL-misses cond-mispred ind-mispred
for vm in "$@"; do
  log=$work/cg.log
  valgrind --tool=cachegrind --cache-sim=yes --branch-sim=yes --cachegrind-out-file="$work/cg.out" \
    "$vm" +S 1 -noshell -pa "$work" -s bench_harness run "$workload" "$entry" -s erlang halt \
    </dev/null >"$log" 2>&1 || { echo "$vm: the run failed (log below)"; tail -n 20 "$log"; exit 1; }
  # "==PID== I   refs:      2,395,703,501" and the like; the first number of each line
  field() { grep -E "== $1" "$log" | head -n 1 | sed -E 's/^==[0-9]+== [^:]*: *//; s/ .*//; s/,//g'; }
  mispred=$(grep -E '== Mispredicts:' "$log" | sed -E 's/.*\( *([0-9,]+) cond \+ *([0-9,]+) ind.*/\1 \2/; s/,//g')
  printf '%-40s %15s %12s %10s %12s %12s\n' "$vm" "$(field 'I   refs')" "$(field 'D1  misses')" \
    "$(field 'LL misses')" $mispred
done
