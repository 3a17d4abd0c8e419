%% Many processes call a module that is not loaded yet at the same moment: one loads it from
%% the code path, the others wait for it (on beamvm: retry in their next time slice), and
%% every call returns.
-module(hot_autoload).
-export([main/0]).

main() ->
    Dir = filename:join(filename:dirname(code:which(?MODULE)), "hot_v2"),
    show(loaded_before, erlang:module_loaded(hc_mod)),
    true = code:add_patha(Dir),
    Parent = self(),
    Go = make_ref(),
    Pids = [spawn(fun() -> receive Go -> Parent ! {self(), hc_mod:version()} end end)
            || _ <- lists:seq(1, 50)],
    [P ! Go || P <- Pids],
    Results = [receive {P, V} -> V after 5000 -> timeout end || P <- Pids],
    show(results, lists:usort(Results)),
    show(count, length(Results)),
    show(loaded_after, erlang:module_loaded(hc_mod)),
    show(which_is_v2, code:which(hc_mod) =:= filename:join(Dir, "hc_mod.beam")),
    true = code:del_path(Dir),
    ok.

show(Label, Value) -> io:format("~p: ~p~n", [Label, Value]).
