#!/bin/sh
# Runs tests/ct/sample_SUITE through common_test's ct_run on erl and on beamvm and compares what ct
# reports, byte for byte: the "TEST COMPLETE" line, each case's result from suite.log (first line,
# sorted, since parallel groups finish in any order), the order of the shuffled group, and which HTML
# logs exist. Timings and paths are left out.
# Usage: ct_compare.sh BEAMVM [WORKDIR]   (exit 77 = skipped: common_test is not installed)
set -u
BEAMVM=$1
case $BEAMVM in /*) ;; */*) BEAMVM=$PWD/$BEAMVM ;; esac  # the runs cd into their log dirs
WORK=${2:-${TMPDIR:-/tmp}/beamvm_ct_compare.$$}
SRC=$(cd "$(dirname "$0")" && pwd)
LIMIT=${CT_COMPARE_LIMIT:-100}

if ! erl -noshell -eval 'case code:lib_dir(common_test) of {error,_} -> halt(1); _ -> halt(0) end.'; then
  echo "common_test is not installed (Debian: erlang-common-test); skipping"; exit 77
fi
rm -rf "$WORK"; mkdir -p "$WORK/suite" "$WORK/erl" "$WORK/beamvm"
erlc -o "$WORK/suite" "$SRC/sample_SUITE.erl" 2>/dev/null || { echo "erlc failed"; exit 1; }
cp -r "$SRC/sample_SUITE_data" "$WORK/suite/"

# summary LOGDIR OUTFILE: the deterministic part of one run.
summary() {
  log=$(ls "$1"/ct_run.*/*.logs/run.*/suite.log 2>/dev/null | head -1)
  grep -a 'TEST COMPLETE' "$2" | sed 's/^.*TEST COMPLETE/TEST COMPLETE/'
  if [ -z "$log" ]; then echo "no suite.log"; return; fi
  awk '/^=case/ {c=$2} /^=group_props/ {g=$0} /^=result/ {r=$0; sub(/^=result +/, "", r); print c " " r}' "$log" | sort
  echo "shuffle order: $(grep -a '^=case' "$log" | grep -o 'shuf_[a-z]' | tr '\n' ' ')"
  dir=$(dirname "$log")
  echo "html logs: $(ls "$dir" | grep '\.html$' | sed 's/\.[0-9]*\.html$/.N.html/' | sort | tr '\n' ' ')"
  grep -q 'a line for the case log: {some,term}' "$dir/sample_suite.log_case.html" 2>/dev/null \
    && echo "ct:log text in the case log: yes" || echo "ct:log text in the case log: no"
  grep -q 'a comment for the html log' "$dir/suite.log.html" 2>/dev/null \
    && echo "ct:comment text in suite.log.html: yes" || echo "ct:comment text in suite.log.html: no"
  for f in index.html all_runs.html; do [ -f "$1/$f" ] && echo "html $f: yes" || echo "html $f: no"; done
}

run() { # run VM-COMMAND... : ct_run on the suite, logs in $WORK/NAME
  name=$1; shift
  (cd "$WORK/$name" && timeout -k 5 "$LIMIT" "$@" -noshell -pa "$WORK/suite" \
     -s ct_run script_start -dir "$WORK/suite" -logdir "$WORK/$name" -s erlang halt \
     > "$WORK/$name.out" 2>&1)
  echo "$name: exit $?" >> "$WORK/exits"
  summary "$WORK/$name" "$WORK/$name.out" > "$WORK/$name.summary"
}

run erl erl
run beamvm "$BEAMVM"
if ! grep -q 'TEST COMPLETE' "$WORK/erl.summary"; then
  echo "erl did not complete the run:"; cat "$WORK/erl.out"; exit 1
fi
if diff -u "$WORK/erl.summary" "$WORK/beamvm.summary"; then
  cat "$WORK/beamvm.summary"; rm -rf "$WORK"; exit 0
fi
echo "beamvm differs from erl (logs kept in $WORK)"; tail -30 "$WORK/beamvm.out"; exit 1
