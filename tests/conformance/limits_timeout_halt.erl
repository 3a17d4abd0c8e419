%% Limits on arguments that OTP refuses: a receive timeout must be an integer from 0 to
%% 16#ffffffff milliseconds (timeout_value otherwise), halt/2 takes only {flush, boolean()}
%% options (badarg with cause badopt, checked before the status) and halt/1,2 a non-negative
%% integer, `abort` or a string.
-module(limits_timeout_halt).
-export([main/0]).

id(X) -> X.

t(Label, F) -> erlang:display({Label, try F() catch C:R:S -> {C, R, S} end}).

wait(T) -> receive after T -> waited end.

%% A message is already there, so a valid timeout never has to run out.
wait_with_message(T) ->
    self() ! here,
    receive here -> got_message after T -> timeout end.

main() ->
    Bad = [-1, 0.0, 3.14, 16#100000000, 392347129847294724972398472984729847129874,
           16#3fffffffffffffff, 16#ffffffffffffffff, -16#100000000,
           -3891278094774921784123987129848, xxx, "10", {1}],
    [t({receive_after, T}, fun() -> wait(id(T)) end) || T <- Bad],
    [t({receive_after_catch, T}, fun() -> catch wait(id(T)) end) || T <- Bad],
    [t({receive_after_valid, T}, fun() -> wait_with_message(id(T)) end)
     || T <- [0, 1, 16#fffffffe, 16#ffffffff, infinity]],
    t(receive_after_zero_waits_not, fun() -> wait(id(0)) end),
    t(receive_after_literal_too_long, fun() -> receive after 16#100000000 -> waited end end),
    BadOptions = [undefined, [undefined], [{undefined, true}], [{flush, undefined}],
                  [{flush, true, undefined}], [{flush, true} | x], [{flush, true}, {other, 1}],
                  [flush], {flush, true}],
    [t({halt_options, O}, fun() -> halt(0, id(O)) end) || O <- BadOptions],
    t(halt_options_before_status, fun() -> halt(undefined, id(undefined)) end),
    BadStatus = [undefined, -1, 1.0, [undefined], [a], {}, <<"x">>, [-1],
                 -16#100000000000000000000],
    %% Not a tail call: OTP's halt/1 is Erlang code in erlang.beam, so a tail call to it
    %% leaves the caller's frame out of the trace, where beamvm's native halt/1 keeps it.
    [t({halt_status, S}, fun() -> [halt(id(S))] end) || S <- BadStatus],
    [t({halt_status_2, S}, fun() -> halt(id(S), [{flush, true}]) end) || S <- BadStatus],
    t(erlang_halt_undefined, fun() -> [erlang:halt(id(undefined))] end),
    t(erlang_halt_2_undefined, fun() -> erlang:halt(id(undefined), []) end),
    ok.
