%% Every standard error reason, raised by the VM itself (not by erlang:error/1).
-module(exc_reasons).
-export([main/0, id/1, one/1]).

-record(r, {a}).

id(X) -> X.

one(1) -> one.

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, clean(R)} end}).

%% Funs inside reasons are replaced by their arity: local funs do not print stably.
clean({badarity, {F, Args}}) when is_function(F) ->
    {arity, A} = erlang:fun_info(F, arity), {badarity, {{fun_of_arity, A}, Args}};
clean(R) -> R.

f_if(X) -> if X > 10 -> big; X < 0 -> neg end.

f_case(X) -> case X of a -> 1; b -> 2 end.

f_try(X) -> try X of ok -> fine catch _:_ -> caught end.

f_guard(X) when is_atom(X) -> atom.

main() ->
    t(badarg, fun() -> atom_to_list(id(123)) end),
    t(badarg_element, fun() -> element(id(0), {}) end),
    t(badarith, fun() -> id(1) + id(a) end),
    t(badarith_div, fun() -> id(1) div id(0) end),
    t(badmatch, fun() -> {ok, V} = id({error, x}), V end),
    t(badmatch_int, fun() -> 1 = id(2) end),
    t(case_clause, fun() -> f_case(id(c)) end),
    t(case_clause_tuple, fun() -> case id({x, 1}) of {y, _} -> y end end),
    t(function_clause_local, fun() -> one(id(2)) end),
    t(function_clause_guard, fun() -> f_guard(id("s")) end),
    t(function_clause_stdlib, fun() -> lists:last(id([])) end),
    t(if_clause, fun() -> f_if(id(5)) end),
    t(try_clause, fun() -> f_try(id(notok)) end),
    t(undef_function, fun() -> (id(?MODULE)):missing(1) end),
    t(undef_module, fun() -> (id(no_such_module_xyz)):f() end),
    t(badfun, fun() -> (id(123))(1) end),
    t(badarity, fun() -> (id(fun(X) -> X end))() end),
    t(badrecord, fun() -> (id({q, 1}))#r.a end),
    t(badkey, fun() -> (id(#{}))#{k := 1} end),
    t(badmap, fun() -> (id(x))#{k := 1} end),
    t(badmap_get, fun() -> maps:get(k, id([])) end),
    t(system_limit, fun() -> list_to_atom(lists:duplicate(id(300), $x)) end),
    t(bad_generator, fun() -> [X || X <- id(nolist)] end),
    t(bad_filter, fun() -> [X || X <- [1], id(notbool)] end),
    t(badarg_binary_op, fun() -> <<(id(x))>> end),
    t(nocatch_throw, fun() -> throw(id(ball)) end),
    t(exit_reason, fun() -> exit(id(bye)) end),
    t(error_tuple, fun() -> error(id({my, reason})) end),
    t(error2_reason, fun() -> error(id(custom), [1, 2]) end),
    t(andalso_badarg, fun() -> id(1) andalso true end),
    t(not_badarg, fun() -> not id(1) end),
    t(badarg_list_op, fun() -> id(a) ++ [1] end),
    ok.
