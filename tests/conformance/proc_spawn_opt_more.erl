%% spawn_opt/2,4: the {scheduler, N} option (the process runs on scheduler N; 0 is any) and
%% the error_info of bad options (cause badopt for every kind, as erl).
-module(proc_spawn_opt_more).
-export([main/0, report/1]).

t(Label, F) ->
    R = try F() catch error:E:S -> {error, E, element(4, hd(S))} end,
    io:format("~p: ~p~n", [Label, R]).

report(Parent) -> Parent ! {self(), erlang:system_info(scheduler_id)}.

main() ->
    N = erlang:system_info(schedulers),
    Self = self(),
    t(bound, fun() ->
        lists:usort([begin
             P = spawn_opt(?MODULE, report, [Self], [{scheduler, S}]),
             receive {P, Id} -> S =:= 0 orelse Id =:= S end
         end || S <- lists:seq(0, N)]) end),
    t(bound_fun, fun() ->
        P = spawn_opt(fun() -> report(Self) end, [{scheduler, N}, link]),
        receive {P, Id} -> Id =:= N end end),
    F = fun() -> ok end,
    [t({bad, L}, fun() -> spawn_opt(F, O) end)
     || {L, O} <- [{past_last, [{scheduler, N + 1}]}, {negative, [{scheduler, -1}]},
                   {atom, [{scheduler, a}]}, {not_list, foo}, {unknown, [foo]},
                   {priority, [{priority, x}]}, {improper, [link | foo]},
                   {min_heap, [{min_heap_size, -1}]}]],
    t(not_fun_first, fun() -> spawn_opt(x, [bad]) end),
    t(fun_arity_later, fun() -> spawn_opt(fun(_) -> ok end, [bad]) end),
    t(not_fun_good_opts, fun() -> spawn_opt(x, [link]) end),
    t(mfa_options_first, fun() -> spawn_opt(1, f, x, [bad]) end),
    t(bad4, fun() -> try spawn_opt(erlang, node, [], [{scheduler, N + 1}])
                     catch error:E:S -> {E, element(4, hd(S))} end end).
