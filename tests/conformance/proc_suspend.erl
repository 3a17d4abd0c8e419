%% erlang:suspend_process/1,2 and resume_process/1: a suspended process runs no code until
%% every suspension is resumed (they nest), the options, the errors, and a suspender's
%% suspensions ending with it.
-module(proc_suspend).
-export([main/0]).

t(Label, F) ->
    R = try F() catch C:E -> {C, E} end,
    io:format("~p: ~p~n", [Label, R]).

echo() ->
    receive
        {ping, From} -> From ! {pong, self()}, echo();
        stop -> ok
    end.

pong(P) -> receive {pong, P} -> pong end.

spinner(N) -> spinner(N + 1).

suspending(P) ->
    {suspending, L} = process_info(self(), suspending),
    [{Pid =:= P, Active, Outstanding} || {Pid, Active, Outstanding} <- L].

main() ->
    P = spawn(fun echo/0),
    t(suspend, fun() -> erlang:suspend_process(P) end),
    t(status, fun() -> process_info(P, status) end),
    P ! {ping, self()},
    t(queued_while_suspended, fun() -> process_info(P, message_queue_len) end),
    t(suspending, fun() -> suspending(P) end),
    t(nested, fun() -> erlang:suspend_process(P, []) end),
    t(suspending_nested, fun() -> suspending(P) end),
    t(unless_suspending, fun() -> erlang:suspend_process(P, [unless_suspending]) end),
    t(resume1, fun() -> erlang:resume_process(P) end),
    t(still_suspended, fun() -> {process_info(P, status), process_info(P, message_queue_len)} end),
    t(resume2, fun() -> erlang:resume_process(P) end),
    t(reply_after_resume, fun() -> pong(P) end),
    t(resume_again, fun() -> erlang:resume_process(P) end),
    t(suspending_none, fun() -> process_info(self(), suspending) end),

    %% A process that never waits stops too: its reductions stand still.
    S = spawn(fun() -> spinner(0) end),
    t(suspend_spinner, fun() -> erlang:suspend_process(S) end),
    R1 = process_info(S, reductions),
    [erlang:yield() || _ <- lists:seq(1, 100)],
    receive after 20 -> ok end,
    t(spinner_still, fun() -> R1 =:= process_info(S, reductions) end),
    t(spinner_status, fun() -> process_info(S, status) end),
    t(kill_suspended, fun() ->
        M = monitor(process, S),
        exit(S, kill),
        receive {'DOWN', M, process, S, Why} -> Why end end),
    t(resume_dead, fun() -> erlang:resume_process(S) end),

    %% Options.
    t(unless_fresh, fun() -> erlang:suspend_process(P, [unless_suspending]) end),
    t(unless_again, fun() -> erlang:suspend_process(P, [unless_suspending]) end),
    t(resume_unless, fun() -> erlang:resume_process(P) end),
    t(async, fun() -> erlang:suspend_process(P, [asynchronous]) end),
    t(async_tag, fun() ->
        true = erlang:suspend_process(P, [{asynchronous, my_tag}]),
        receive {my_tag, State} -> State end end),
    t(async_resumes, fun() -> {erlang:resume_process(P), erlang:resume_process(P)} end),
    P ! {ping, self()},
    t(running_again, fun() -> pong(P) end),

    %% Errors.
    Dead = spawn(fun() -> ok end),
    Mon = monitor(process, Dead),
    receive {'DOWN', Mon, process, Dead, _} -> ok end,
    t(self, fun() -> erlang:suspend_process(self()) end),
    t(self2, fun() -> erlang:suspend_process(self(), []) end),
    t(not_pid, fun() -> erlang:suspend_process(foo) end),
    t(dead, fun() -> erlang:suspend_process(Dead) end),
    t(dead2, fun() -> erlang:suspend_process(Dead, []) end),
    t(dead_async, fun() -> erlang:suspend_process(Dead, [asynchronous]) end),
    t(dead_async_tag, fun() ->
        true = erlang:suspend_process(Dead, [{asynchronous, t2}]),
        receive {t2, State} -> State end end),
    t(bad_option, fun() -> erlang:suspend_process(P, [bogus]) end),
    t(improper_options, fun() -> erlang:suspend_process(P, bogus) end),
    t(resume_self, fun() -> erlang:resume_process(self()) end),
    t(resume_not_suspended, fun() -> erlang:resume_process(P) end),
    t(resume_not_pid, fun() -> erlang:resume_process(foo) end),

    %% A suspender's suspensions end when it exits.
    Self = self(),
    {Mid, MidMon} = spawn_monitor(fun() ->
        true = erlang:suspend_process(P),
        true = erlang:suspend_process(P),
        Self ! suspended
    end),
    receive suspended -> ok end,
    receive {'DOWN', MidMon, process, Mid, _} -> ok end,
    P ! {ping, self()},
    t(released_on_exit, fun() -> pong(P) end),
    P ! stop,
    ok.
