%% erl_eval, erl_scan and erl_parse (OTP's, unmodified): multi-clause funs with guards,
%% recursion through named funs, closures over bindings, erl_eval:exprs with bindings, and
%% scan/parse/print round trips.
-module(otp_erl_eval).
-export([main/0]).

t(Label, F) -> io:format("~p: ~p~n", [Label, try F() catch C:R -> {C, R} end]).

%% Evaluate a string of expressions (ending in a dot) with the given bindings.
ev(Src, Bindings) ->
    {ok, Tokens, _} = erl_scan:string(Src),
    {ok, Exprs} = erl_parse:parse_exprs(Tokens),
    B0 = lists:foldl(fun({K, V}, B) -> erl_eval:add_binding(K, V, B) end, erl_eval:new_bindings(), Bindings),
    {value, V, B1} = erl_eval:exprs(Exprs, B0),
    {V, lists:sort(erl_eval:bindings(B1))}.

value(Src) -> element(1, ev(Src, [])).

%% Errors keep only their reason: the stack traces point into erl_eval.
err(Src, Bindings) ->
    try ev(Src, Bindings) catch C:R:_ -> {C, R} end.

main() ->
    t(multi_clause_guards, fun() ->
        value("F = fun(X) when is_integer(X), X > 0 -> pos;"
              "       (X) when is_integer(X) -> nonpos;"
              "       (X) when is_atom(X); is_list(X) -> name;"
              "       (_) -> other end,"
              "[F(3), F(-2), F(abc), F(\"s\"), F(1.5)].") end),
    t(named_fun_recursion, fun() ->
        value("Fact = fun F(0) -> 1; F(N) when N > 0 -> N * F(N - 1) end,"
              "Fib = fun Fi(N) when N < 2 -> N; Fi(N) -> Fi(N - 1) + Fi(N - 2) end,"
              "{Fact(20), Fact(30), [Fib(I) || I <- lists:seq(0, 15)]}.") end),
    t(closures, fun() ->
        ev("Add = fun(X) -> fun(Y) -> X + Y + Base end end,"
           "Add5 = Add(5), Acc = lists:foldl(fun(E, A) -> [Add5(E) | A] end, [], [1, 2, 3]),"
           "Counter = fun C(0, L) -> L; C(N, L) -> C(N - 1, [N * Base | L]) end,"
           "{Acc, Counter(4, []), (fun() -> Base end)()}.", [{'Base', 100}]) end),
    t(closure_escapes, fun() ->
        {F, _} = ev("fun(X) when X > Limit -> big; (_) -> small end.", [{'Limit', 10}]),
        {F(11), F(10), erlang:fun_info(F, arity)} end),
    t(exprs_with_bindings, fun() ->
        ev("Y = X * 2, {Z, W} = {Y + 1, [X | L]}, case Z of 7 -> seven; _ -> other end.",
           [{'X', 3}, {'L', [a]}]) end),
    t(receive_try_maps, fun() ->
        value("self() ! {msg, 1}, R = receive {msg, N} -> N after 100 -> none end,"
              "T = try throw(oops) catch throw:E -> {caught, E} after ok end,"
              "M = #{a => 1}, M2 = M#{b => 2}, #{a := A} = M2,"
              "B = << <<X:8>> || X <- [1, 2, 3] >>, <<H:4, _/bitstring>> = B,"
              "{R, T, M2, A, B, H, [X || {X, Y} <- [{1, a}, {2, b}, {3, a}], Y =:= a]}.") end),
    t(match_errors, fun() ->
        [err("{A, B} = {1}.", []), err("X = 1, X = 2.", []), err("F = fun(1) -> one end, F(2).", []),
         err("case 3 of 1 -> a end.", []), err("if false -> a end.", []), err("1 + a.", []),
         err("X + 1.", [{'X', foo}]), err("undefined_fun_here(1).", []), err("lists:nope(1).", [])] end),
    t(bindings_api, fun() ->
        B = erl_eval:add_binding('A', 1, erl_eval:new_bindings()),
        B2 = erl_eval:add_binding('B', 2, B),
        {erl_eval:binding('A', B2), erl_eval:binding('C', B2),
         lists:sort(erl_eval:bindings(erl_eval:del_binding('A', B2)))} end),
    t(expr_and_local_handler, fun() ->
        {ok, Ts, _} = erl_scan:string("double(21) + triple(1)."),
        {ok, [E]} = erl_parse:parse_exprs(Ts),
        Local = {value, fun(double, [X]) -> 2 * X; (triple, [X]) -> 3 * X end},
        {value, V, _} = erl_eval:expr(E, erl_eval:new_bindings(), Local),
        V end),
    t(scan_tokens, fun() ->
        {ok, Ts, End} = erl_scan:string("foo(X, \"s\", 'A b', 1.5e3, $c, <<1>>) -> X. % c\n", {1, 1}),
        {[erl_scan:category(T) || T <- Ts], End, erl_scan:string("'unterminated")} end),
    t(scan_text_option, fun() ->
        {ok, Ts, _} = erl_scan:string("a + 16#ff", 1, [text]),
        [{erl_scan:category(T), erl_scan:text(T)} || T <- Ts] end),
    t(parse_and_print_round_trip, fun() ->
        Src = "-module(m).\n"
              "f(X) when X > 0, is_integer(X) -> [Y * 2 || Y <- lists:seq(1, X), Y rem 2 =:= 0];\n"
              "f(#{k := V} = M) -> M#{k => V + 1};\n"
              "f(<<A:8, Rest/binary>>) -> {A, Rest}.\n"
              "g() -> fun F(0) -> ok; F(N) -> F(N - 1) end.\n",
        Forms = forms(Src),
        Printed = lists:flatten([erl_pp:form(F) || F <- Forms]),
        Again = forms(Printed),
        {Printed, strip_anno(Again) =:= strip_anno(Forms)} end),
    t(parse_term, fun() ->
        {ok, Ts, _} = erl_scan:string("{a, [1, 2.5, \"str\"], #{k => <<\"v\">>}, 'Q'}."),
        {ok, T} = erl_parse:parse_term(Ts),
        {ok, Ts2, _} = erl_scan:string(lists:flatten(io_lib:format("~w.", [T]))),
        {T, erl_parse:parse_term(Ts2) =:= {ok, T}} end),
    t(abstract_and_normalise, fun() ->
        A = erl_parse:abstract({x, [1, 2], <<"b">>, #{m => 1}, 2.5, -3}),
        {A, erl_parse:normalise(A)} end),
    t(parse_errors, fun() ->
        {ok, Ts, _} = erl_scan:string("f(X) -> X +."),
        {error, {Loc, Mod, Msg}} = erl_parse:parse_form(Ts),
        {ok, Ts2, _} = erl_scan:string("X = ."),
        {error, E2} = erl_parse:parse_exprs(Ts2),
        {Loc, Mod, lists:flatten(Mod:format_error(Msg)), E2} end),
    t(tokens_continuation, fun() ->
        {more, C} = erl_scan:tokens([], "a + ", 1),
        {done, {ok, Ts, _}, Rest} = erl_scan:tokens(C, "b. c", 1),
        {[erl_scan:category(T) || T <- Ts], Rest} end),
    ok.

forms(Src) ->
    {ok, Ts, _} = erl_scan:string(Src),
    split(Ts, []).

split([], []) -> [];
split([T = {dot, _} | Rest], Acc) ->
    {ok, F} = erl_parse:parse_form(lists:reverse([T | Acc])),
    [F | split(Rest, [])];
split([T | Rest], Acc) -> split(Rest, [T | Acc]).

strip_anno(Forms) -> [erl_parse:map_anno(fun(_) -> 0 end, F) || F <- Forms].
