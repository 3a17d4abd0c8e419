%% erlang:system_flag(multi_scheduling, block | unblock): blocks are counted per process,
%% system_info(multi_scheduling) and its blockers follow them, schedulers_online keeps
%% reporting the number before the block, and a blocking process that exits releases its
%% blocks. Work still gets done while blocked.
-module(sched_multi_block).
-export([main/0]).

main() ->
    Online = erlang:system_info(schedulers_online),
    io:format("~p~n", [[erlang:system_flag(multi_scheduling, block),
                        erlang:system_info(multi_scheduling),
                        erlang:system_info(multi_scheduling_blockers) =:= [self()],
                        erlang:system_info(schedulers_online) =:= Online,
                        erlang:system_flag(multi_scheduling, block_normal),
                        erlang:system_flag(multi_scheduling, unblock),
                        erlang:system_info(multi_scheduling),
                        erlang:system_flag(multi_scheduling, unblock_normal),
                        erlang:system_info(multi_scheduling),
                        erlang:system_flag(multi_scheduling, unblock),
                        erlang:system_info(multi_scheduling_blockers)]]),
    Self = self(),
    P = spawn(fun() ->
                      blocked = erlang:system_flag(multi_scheduling, block),
                      Self ! blocked,
                      receive _ -> ok end
              end),
    receive blocked -> ok end,
    io:format("other blocks: ~p ~p~n", [erlang:system_info(multi_scheduling),
                                        erlang:system_info(multi_scheduling_blockers) =:= [P]]),
    io:format("unblock by non-blocker: ~p~n", [erlang:system_flag(multi_scheduling, unblock)]),
    Workers = [spawn_monitor(fun() -> exit(lists:sum(lists:seq(1, 100000))) end) || _ <- [1, 2, 3, 4]],
    io:format("work while blocked: ~p~n",
              [[receive {'DOWN', R, process, _, S} -> S end || {_, R} <- Workers]]),
    Ref = monitor(process, P),
    exit(P, kill),
    receive {'DOWN', Ref, process, P, _} -> ok end,
    io:format("after the blocker's exit: ~p ~p~n", [erlang:system_info(multi_scheduling),
                                                   erlang:system_info(multi_scheduling_blockers)]),
    io:format("bad: ~p~n", [catch erlang:system_flag(multi_scheduling, foo)]),
    ok.
