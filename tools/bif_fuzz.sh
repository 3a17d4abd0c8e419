#!/usr/bin/env bash
# Differential BIF fuzzer (issue 8, item 4; docs/bif_fuzz_differences.md).
#
# Usage: tools/bif_fuzz.sh [--size N] [--seed S] [--beamvm PATH] [--timeout SECS] [--keep DIR]
#        tools/bif_fuzz.sh --regenerate     # rewrite tests/fuzz/bif_fuzz_functions.erl on erl
#
# Compiles tests/fuzz/*.erl, runs bif_fuzz:main(Seed, Size) on erl and on beamvm (each in an
# empty working directory: open_port/2 of an atom creates a file of that name), and compares
# the outcome of every call. Size is the number of argument vectors per function (functions of
# arity 0 are called once). Exits 1 on a difference outside the accepted list, on a beamvm
# crash (non-zero status, early end) or hang (no end within the timeout).
# The default test command runs --size 10 (CTest bif_fuzz_small); the full size, the default
# here, is --size 1000.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
size=1000 seed=1 beamvm=$here/build/beamvm limit=1800 keep= regenerate=
while [ $# -gt 0 ]; do
  case $1 in
    --size) size=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --beamvm) beamvm=$2; shift 2 ;;
    --timeout) limit=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    --regenerate) regenerate=1; shift ;;
    *) sed -n '2,/^set/p' "$0" | sed '$d'; exit 2 ;;
  esac
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/ebin" "$work/erl" "$work/beamvm"
(cd "$here/tests/fuzz" && erlc -o "$work/ebin" *.erl) || { echo "erlc failed"; exit 1; }

if [ -n "$regenerate" ]; then
  erl -noshell -pa "$work/ebin" -run bif_fuzz generate "$here/tests/fuzz/bif_fuzz_functions.erl"
  exit $?
fi

run() { # run NAME PROGRAM: stdout to $work/NAME.out, status echoed
  local name=$1 prog=$2
  (cd "$work/$name" && timeout -k 10 "$limit" "$prog" -noshell -pa "$work/ebin" \
     -run bif_fuzz main "$seed" "$size" </dev/null >"$work/$name.out" 2>"$work/$name.err")
  echo $?
}

start=$(date +%s)
erl_rc=$(run erl erl)
mid=$(date +%s)
if [ "$erl_rc" -ne 0 ]; then
  echo "erl itself failed (status $erl_rc): the fuzzer is broken"
  tail -c 2000 "$work/erl.err"
  exit 1
fi
vm_rc=$(run beamvm "$beamvm")
end=$(date +%s)
echo "seed $seed, size $size: erl $((mid - start)) s, beamvm $((end - mid)) s"

status=0
if [ "$vm_rc" -eq 124 ] || [ "$vm_rc" -eq 137 ]; then
  echo "beamvm HUNG: no end within ${limit}s"
  status=1
elif [ "$vm_rc" -ne 0 ]; then
  echo "beamvm CRASHED: exit status $vm_rc"
  status=1
fi
python3 "$here/tools/bif_fuzz_compare.py" "$work/erl.out" "$work/beamvm.out" \
  "$here/docs/bif_fuzz_differences.md" || status=1
if [ $status -ne 0 ] && [ -s "$work/beamvm.err" ]; then
  echo "beamvm stderr (last lines):"
  tail -n 15 "$work/beamvm.err" | cut -c1-300
fi
if [ -n "$keep" ]; then
  mkdir -p "$keep" && cp "$work"/*.out "$work"/*.err "$keep"/
fi
exit $status
