%% erlang:garbage_collect/1,2 on the caller, on another process and on a dead one, with the
%% options of OTP 25 ({async, ReqId}, {type, major | minor}) and bad ones; the answers of the
%% asynchronous form arrive as {garbage_collect, ReqId, Result} (AtomVM corpus: test_make_fun3).
-module(bif_gc_requests).
-export([main/0]).

main() ->
    Live = spawn(fun() -> receive stop -> ok end end),
    {Dead, Ref} = spawn_monitor(fun() -> ok end),
    receive {'DOWN', Ref, process, Dead, _} -> ok end,
    Targets = [{self, self()}, {live, Live}, {dead, Dead}],
    [show({Name, gc1}, fun() -> erlang:garbage_collect(P) end) || {Name, P} <- Targets],
    show(not_a_pid, fun() -> erlang:garbage_collect(x) end),
    Opts = [[], [{type, minor}], [{type, major}], [{async, req}], [{async, r2}, {type, minor}],
            [bad], [{type, bad}], x],
    [show({Name, O}, fun() -> erlang:garbage_collect(P, O) end) || {Name, P} <- Targets, O <- Opts],
    Replies = lists:sort([receive {garbage_collect, _, _} = M -> M after 1000 -> none end
                          || _ <- lists:seq(1, 6)]),
    io:format("replies: ~p~n", [Replies]),
    show(internal_major, fun() -> erts_internal:garbage_collect(major) end),
    show(internal_bad, fun() -> erts_internal:garbage_collect(bad) end),
    Live ! stop,
    ok.

show(Label, F) ->
    R = try F() of V -> {ok, V}
        catch C:E:St ->
            [{M, Fn, A, Loc} | _] = St,
            {C, E, M, Fn, length(A), proplists:get_value(error_info, Loc)}
        end,
    io:format("~p: ~p~n", [Label, R]).
