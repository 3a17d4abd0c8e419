%% The frame of a function that raises through apply: erlang:error/2 reached by apply, in
%% tail position or not, through erlang:apply/3 applied once or several times, names the
%% applying function with the arguments given to error/2 (bif_SUITE error_stacktrace); and
%% error/2,3 with `none` or a non-list keep the arity (exception_SUITE stacktrace).
-module(exc_apply_frames).
-export([main/0, id/1]).

main() ->
    Types = [apply_const_last, apply_const, apply_last, apply, double_apply_const_last,
             double_apply_last, double_apply, multi_apply_last, multi_apply, apply_only,
             call_last, call],
    [show(T, trace(fun() -> stk([a, b], T) end)) || T <- Types],
    show(error_none, trace(fun() -> raise_none(x) end)),
    show(error_not_a_list, trace(fun() -> raise_atom_args(x) end)),
    show(error3_none, trace(fun() -> raise3_none(x) end)),
    ok.

trace(F) ->
    try F() of V -> {returned, V}
    catch error:R:St -> {R, [{M, Fn, A} || {M, Fn, A, _} <- St]}
    end.

stk([_ | L], T) -> stk(L, T), id(ok);
stk([], T) -> put(erlang, erlang), do_error(T), id(ok).

do_error(apply_const_last) -> erlang:apply(erlang, error, [oops, [apply_const_last]]);
do_error(apply_const) -> erlang:apply(erlang, error, [oops, [apply_const]]), ok;
do_error(apply_last) -> erlang:apply(id(erlang), id(error), id([oops, [apply_last]]));
do_error(apply) -> erlang:apply(id(erlang), id(error), id([oops, [apply]])), ok;
do_error(double_apply_const_last) ->
    erlang:apply(erlang, apply, [erlang, error, [oops, [double_apply_const_last]]]);
do_error(double_apply_last) ->
    erlang:apply(id(erlang), id(apply), [id(erlang), id(error), id([oops, [double_apply_last]])]);
do_error(double_apply) ->
    erlang:apply(id(erlang), id(apply), [id(erlang), id(error), id([oops, [double_apply]])]), ok;
do_error(multi_apply_last) ->
    erlang:apply(id(erlang), id(apply), [id(erlang), id(apply), [id(erlang), id(error), id([oops, [multi_apply_last]])]]);
do_error(multi_apply) ->
    erlang:apply(id(erlang), id(apply), [id(erlang), id(apply), [id(erlang), id(error), id([oops, [multi_apply]])]]), ok;
do_error(apply_only) -> Erlang = get(erlang), apply(Erlang, error, [oops, [apply_only]]);
do_error(call_last) -> erlang:error(id(oops), id([call_last]));
do_error(call) -> erlang:error(id(oops), id([call])), ok.

raise_none(X) -> erlang:error(oops, none), X.
raise_atom_args(X) -> erlang:error(oops, not_a_list), X.
raise3_none(X) -> erlang:error(oops, none, [{error_info, #{}}]), X.

id(X) -> X.

show(Label, Value) -> io:format("~p: ~p~n", [Label, Value]).
