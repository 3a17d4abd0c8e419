#!/usr/bin/env bash
# Usage: tests/cmdline/rebar3.sh BEAMVM
# Debian's rebar3 (an escript with an embedded archive and `%%! +sbtu +A1`) run by BEAMVM as
# `beamvm /usr/bin/rebar3 ...`, offline (HOME in a temporary directory, no network):
# `rebar3 version` prints what it prints on erl; `rebar3 new lib` and `rebar3 compile` build a
# tiny library whose module then runs on erl. Skipped (77) when rebar3 is not installed.
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
exit $status
