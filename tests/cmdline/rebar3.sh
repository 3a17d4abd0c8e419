#!/usr/bin/env bash
# Usage: tests/cmdline/rebar3.sh BEAMVM
# Debian's rebar3 (an escript with an embedded archive and `%%! +sbtu +A1`) run by BEAMVM as
# `beamvm /usr/bin/rebar3 ...`, offline (HOME in a temporary directory, no network):
# `rebar3 version` prints what it prints on erl; `rebar3 new lib` and `rebar3 compile` build a
# tiny library whose module then runs on erl; `rebar3 eunit` and `rebar3 ct` run its tests (one
# EUnit test that passes, one that fails: erl's summary lines and exit status; one
# common_test case, which passes). Skipped (77) when rebar3 is not installed.
set -u
[ $# -eq 1 ] || { echo "usage: $0 BEAMVM" >&2; exit 2; }
beamvm=$(realpath "$1")
rebar3=$(command -v rebar3) || { echo "rebar3 not installed (tools/setup.sh installs it)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export HOME=$work REBAR_OFFLINE=1 REBAR_COLOR=none
cd "$work" || exit 2
status=0
e=$(timeout 60 rebar3 version 2>&1); b=$(timeout 60 "$beamvm" "$rebar3" version 2>&1)
if [ "$e" = "$b" ]; then echo "same: rebar3 version ($b)"; else echo "DIFFERS: rebar3 version"; echo "erl: $e"; echo "beamvm: $b"; status=1; fi
e=$(cd "$work" && timeout 60 rebar3 new lib erl_made 2>&1 | sed 's/erl_made/NAME/g')
b=$(cd "$work" && timeout 60 "$beamvm" "$rebar3" new lib tiny 2>&1 | sed 's/tiny/NAME/g'); rc=$?
if [ "$e" = "$b" ]; then echo "same: rebar3 new lib"; else echo "DIFFERS: rebar3 new lib"; diff <(echo "$e") <(echo "$b"); status=1; fi
cat >tiny/src/tiny.erl <<'ERL'
-module(tiny).
-export([hello/0]).
hello() -> {hello, lists:sum([1, 2, 3])}.
ERL
b=$(cd tiny && timeout 120 "$beamvm" "$rebar3" compile 2>&1); rc=$?
echo "$b"
if [ $rc -ne 0 ] || [ ! -f tiny/_build/default/lib/tiny/ebin/tiny.beam ] || [ ! -f tiny/_build/default/lib/tiny/ebin/tiny.app ]; then
  echo "FAILED: rebar3 compile on beamvm (status $rc)"; status=1
else
  r=$(erl -noshell -pa tiny/_build/default/lib/tiny/ebin -eval 'io:format("~p~n", [tiny:hello()]), halt().')
  if [ "$r" = "{hello,6}" ]; then echo "ok: rebar3 compile on beamvm; the module runs on erl: $r"; else echo "FAILED: compiled module gives $r"; status=1; fi
fi
# Tests: the summary lines and the status must be erl's.
cat >tiny/src/tiny.erl <<'ERL'
-module(tiny).
-export([hello/0]).
-include_lib("eunit/include/eunit.hrl").
hello() -> {hello, lists:sum([1, 2, 3])}.
hello_test() -> {hello, 6} = hello().
wrong_test() -> {hello, 7} = hello().
ERL
mkdir -p tiny/test
printf -- '-module(tiny_SUITE).\n-compile(export_all).\nall() -> [t].\nt(_) -> {hello, 6} = tiny:hello().\n' >tiny/test/tiny_SUITE.erl
summary() { grep -E '^(Failed:|All |[0-9]+ tests|Finished|  [0-9]+\) |Failed [0-9])' | sed -E 's/Finished in [0-9.]+ seconds/Finished/'; }
e=$(cd tiny && timeout 120 rebar3 eunit 2>&1 | summary; echo "status ${PIPESTATUS[0]}")
rm -rf tiny/_build/test
b=$(cd tiny && timeout 120 "$beamvm" "$rebar3" eunit 2>&1 | summary; echo "status ${PIPESTATUS[0]}")
if [ "$e" = "$b" ]; then echo "same: rebar3 eunit ($(echo "$b" | tr '\n' ' '))"; else echo "DIFFERS: rebar3 eunit"; diff <(echo "$e") <(echo "$b"); status=1; fi
# common_test on beamvm only (erl's run would double this test's time): its one case passes.
b=$(cd tiny && timeout 120 "$beamvm" "$rebar3" ct 2>&1); rc=$?
if [ $rc -eq 0 ] && grep -q "All 1 tests passed" <<<"$b"; then echo "ok: rebar3 ct on beamvm"; else echo "FAILED: rebar3 ct (status $rc)"; echo "$b"; status=1; fi
exit $status
