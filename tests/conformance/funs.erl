%% Funs and closures: free variables, fun M:F/A, apply, higher order, recursion through funs,
%% badfun and badarity. Local funs are never printed (their printed form is not stable).
-module(funs).
-export([main/0, id/1, add/2, twice/2]).

id(X) -> X.

add(A, B) -> A + B.

twice(F, X) -> F(F(X)).

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

%% Replace funs inside an error reason by their arity so the reason prints deterministically.
clean({badarity, {F, Args}}) when is_function(F) ->
    {arity, A} = erlang:fun_info(F, arity), {badarity, {{fun_of_arity, A}, Args}};
clean(R) -> R.

tc(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, clean(R)} end}).

make_counter(N) -> fun() -> {N, make_counter(N + 1)} end.

compose(F, G) -> fun(X) -> F(G(X)) end.

main() ->
    Add3 = fun(X) -> X + 3 end,
    K = id(10),
    AddK = fun(X) -> X + K end,
    t(call, fun() -> Add3(1) end),
    t(closure, fun() -> AddK(5) end),
    t(closure_many_free, fun() -> A = id(1), B = id(2), C = id(3), F = fun(X) -> {A, B, C, X} end, F(4) end),
    t(nested_closure, fun() -> F = fun(X) -> fun(Y) -> X * Y end end, (F(6))(7) end),
    t(export_fun, fun() -> F = fun ?MODULE:add/2, F(2, 3) end),
    t(export_fun_display, fun() -> {fun lists:reverse/1, fun ?MODULE:add/2, fun erlang:abs/1} end),
    t(export_fun_equal, fun() -> fun lists:reverse/1 =:= fun lists:reverse/1 end),
    t(local_fun_ref, fun() -> F = fun id/1, F(x) end),
    t(apply2, fun() -> apply(fun ?MODULE:add/2, [1, 2]) end),
    t(apply3, fun() -> apply(lists, reverse, [[1, 2, 3]]) end),
    t(erlang_apply, fun() -> erlang:apply(?MODULE, add, [5, 6]) end),
    t(dynamic_call, fun() -> M = id(lists), F = id(sum), M:F([1, 2, 3]) end),
    t(higher_order, fun() -> twice(Add3, 1) end),
    t(compose, fun() -> (compose(Add3, fun(X) -> X * 2 end))(5) end),
    t(map_closures, fun() -> Fs = [fun(X) -> X + N end || N <- [1, 2, 3]], [F(10) || F <- Fs] end),
    t(counter, fun() -> C0 = make_counter(id(0)), {A, C1} = C0(), {B, C2} = C1(), {C, _} = C2(), [A, B, C] end),
    t(recursive_named_fun, fun() -> Fact = fun F(0) -> 1; F(N) -> N * F(N - 1) end, Fact(20) end),
    t(y_combinator, fun() ->
                           Y = fun(F) -> (fun(G) -> G(G) end)(fun(G) -> F(fun(A) -> (G(G))(A) end) end) end,
                           Fib = Y(fun(Self) -> fun(0) -> 0; (1) -> 1; (N) -> Self(N - 1) + Self(N - 2) end end),
                           Fib(20) end),
    t(fun_info, fun() -> F = fun ?MODULE:add/2, [erlang:fun_info(F, I) || I <- [module, name, arity, type]] end),
    t(local_fun_info, fun() -> {erlang:fun_info(Add3, arity), erlang:fun_info(Add3, type), erlang:fun_info(Add3, module)} end),
    t(is_function, fun() -> {is_function(Add3), is_function(Add3, 1), is_function(Add3, 2), is_function(id(x))} end),
    t(function_exported, fun() -> {erlang:function_exported(?MODULE, add, 2), erlang:function_exported(?MODULE, nope, 0)} end),
    t(badfun_atom, fun() -> (id(notfun))(1) end),
    t(badfun_tuple, fun() -> (id({a, b}))() end),
    tc(badarity_local, fun() -> (id(Add3))(1, 2) end),
    tc(badarity_export, fun() -> (id(fun lists:reverse/1))() end),
    t(undef_export_fun, fun() -> (id(fun nomod:nofun/0))() end),
    t(apply_undef, fun() -> apply(id(?MODULE), nofun, []) end),
    t(apply_bad_args, fun() -> apply(?MODULE, add, id(notalist)) end),
    t(fun_equality, fun() -> {Add3 =:= Add3, fun ?MODULE:add/2 == fun ?MODULE:add/2} end),
    t(fun_in_data, fun() -> Ops = #{inc => fun(X) -> X + 1 end, dbl => fun(X) -> 2 * X end},
                           [(maps:get(Op, Ops))(5) || Op <- [inc, dbl, inc]] end),
    t(foldl_closure_sum, fun() -> lists:foldl(fun(X, Acc) -> X * K + Acc end, 0, lists:seq(1, 100)) end),
    ok.
