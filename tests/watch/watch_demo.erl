%% Run under beamvm --watch by tests/watch/watch_reload.sh: keeps calling watch_mod:version/0
%% and prints each version it sees with the system time in milliseconds, so the script can
%% tell how long a reload took. A process stays in watch_mod:stuck/0 of the first version.
%% Ends when it sees version 3, or after 8 s.
-module(watch_demo).
-export([main/0]).

main() ->
    spawn(watch_mod, stuck, []),
    V = watch_mod:version(),
    seen(V),
    loop(V, erlang:monotonic_time(millisecond) + 8000).

loop(V, Deadline) ->
    case erlang:monotonic_time(millisecond) > Deadline of
        true -> io:format("timeout~n"), erlang:halt(0);
        false -> ok
    end,
    case watch_mod:version() of
        V -> receive after 5 -> loop(V, Deadline) end;
        3 -> seen(3), erlang:halt(0);
        W -> seen(W), loop(W, Deadline)
    end.

seen(V) -> io:format("version ~p at ~p~n", [V, erlang:system_time(millisecond)]).
