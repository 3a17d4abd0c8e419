#!/usr/bin/env bash
# Usage: compile_compare.sh [--beamvm PATH] [--work DIR] [--keep]
# OTP's compiler (the compiler application's own .beam files) run on erl and on beamvm: every
# source in tests/compiler/modules.txt is compiled by compile:file/2 and by epp:parse_file/2 +
# compile:forms/2 on both emulators, and the .beam binaries must be byte-identical; the
# warnings and errors that [report] prints for tests/compiler/compile_{warnings,errors}.erl
# must be the same text; compiling every source at once in parallel processes on beamvm must
# give the same files; erlc and erl_compile:compile/2 on beamvm must write the same .beam
# file. Prints the differing modules and exits 1 on any difference; prints
# both emulators' wall-clock times (measured, never asserted).
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
fixtures=$root/tests/compiler

# The sources, as an Erlang list of absolute paths (the path ends up in the CInf chunk, so
# both emulators must see the same one).
files=()
while read -r line; do
  case $line in ''|'#'*) continue ;; esac
  files+=("$root/$line")
done <"$fixtures/modules.txt"
list=$(printf '"%s",' "${files[@]}")
list="[${list%,}]"

# compile_all(OUT): both ways of compiling every source; a failure to compile is reported and
# makes the emulator exit 1.
compile_expr() {
  cat <<EOF
Out = "$1",
Write = fun(Name, Bin) -> ok = file:write_file(filename:join(Out, Name), Bin) end,
Fail = fun(How, F, R) -> io:format("~s ~s failed: ~p~n", [How, F, R]), halt(1) end,
lists:foreach(
  fun(F) ->
      case compile:file(F, [binary, return_errors]) of
          {ok, M, B} -> Write(atom_to_list(M) ++ ".beam", B);
          R1 -> Fail("compile:file", F, R1)
      end,
      case epp:parse_file(F, [{includes, [filename:dirname(F)]}]) of
          {ok, Forms} ->
              case compile:forms(Forms, [binary, return_errors, debug_info, compressed]) of
                  {ok, M2, B2} -> Write(atom_to_list(M2) ++ ".forms.beam", B2);
                  R2 -> Fail("compile:forms", F, R2)
              end;
          R3 -> Fail("epp:parse_file", F, R3)
      end
  end, $list),
halt().
EOF
}

# What [report] prints for a module with warnings and one with errors (run in the fixture
# directory, so the file names printed are the bare ones).
report_expr() {
  cat <<'EOF'
{ok, Forms} = epp:parse_file("compile_warnings.erl", []),
io:format("~p~n", [element(1, compile:file("compile_warnings.erl", [binary, report]))]),
io:format("~p~n", [element(1, compile:forms(Forms, [binary, report]))]),
io:format("~p~n", [compile:file("compile_errors.erl", [binary, report])]),
io:format("~p~n", [compile:file("no_such_module.erl", [binary, report])]),
halt().
EOF
}

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

status=0
declare -A secs
for vm in erl beamvm; do
  prog=erl
  [ $vm = beamvm ] && prog=$beamvm
  mkdir -p "$work/$vm"
  rm -f "$work/$vm"/*.beam
  t0=$(now)
  if ! "$prog" -noshell -eval "$(compile_expr "$work/$vm")" </dev/null >"$work/$vm.out" 2>&1; then
    echo "$vm: compiling failed:"
    head -n 20 "$work/$vm.out"
    status=1
  fi
  t1=$(now)
  secs[$vm]=$(elapsed "$t0" "$t1")
  (cd "$fixtures" && "$prog" -noshell -eval "$(report_expr)" </dev/null >"$work/$vm.report" 2>&1)
done

# The same compile:file/2 calls in one process per source at once, on beamvm's schedulers:
# each .beam must be the one erl wrote sequentially.
parallel_expr() {
  cat <<EOF
Out = "$1", Self = self(),
Ps = [spawn_link(fun() ->
                     {ok, M, B} = compile:file(F, [binary, return_errors]),
                     ok = file:write_file(filename:join(Out, atom_to_list(M) ++ ".beam"), B),
                     Self ! {self(), done}
                 end) || F <- $list],
[receive {P, done} -> ok end || P <- Ps],
halt().
EOF
}
mkdir -p "$work/parallel"
rm -f "$work"/parallel/*.beam
if ! "$beamvm" -noshell -eval "$(parallel_expr "$work/parallel")" </dev/null >"$work/parallel.out" 2>&1; then
  echo "beamvm: compiling in parallel failed:"
  head -n 20 "$work/parallel.out"
  status=1
fi
for src in "${files[@]}"; do
  f=$work/erl/$(basename "$src" .erl).beam
  if [ -f "$f" ] && ! cmp -s "$f" "$work/parallel/$(basename "$f")"; then
    echo "DIFFERS: $(basename "$f") compiled in parallel processes on beamvm"
    status=1
  fi
done

# erlc's job done on beamvm: erlc's own entry (erl_compile, with erlc's command-line syntax)
# must write the .beam file erlc writes, for the first three sources.
mkdir -p "$work/erlc" "$work/erl_compile"
rm -f "$work"/erlc/*.beam "$work"/erl_compile/*.beam
for src in "${files[@]:0:3}"; do
  name=$(basename "$src" .erl)
  erlc -o "$work/erlc" +debug_info -DCOMPILE_COMPARE=1 "$src" >"$work/erlc.out" 2>&1
  "$beamvm" -noshell -eval "{ok, Cwd} = file:get_cwd(),
      ok = erl_compile:compile([\"-o\", \"$work/erl_compile\", \"+debug_info\",
                                \"-DCOMPILE_COMPARE=1\", \"$src\"], Cwd), halt()." \
      </dev/null >"$work/erl_compile.out" 2>&1
  if ! cmp -s "$work/erlc/$name.beam" "$work/erl_compile/$name.beam"; then
    echo "DIFFERS: $name.beam from erlc and from erl_compile:compile/2 on beamvm"
    status=1
  fi
done

compared=0
for f in "$work"/erl/*.beam; do
  name=$(basename "$f")
  compared=$((compared + 1))
  if [ ! -f "$work/beamvm/$name" ]; then
    echo "DIFFERS: $name (not produced on beamvm)"
    status=1
  elif ! cmp -s "$f" "$work/beamvm/$name"; then
    echo "DIFFERS: $name ($(cmp "$f" "$work/beamvm/$name" 2>&1 | head -n 1))"
    status=1
  fi
done
if [ $compared -lt $((2 * ${#files[@]})) ]; then
  echo "erl produced $compared .beam files, expected $((2 * ${#files[@]}))"
  status=1
fi
if ! cmp -s "$work/erl.report" "$work/beamvm.report"; then
  echo "[report] output differs (--- erl, +++ beamvm):"
  diff -u --label erl --label beamvm "$work/erl.report" "$work/beamvm.report" | head -n 40
  status=1
fi
echo "${#files[@]} modules, $compared .beam files compared; compile time: erl ${secs[erl]} s, beamvm ${secs[beamvm]} s"
[ $status -eq 0 ] && echo "all identical"
exit $status
