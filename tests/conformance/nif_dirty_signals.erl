%% A process in a dirty NIF (tests/nif/dirty_nif_test.c) holds no normal scheduler: a process
%% bound to the same scheduler keeps running while it sleeps 300 ms in a dirty NIF. Signals
%% sent to a process executing dirty wait until it is back: messages, trapped exits and a
%% kill (the NIF's result is then dropped). Prints only facts that hold however long each step
%% takes.
-module(nif_dirty_signals).
-export([main/0]).
-include("nif_dirty_stubs.hrl").

main() ->
    load_dirty_nif(),
    [others_run(F) || F <- [sleep_cpu, sleep_io]],
    executing_dirty(),
    messages(),
    trapped_exit(),
    kill(),
    ok.

%% The sleeper and a ticker are both bound to scheduler 1: the ticker can run only if the
%% sleeper's NIF does not hold that scheduler. At least 3 ticks of 10 ms in 300 ms: erl itself
%% made fewer than 10 on a machine with a load of 12.
others_run(F) ->
    Self = self(),
    Ticker = spawn_opt(fun() -> tick(Self, 0) end, [{scheduler, 1}]),
    Sleeper = spawn_opt(fun() -> Self ! {slept, ?MODULE:F(300)} end, [{scheduler, 1}]),
    Result = receive {slept, R} -> R end,
    Ticker ! stop,
    Ticks = receive {ticks, N} -> N end,
    show({F, result}, Result),
    show({F, ticker_ran_meanwhile}, Ticks >= 3),
    show({F, sleeper}, is_pid(Sleeper)).

tick(Parent, N) ->
    receive stop -> Parent ! {ticks, N}
    after 10 -> tick(Parent, N + 1)
    end.

executing_dirty() ->
    Self = self(),
    P = spawn(fun() -> Self ! {result, sleep_cpu(300)} end),
    show(dirty_seen, wait_dirty(P, 100)),
    show(status_while_dirty, process_info(P, status)),
    receive {result, R} -> show(dirty_result, R) end,
    show(dirty_after, erts_internal:is_process_executing_dirty(self())).

%% Polls until P executes dirty (true), at most N times 5 ms.
wait_dirty(_, 0) -> false;
wait_dirty(P, N) ->
    case erts_internal:is_process_executing_dirty(P) of
        true -> true;
        false -> timer:sleep(5), wait_dirty(P, N - 1)
    end.

%% Messages sent while it sleeps are there when it is back, in order.
messages() ->
    Self = self(),
    P = spawn(fun() ->
                      R = sleep_io(200),
                      Msgs = receive_all(),
                      Self ! {back, R, Msgs}
              end),
    true = wait_dirty(P, 100),
    [P ! {msg, I} || I <- lists:seq(1, 5)],
    receive {back, R, Msgs} -> show(messages, {R, Msgs}) end.

receive_all() ->
    receive M -> [M | receive_all()] after 0 -> [] end.

%% An exit signal to a process trapping exits becomes a message once it is back.
trapped_exit() ->
    Self = self(),
    P = spawn(fun() ->
                      process_flag(trap_exit, true),
                      Self ! ready,
                      R = sleep_cpu(200),
                      receive {'EXIT', From, Why} -> Self ! {trapped, R, From =:= Self, Why} end
              end),
    receive ready -> ok end,
    true = wait_dirty(P, 100),
    exit(P, stop_it),
    receive {trapped, R, FromSelf, Why} -> show(trapped_exit, {R, FromSelf, Why}) end.

%% A kill ends it; the NIF's result goes nowhere.
kill() ->
    Self = self(),
    P = spawn(fun() -> R = sleep_cpu(200), Self ! {not_dropped, R} end),
    Ref = monitor(process, P),
    true = wait_dirty(P, 100),
    exit(P, kill),
    receive {'DOWN', Ref, process, P, Why} -> show(killed, Why) end,
    show(alive_after_kill, is_process_alive(P)),
    receive {not_dropped, R} -> show(result_delivered, R)
    after 400 -> show(result_dropped, true)
    end,
    %% Killed while trapping exits, and linked: the link brings `killed`.
    process_flag(trap_exit, true),
    Q = spawn_link(fun() -> process_flag(trap_exit, true), sleep_io(200) end),
    true = wait_dirty(Q, 100),
    exit(Q, kill),
    receive {'EXIT', Q, Why2} -> show(link_exit, Why2) end,
    process_flag(trap_exit, false).

show(Tag, V) -> io:format("~p: ~p~n", [Tag, V]).
