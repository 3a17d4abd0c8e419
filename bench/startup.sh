#!/usr/bin/env bash
# Start-up time and memory: beamvm booting OTP (`-eval 'halt().'`), beamvm's quick start-up
# (`beamvm hello.beam`) and erl booting OTP, in the same run. Each is run N times (default
# 20), alternating; the median wall time (0.1 ms) and the median maximum resident set size are
# printed, and the memory OTP reports after boot (erlang:memory(total), processes, code).
# Usage: bench/startup.sh [--runs N] [BEAMVM]
set -euo pipefail
export LC_ALL=C  # a decimal point in $EPOCHREALTIME and awk
runs=20
if [ "${1:-}" = "--runs" ]; then runs=$2; shift 2; fi
beamvm=$(realpath "${1:-build/beamvm}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/hello.erl" <<'ERL'
-module(hello).
-export([main/1]).
main(_) -> io:format("hello~n").
ERL
erlc -o "$work" "$work/hello.erl"

# Wall time from bash's microsecond clock around the command itself; the maximum RSS from a
# second run under /usr/bin/time. (/usr/bin/time's own %e resolves only 10 ms, and timing the
# run that /usr/bin/time starts added the start of a second program: 1.5-2 ms on this machine,
# where starting /bin/true takes 1.5 ms.)
measure() {  # label command...: appends "milliseconds kilobytes" lines to $work/label
    local label=$1; shift
    local t0=$EPOCHREALTIME
    "$@" >/dev/null 2>&1 </dev/null || true
    local t1=$EPOCHREALTIME
    /usr/bin/time -f "%M" -o "$work/one" "$@" >/dev/null 2>&1 </dev/null || true
    echo "$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f", (b - a) * 1000}') $(cat "$work/one")" >>"$work/$label"
}
for ((i = 0; i < runs; i++)); do
    measure erl_boot erl -noshell -eval 'halt().'
    measure beamvm_boot "$beamvm" -noshell -eval 'halt().'
    measure beamvm_quick "$beamvm" "$work/hello.beam"
done
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
printf '%-14s %10s %12s\n' "" "wall ms" "max RSS KiB"
for l in erl_boot beamvm_boot beamvm_quick; do
    t=$(awk '{print $1}' "$work/$l" | median)
    m=$(awk '{print $2}' "$work/$l" | median)
    printf '%-14s %10s %12s\n' "$l" "$t" "$m"
done
report='io:format("~p~n", [[{K, erlang:memory(K)} || K <- [total, processes, code, ets, atom, binary]]]), halt().'
echo "erlang:memory/1 after boot:"
echo "  erl:    $(erl -noshell -eval "$report")"
echo "  beamvm: $("$beamvm" -noshell -eval "$report")"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
