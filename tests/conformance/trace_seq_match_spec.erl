%% The seq_trace forms of trace match specifications under erlang:match_spec_test/3:
%% is_seq_trace and get_seq_token see the caller's token; set_seq_token is accepted but, as on
%% erl, changes nothing when the spec is only tested.
-module(trace_seq_match_spec).
-export([main/0]).

main() ->
    Spec = fun(Guard, Body) -> [{[a], Guard, Body}] end,
    R1 = erlang:match_spec_test([a], Spec([], [{set_seq_token, label, 3}, {message, {get_seq_token}}]), trace),
    T1 = seq_trace:get_token(),
    R2 = erlang:match_spec_test([a], Spec([{is_seq_trace}], [{message, yes}]), trace),
    seq_trace:set_token(label, x),
    R3 = erlang:match_spec_test([a], Spec([{is_seq_trace}], [{message, {get_seq_token}}]), trace),
    R4 = erlang:match_spec_test([a], Spec([], [{set_seq_token, foo, 3}]), trace),
    R5 = erlang:match_spec_test([a], Spec([], [{set_seq_token, label, y}, {message, {get_seq_token}}]), trace),
    T2 = seq_trace:get_token(),
    seq_trace:set_token([]),
    R6 = erlang:match_spec_test([a], Spec([], [{is_seq_trace, 1}]), trace),
    R7 = erlang:match_spec_test([a], Spec([], [{set_seq_token, label}]), trace),
    [io:format("~p~n", [norm(R)]) || R <- [R1, T1, R2, R3, R4, R5, T2, R6, R7]],
    ok.

norm(T) when is_pid(T) -> case T =:= self() of true -> self; false -> other end;
norm(T) when is_tuple(T) -> list_to_tuple(norm(tuple_to_list(T)));
norm([H | T]) -> [norm(H) | norm(T)];
norm(T) -> T.
