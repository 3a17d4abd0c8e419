#!/usr/bin/env bash
# Usage: atomvm_corpus.sh [options] [ATOMVM_SRC] [TEST...]
#
# Runs AtomVM's portable test corpus (tests/erlang_tests/*.erl, expected values from the table in
# tests/test.c) on erl and on beamvm, one fresh VM per test, and prints per-test results and the
# totals for both. ATOMVM_SRC is a checkout of github.com/atomvm/AtomVM (measured at release-0.6,
# commit 6c084079); it may also come from the ATOMVM_SRC environment variable. See
# docs/atomvm_corpus.md.
#
# Options:
#   --beamvm PATH   beamvm binary (default: build/beamvm next to this script's tools/)
#   --work DIR      where .beam files and results go (default: build/atomvm_corpus)
#   --vm erl|beamvm|both   which VMs to run (default both)
#   -j N            tests run in parallel (default 2)
#   --no-atomvm-only  leave out the table's TEST_CASE_ATOMVM_ONLY entries (run by default)
#   --check         exit 1 if a test that passes on erl fails on beamvm and is not listed in
#                   tools/atomvm_corpus_known_failures.txt (used by the CTest)
# Exit status 77 when no AtomVM source is given (CTest treats it as skipped).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
beamvm=$root/build/beamvm
work=$root/build/atomvm_corpus
vms=both
jobs=2
check=0
atomvm_only=1
src=${ATOMVM_SRC:-}
only=()
while [ $# -gt 0 ]; do
  case $1 in
    --beamvm) beamvm=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --vm) vms=$2; shift 2 ;;
    -j) jobs=$2; shift 2 ;;
    --check) check=1; shift ;;
    --no-atomvm-only) atomvm_only=0; shift ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    '') shift ;;
    *) if [ -d "$1" ]; then src=$1; else only+=("$1"); fi; shift ;;
  esac
done
if [ -z "$src" ] || [ ! -f "$src/tests/test.c" ]; then
  echo "atomvm_corpus: no AtomVM source (give its directory or set ATOMVM_SRC); skipped" >&2
  exit 77
fi
tests_dir=$src/tests/erlang_tests
beamvm=$(cd "$(dirname "$beamvm")" && pwd)/$(basename "$beamvm")
mkdir -p "$work/code_load" "$work/runner" "$work/results"
work=$(cd "$work" && pwd)
limit=${ATOMVM_CORPUS_TIMEOUT:-60}

# 1. The test table: "module expected [atomvm_only]" for every entry. AtomVM's own
# `test-erlang -b` skips the TEST_CASE_ATOMVM_ONLY entries; they run here too (some pass on
# erl; issue 8 counted them), and are left out with --no-atomvm-only. The skip conditions of
# TEST_CASE_COND (no SMP, no stack traces, 32-bit longs) are all false for a 64-bit build with
# AtomVM's defaults, so those entries run, and so do the entries under
# `#if defined ATOMVM_HAS_MBEDTLS` (a build with crypto).
sed -n '/^struct Test tests\[\] = {/,/{ NULL, 0/p' "$src/tests/test.c" |
  sed -e 's|//.*||' |
  sed -nE -e 's/^\s*TEST_CASE\((\w+)\),.*/\1 0/p' \
          -e 's/^\s*TEST_CASE_EXPECTED\((\w+), *(-?[0-9]+)\),.*/\1 \2/p' \
          -e 's/^\s*TEST_CASE_COND\((\w+), *(-?[0-9]+),.*/\1 \2/p' \
          -e 's/^\s*TEST_CASE_ATOMVM_ONLY\((\w+), *(-?[0-9]+)\),.*/\1 \2 atomvm_only/p' |
  if [ $atomvm_only -eq 1 ]; then cat; else grep -v ' atomvm_only$'; fi >"$work/table.txt"
