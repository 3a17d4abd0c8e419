%% Monitors and demonitors of a process that is waiting in a receive (beamvm applies them at
%% once, without waking it: scheduler/signals.cpp) behave as signals the target took in: the
%% monitored_by list shows them, a DOWN comes for each one still in place when the target
%% exits, none for one removed, and a monitor made after a message to the same target cannot
%% overtake it. Many monitoring processes at once, on every scheduler, and gen_server calls
%% (a monitor and a demonitor each) from many clients to one server.
-module(proc_monitor_idle).
-behaviour(gen_server).
-export([main/0]).
-export([init/1, handle_call/3, handle_cast/2]).

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

waiter() -> receive {stop, R} -> exit(R); {ping, From} -> From ! pong, waiter() end.

%% Waits until T waits in its receive (its state is observable through process_info).
idle(T) ->
    case erlang:process_info(T, status) of
        {status, waiting} -> ok;
        _ -> erlang:yield(), idle(T)
    end.

monitored_by(T) ->
    {monitored_by, L} = erlang:process_info(T, monitored_by),
    lists:sort(L).

%% One monitor from this process to an idle target, then the list, then a demonitor.
one_monitor() ->
    T = spawn(fun waiter/0),
    idle(T),
    M = erlang:monitor(process, T),
    A = monitored_by(T) =:= [self()],
    true = erlang:demonitor(M),
    B = monitored_by(T),
    T ! {stop, bye},
    {A, B}.

%% N processes each monitor an idle target, half of them demonitor again; the target exits
%% and exactly the other half see a DOWN with its reason.
many_monitors(N) ->
    T = spawn(fun waiter/0),
    idle(T),
    Self = self(),
    Ps = [spawn(fun() ->
                        M = erlang:monitor(process, T),
                        Self ! {monitoring, self()},
                        Keep = I rem 2 =:= 0,
                        Keep orelse erlang:demonitor(M, [flush]),
                        Self ! {ready, self()},
                        R = receive {'DOWN', M, process, T, Reason} -> {down, Reason}
                            after 2000 -> none
                            end,
                        Self ! {result, self(), Keep, R}
                end) || I <- lists:seq(1, N)],
    [receive {ready, P} -> ok end || P <- Ps],
    Count = length(monitored_by(T)),
    T ! {stop, gone},
    Results = [receive {result, P, Keep, R} -> {Keep, R} end || P <- Ps],
    [receive {monitoring, P} -> ok end || P <- Ps],
    {Count,
     length([x || {true, {down, gone}} <- Results]),
     length([x || {false, none} <- Results]),
     length(Results)}.

%% A message sent before a monitor is seen first: the target answers the ping before it can
%% be told of the monitor's DOWN (it exits on the next message).
message_then_monitor() ->
    T = spawn(fun waiter/0),
    idle(T),
    T ! {ping, self()},
    M = erlang:monitor(process, T),
    R1 = receive pong -> pong after 2000 -> timeout end,
    T ! {stop, done},
    R2 = receive {'DOWN', M, process, T, Why} -> Why after 2000 -> timeout end,
    {R1, R2}.

%% Monitor and demonitor in a loop on an idle target from several processes at once: the
%% list is empty at the end.
churn(Procs, Rounds) ->
    T = spawn(fun waiter/0),
    idle(T),
    Self = self(),
    Ps = [spawn(fun() ->
                        [erlang:demonitor(erlang:monitor(process, T)) || _ <- lists:seq(1, Rounds)],
                        Self ! {churned, self()}
                end) || _ <- lists:seq(1, Procs)],
    [receive {churned, P} -> ok end || P <- Ps],
    L = monitored_by(T),
    T ! {stop, bye},
    L.

%% Calls to a server (gen_server:call monitors and demonitors the server) from many clients.
calls(Clients, Each) ->
    {ok, S} = gen_server:start(?MODULE, 0, []),
    Self = self(),
    Ps = [spawn(fun() ->
                        Sum = lists:sum([gen_server:call(S, {add, 1}) * 0 + 1 || _ <- lists:seq(1, Each)]),
                        Self ! {called, self(), Sum}
                end) || _ <- lists:seq(1, Clients)],
    Sums = [receive {called, P, Sum} -> Sum end || P <- Ps],
    Total = gen_server:call(S, total),
    Left = length(monitored_by(S)),
    gen_server:stop(S),
    {lists:sum(Sums), Total, Left}.

main() ->
    t(one_monitor, fun one_monitor/0),
    t(many_monitors, fun() -> many_monitors(200) end),
    t(message_then_monitor, fun message_then_monitor/0),
    t(churn, fun() -> churn(8, 2000) end),
    t(calls, fun() -> calls(16, 2000) end).

%% ---- the server of calls/2 ----
init(N) -> {ok, N}.
handle_call({add, K}, _From, N) -> {reply, N + K, N + K};
handle_call(total, _From, N) -> {reply, N, N}.
handle_cast(_, N) -> {noreply, N}.
