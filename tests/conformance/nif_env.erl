%% Environments and messages through a NIF library (tests/nif/nif_env.c): a term kept in a
%% process-independent environment across calls and processes, enif_make_copy, enif_send from
%% a NIF to itself, to another process and to a dead one, and from a thread the library created.
-module(nif_env).
-export([main/0]).
-export([stash/1, unstash/0, built_elsewhere/1, send_direct/2, send_via_env/2, start_thread/3,
         go/0, join/0, thread_type/0]).

-define(STUB, erlang:nif_error(not_loaded)).
stash(_) -> ?STUB.
unstash() -> ?STUB.
built_elsewhere(_) -> ?STUB.
send_direct(_, _) -> ?STUB.
send_via_env(_, _) -> ?STUB.
start_thread(_, _, _) -> ?STUB.
go() -> ?STUB.
join() -> ?STUB.
thread_type() -> ?STUB.

lib() -> filename:join([filename:dirname(code:which(?MODULE)), "nif", "nif_env"]).

main() ->
    show(load, fun() -> erlang:load_nif(lib(), []) end),
    stashing(),
    sending(),
    threads().

stashing() ->
    Big = {lists:seq(1, 100), <<"a binary">>, list_to_binary(lists:duplicate(300, $q)), 1 bsl 90, 2.5, #{k => [v]}},
    show(unstash_empty, fun unstash/0),
    show(stash, fun() -> stash(Big) end),
    erlang:garbage_collect(),
    show(unstash_same, fun() -> unstash() =:= {ok, Big} end),
    %% Another process reads what this one stored; the storing process is gone by then.
    Pid = spawn(fun() -> stash({from_other, [x, y], <<"other">>}) end),
    wait_down(Pid),
    show(unstash_other, fun() -> Self = self(), spawn(fun() -> Self ! {got, unstash()} end),
                                 receive {got, T} -> T after 10000 -> timeout end end),
    show(built_elsewhere, fun() -> built_elsewhere({"abc", <<1, 2, 3>>}) end),
    show(built_elsewhere_big, fun() -> built_elsewhere(Big) =:= {Big, [built, 1 bsl 62]} end).

sending() ->
    show(send_self, fun() -> {send_direct(self(), {hello, [1, 2]}), flush()} end),
    show(send_self_via_env, fun() -> {send_via_env(self(), <<"payload">>), flush()} end),
    Echo = spawn(fun echo/0),
    show(send_other, fun() ->
        true = send_direct(Echo, {self(), ping, lists:seq(1, 5)}),
        true = send_via_env(Echo, {self(), ping2}),
        [receive {echo, M} -> M after 5000 -> timeout end || _ <- [1, 2]] end),
    Echo ! stop,
    wait_down(Echo),
    show(send_dead, fun() -> {send_direct(Echo, x), send_via_env(Echo, x), flush()} end),
    show(send_not_pid, fun() -> send_direct(not_a_pid, x) end).

threads() ->
    show(thread_type_in_nif, fun thread_type/0),
    show(join_none, fun join/0),
    show(start, fun() -> start_thread(self(), {payload, <<"thread">>, 1 bsl 70}, 5) end),
    show(start_busy, fun() -> start_thread(self(), x, 1) end),
    show(nothing_before_go, fun flush/0),
    show(go, fun go/0),
    show(messages, fun() -> [receive M -> M after 5000 -> timeout end || _ <- lists:seq(1, 5)] end),
    show(join, fun join/0),
    %% A thread whose target is gone: enif_send answers false, nothing is delivered.
    Dead = spawn(fun() -> ok end),
    wait_down(Dead),
    show(start_to_dead, fun() -> start_thread(Dead, x, 3) end),
    show(go_to_dead, fun go/0),
    show(join_to_dead, fun join/0),
    show(nothing_left, fun flush/0).

echo() ->
    receive
        {From, ping, L} -> From ! {echo, {ping, L}}, echo();
        {via_env, {From, ping2}} -> From ! {echo, ping2}, echo();
        stop -> ok
    end.

wait_down(Pid) ->
    Ref = monitor(process, Pid),
    receive {'DOWN', Ref, process, Pid, _} -> ok end.

flush() ->
    receive M -> [M | flush()] after 0 -> [] end.

show(Label, Fun) ->
    Result = try Fun() catch Class:Reason -> {Class, Reason} end,
    io:format("~p: ~p~n", [Label, Result]).
