#!/usr/bin/env bash
# Runs escripts on OTP's escript launcher (erl) and on beamvm (`beamvm script args`) and
# compares stdout, stderr and the exit status (the generated module name of a compiled source
# escript aside). The escripts: tests/escript/*.escript (source),
# and a precompiled-beam and an archive escript built here from tests/escript/escript_main.erl.
# Usage: tools/escript_check.sh BEAMVM
set -uo pipefail
beamvm=$(realpath "$1")
src=$(cd "$(dirname "$0")/../tests/escript" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$src"/*.escript "$work"/
cd "$work"
erlc "$src/escript_main.erl" || exit 1
erl -noshell -eval '
    {ok, B} = file:read_file("escript_main.beam"),
    ok = escript:create("beam.escript", [shebang, {beam, B}]),
    {ok, {_, Zip}} = zip:create("a.zip", [{"escript_main.beam", B}], [memory]),
    ok = escript:create("archive.escript", [shebang, {emu_args, "-escript main escript_main"}, {archive, Zip}]),
    ok = escript:create("archive_flags.escript", [shebang, {emu_args, "+sbtu +A1 -escript main escript_main"}, {archive, Zip}]),
    ok = escript:create("beam_flags.escript", [shebang, {emu_args, "+P 5000 +hms 1000"}, {beam, B}]),
    halt().' || exit 1

fail=0
run() {  # script args...
    local name="$1"; shift
    local tag="$name $*"
    printf 'line one\nline two\n' | escript "$name" "$@" >erl.out 2>erl.err; local erl_rc=$?
    printf 'line one\nline two\n' | "$beamvm" "$name" "$@" >vm.out 2>vm.err; local vm_rc=$?
    # A source escript compiled with -mode(compile) is named after the time and a unique
    # integer: the one thing not compared.
    sed -i -E 's/__escript__[0-9_]+:/__escript__N:/' erl.err vm.err
    if [ "$erl_rc" != "$vm_rc" ]; then echo "DIFFERS: $tag: exit status erl $erl_rc, beamvm $vm_rc"; fail=1; fi
    if ! diff -u erl.out vm.out >diff.txt; then echo "DIFFERS: $tag: stdout"; cat diff.txt; fail=1; fi
    if ! diff -u erl.err vm.err >diff.txt; then echo "DIFFERS: $tag: stderr"; cat diff.txt; fail=1; fi
    echo "ok: $tag (status $vm_rc, $(wc -l <vm.out) lines)"
}
run args_status.escript
run args_status.escript a "b c" d
run args_status.escript halt 7
run args_status.escript crash
run args_status.escript throw
run args_status.escript exit
run interpreted.escript
run interpreted.escript 1 22 333
run interpreted.escript 1 x
run beam.escript
run beam.escript x y
run archive.escript p q r
run archive_flags.escript s t
run beam_flags.escript u
run emu_flags.escript
run emu_flags.escript 3
exit $fail