if [ ${#only[@]} -gt 0 ]; then
  printf '%s\n' "${only[@]}" | awk 'NR==FNR {want[$1]=1; next} want[$1]' - "$work/table.txt" \
    >"$work/table.sel" && mv "$work/table.sel" "$work/table.txt"
fi

# 2. Compile, as AtomVM's erlang_tests/CMakeLists.txt does: plain erlc for each listed module
# (.S files through the assembler), after code_load/export_test_module.beam and the .hrl that
# embeds it (what AtomVM's to_hrl.erl escript writes, without its -sname). One erl compiles
# everything; a module that does not compile fails its test below.
compile_list=$(sed -nE 's/^compile_(erlang|assembler)\((\w+)\)/\2/p' "$tests_dir/CMakeLists.txt")
(cd "$work/code_load" &&
  erlc "$tests_dir/code_load/export_test_module.erl" &&
  erl -noshell -eval '{ok, B} = file:read_file("export_test_module.beam"),
    ok = file:write_file("export_test_module_data.hrl",
                         io_lib:format("-define(~s, ~w).", ['"'"'EXPORT_TEST_MODULE_DATA'"'"', B])),
    halt().') || echo "atomvm_corpus: code_load files not built" >&2
erlc -o "$work/runner" "$here/atomvm_corpus_run.erl" || exit 1
files=""
for m in $compile_list; do
  if [ -f "$tests_dir/$m.erl" ]; then f=$tests_dir/$m.erl; else f=$tests_dir/$m.S; fi
  [ "$work/$m.beam" -nt "$f" ] || files="$files \"$f\","
done
if [ -n "$files" ]; then
  (cd "$work" && erl -noshell -eval "
    CompileOne = fun(F, O) -> case filename:extension(F) of
        \".S\" -> compile:file(filename:rootname(F), [from_asm | O]);
        _ -> compile:file(F, O) end end,
    Opts = [report, {outdir, \".\"}, {i, \"$tests_dir\"}, {i, \".\"}],
    Bad = [F || F <- [${files%,}], CompileOne(F, Opts) =:= error],
    [io:format(standard_error, \"atomvm_corpus: ~s does not compile~n\", [F]) || F <- Bad],
    halt().") >"$work/compile.log" 2>&1
  # AtomVM-only modules (two embed an .avm pack AtomVM's build makes) are not reported.
  grep -h 'does not compile' "$work/compile.log" | while read -r _ f _; do
    grep -qE "^$(basename "${f%.*}") -?[0-9]+$" "$work/table.txt" &&
      echo "atomvm_corpus: $f does not compile" >&2
  done
fi

# 3. Run: one VM per test, from the work directory (test_code_load_abs loads a relative path).
run_one() { # VM MODULE EXPECTED -> results/VM/MODULE holds the runner's line
  local vm=$1 m=$2 exp=$3 prog out
  if [ "$vm" = erl ]; then prog=erl; else prog=$beamvm; fi
  out=$(cd "$work" && timeout "$limit" "$prog" -noshell -pa "$work" -pa "$work/runner" \
        -s atomvm_corpus_run main "$m" "v$exp" </dev/null 2>"$work/results/$vm/$m.err")
  local rc=$?
  local line
  line=$(printf '%s\n' "$out" | grep -a "^atomvm_corpus $m " | tail -n 1 | cut -d' ' -f3-)
  if [ -z "$line" ]; then
    if [ $rc -eq 124 ]; then line="FAIL timed out after ${limit}s"
    else line="FAIL no result (status $rc): $(tail -n 1 "$work/results/$vm/$m.err" | cut -c1-200)"; fi
  fi
  printf '%s\n' "$line" >"$work/results/$vm/$m"
}
export -f run_one
export work beamvm limit
selected=()
case $vms in both) selected=(erl beamvm) ;; *) selected=("$vms") ;; esac
for vm in "${selected[@]}"; do
  mkdir -p "$work/results/$vm"
  awk -v vm="$vm" '{print vm, $1, $2}' "$work/table.txt" |
    xargs -r -P "$jobs" -L 1 bash -c 'run_one "$0" "$1" "$2"'
done

# 4. Report.
known=$here/atomvm_corpus_known_failures.txt
total=0; declare -A pass=(); unexpected=0; known_count=0
while read -r m exp kind; do
  total=$((total + 1))
  row="$m"
  for vm in "${selected[@]}"; do
    r=$(cat "$work/results/$vm/$m" 2>/dev/null || echo "FAIL not run")
    case $r in PASS) pass[$vm]=$((${pass[$vm]:-0} + 1)) ;; esac
    row="$row $vm:${r%% *}"
  done
  erl_r=$(cat "$work/results/erl/$m" 2>/dev/null || echo "")
  vm_r=$(cat "$work/results/beamvm/$m" 2>/dev/null || echo "")
  note=""
  if [ "$vms" = both ] && [ "$erl_r" = PASS ] && [ "$vm_r" != PASS ]; then
    if grep -q "^$m " "$known" 2>/dev/null; then
      note=" (known: $(grep "^$m " "$known" | cut -d' ' -f2-))"; known_count=$((known_count + 1))
    else note=" beamvm: $vm_r"; unexpected=$((unexpected + 1)); fi
  elif [ "$vms" != both ] && [ "${vm_r:-$erl_r}" != PASS ]; then
    note=" ${vm_r:-$erl_r}"
  fi
  [ "$kind" = atomvm_only ] && row="$row [AtomVM-only]"
  echo "$row$note"
done <"$work/table.txt"
echo "total $total tests"
for vm in "${selected[@]}"; do echo "$vm passes ${pass[$vm]:-0} of $total"; done
if [ "$vms" = both ]; then
  echo "passing on erl, failing on beamvm: $unexpected unexpected, $known_count known" \
       "($(basename "$known"))"
fi
if [ $check -eq 1 ] && [ $unexpected -gt 0 ]; then exit 1; fi
exit 0
