%% A receive ... after in a process woken by messages and signals that do not match while it
%% waits: a monitored child that spawn_links a short-lived process (issue 8 saw timeout_value
%% here, as if the timeout operand were read again after a wake-up). The timeout is a variable
%% (an x register at the wait) and a literal; each round prints nothing unless it goes wrong,
%% so the output does not depend on timing.
-module(proc_receive_after_wakeups).
-export([main/0]).

main() ->
    Rounds = 300,
    Bad = [R || {T, N} <- [{0, Rounds}, {1, Rounds}, {5, 100}, {50, 20}], _ <- lists:seq(1, N),
                R <- [one_round(T)], R =/= ok],
    io:format("variable timeouts: ~p~n", [lists:usort(Bad)]),
    BadLit = [R || _ <- lists:seq(1, Rounds), R <- [literal_round()], R =/= ok],
    io:format("literal timeout: ~p~n", [lists:usort(BadLit)]).

child(Parent) ->
    spawn_link(fun() -> Parent ! noise, ok end),
    Parent ! {child, self()},
    receive stop -> ok after 1 -> ok end.

one_round(T) ->
    Self = self(),
    {Pid, Ref} = spawn_monitor(fun() -> child(Self) end),
    R1 = try receive never_sent -> never after T -> ok end catch C:E -> {C, E} end,
    R2 = try receive {'DOWN', Ref, process, Pid, normal} -> ok after 5000 -> no_down end
         catch C2:E2 -> {C2, E2} end,
    flush(),
    case {R1, R2} of
        {ok, ok} -> ok;
        Other -> Other
    end.

literal_round() ->
    Self = self(),
    {Pid, Ref} = spawn_monitor(fun() -> child(Self) end),
    R1 = try receive {child, Pid} -> ok after 50 -> ok end catch C:E -> {C, E} end,
    R2 = try receive {'DOWN', Ref, process, Pid, normal} -> ok after 5000 -> no_down end
         catch C2:E2 -> {C2, E2} end,
    flush(),
    case {R1, R2} of
        {ok, ok} -> ok;
        Other -> Other
    end.

flush() -> receive _ -> flush() after 0 -> ok end.
