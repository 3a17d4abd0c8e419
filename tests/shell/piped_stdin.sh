#!/usr/bin/env bash
# Standard input that is not a terminal: tty_sl does not open, user_drv starts the
# line-at-a-time `user` (the old shell), as on erl. The same input is piped into erl and
# beamvm and their outputs and exit codes compared.
# usage: piped_stdin.sh BEAMVM
set -u
BEAMVM=$1
ERL=${ERL:-erl}
fail=0
check() {  # name input [args...]
    local name=$1 input=$2
    shift 2
    local e b
    e=$(printf '%s' "$input" | timeout 30 "$ERL" "$@" 2>&1; echo "[exit $?]")
    b=$(printf '%s' "$input" | timeout 30 "$BEAMVM" "$@" 2>&1; echo "[exit $?]")
    if [ "$e" = "$b" ]; then
        echo "ok   $name"
    else
        echo "FAIL $name"
        diff <(echo "$e") <(echo "$b") | head -20
        fail=1
    fi
}
check expressions 'X = 1+2. X*3.
[X, "two", <<"three">>].
'
check error_then_more 'foo(. 1 + a. 2+2.
'
check halt_in_input 'io:format("bye~n"), halt(3).
'
check noinput_eval '' -noinput -eval 'io:format("~p~n", [lists:seq(1,3)]), halt().'
exit $fail
