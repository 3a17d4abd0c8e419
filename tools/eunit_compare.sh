#!/usr/bin/env bash
# Usage: eunit_compare.sh [--beamvm PATH] [--work DIR] [--keep]
# EUnit on erl and on beamvm: the suites in tests/eunit/*.erl are compiled by erlc and run by
# eunit:test/2 on both emulators, once with [verbose] and once without; the output of each
# run must be byte-identical once timings are taken out. Timings are the only thing
# normalised: EUnit prints "[0.012 s] " before "ok" and a "[done in 0.120 s]" line after a
# group only when the time measured is not zero, so both are removed wherever they appear.
# Differences that beamvm still has for a known reason are masked in both outputs by the sed
# expressions in tests/eunit/known_differences.sed, each with its reason there; the number of
# lines masked is printed. Prints a unified diff and exits 1 on any other difference.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
beamvm=$root/build/beamvm
work=
keep=0
while [ $# -gt 0 ]; do
  case $1 in
    --beamvm) beamvm=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    *) echo "usage: $0 [--beamvm PATH] [--work DIR] [--keep]" >&2; exit 2 ;;
  esac
done
if [ ! -x "$beamvm" ]; then
  echo "beamvm not found or not executable: $beamvm" >&2
  exit 1
fi
if [ -z "$work" ]; then
  work=$(mktemp -d)
  [ $keep -eq 1 ] || trap 'rm -rf "$work"' EXIT
fi
limit=${EUNIT_COMPARE_TIMEOUT:-300}

mkdir -p "$work/ebin"
rm -f "$work"/ebin/*.beam
# From the source root, so the file names in the reports are tests/eunit/*.erl wherever this runs.
if ! (cd "$root" && erlc -o "$work/ebin" tests/eunit/*.erl) >"$work/erlc.out" 2>&1; then
  echo "erlc failed on tests/eunit:"
  cat "$work/erlc.out"
  exit 1
fi

# Each run prints eunit:test/2's result after EUnit's own report.
verbose_mods="[eunit_basic_tests, eunit_fixture_tests, eunit_failing_tests]"
# eunit_output_tests prints from its tests straight to the console, which only has a fixed
# place in the output without [verbose] (see the module).
quiet_mods="[eunit_output_tests, eunit_basic_tests, eunit_fixture_tests, eunit_failing_tests]"
runs=(verbose quiet)
expr_verbose="io:format(\"~p~n\", [eunit:test($verbose_mods, [verbose])]), halt()."
expr_quiet="io:format(\"~p~n\", [eunit:test($quiet_mods, [])]), halt()."

known=$root/tests/eunit/known_differences.sed
normalise() {
  sed -E -e 's/\[[0-9]+\.[0-9]{3} s\] //g' -e '/^ *\[done in [0-9]+\.[0-9]{3} s\]$/d' "$1"
}
mask() {
  sed -E -f "$known" "$1"
}

status=0
for run in "${runs[@]}"; do
  var=expr_$run
  for vm in erl beamvm; do
    prog=erl
    [ $vm = beamvm ] && prog=$beamvm
    timeout "$limit" "$prog" -noshell -pa "$work/ebin" -eval "${!var}" \
      </dev/null >"$work/$run.$vm.raw" 2>&1
    rc=$?
    echo "exit status $rc" >>"$work/$run.$vm.raw"
    normalise "$work/$run.$vm.raw" >"$work/$run.$vm.timed"
    mask "$work/$run.$vm.timed" >"$work/$run.$vm.out"
  done
  masked=$(diff "$work/$run.beamvm.timed" "$work/$run.beamvm.out" | grep -c '^>')
  if ! grep -q '^error$' "$work/$run.erl.out"; then
    echo "$run: erl did not report the failing tests: the suite is broken"
    head -n 20 "$work/$run.erl.out"
    status=1
  fi
  if cmp -s "$work/$run.erl.out" "$work/$run.beamvm.out"; then
    echo "$run: identical ($(wc -l <"$work/$run.erl.out") lines; $masked masked as known differences)"
  else
    echo "$run: output differs (--- erl, +++ beamvm):"
    diff -u --label erl --label beamvm "$work/$run.erl.out" "$work/$run.beamvm.out" | head -n 200
    status=1
  fi
done
exit $status
