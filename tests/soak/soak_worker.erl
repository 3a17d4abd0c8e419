%% The loop every soak workload runs in: Step(State) again and again until the coordinator
%% asks it to stop, then the final state goes back as {soak_result, Name, Stats, Errors}.
%% A step is a small bounded unit of work (a batch of processes, a table, a port), so a stop
%% is seen within a fraction of a second. Errors are kept as the first few descriptive terms.
-module(soak_worker).
-export([start/3, stop_all/1, new/0, error/2, count/3]).

-define(MAX_ERRORS, 5).

start(Name, Init, Step) ->
    spawn_link(fun() -> loop(Name, Step, Init(), 0) end).

loop(Name, Step, State, Steps) ->
    receive
        {soak_stop, From} ->
            {Stats, Errors} = finish(State),
            From ! {soak_result, Name, [{steps, Steps} | Stats], Errors}
    after 0 ->
        loop(Name, Step, Step(State), Steps + 1)
    end.

%% A workload's state is a map; `stats` and `errors` are what the report shows.
finish(#{stats := Stats, errors := {N, Errors}}) ->
    {lists:sort(maps:to_list(Stats#{errors => N})), lists:reverse(Errors)}.

new() -> #{stats => #{}, errors => {0, []}}.

%% Add By to the statistic Key.
count(Key, By, #{stats := St} = S) -> S#{stats := maps:update_with(Key, fun(V) -> V + By end, By, St)}.

%% Record an error (bounded): error(Term, State).
error(Term, #{errors := {N, Es}} = S) when N < ?MAX_ERRORS -> S#{errors := {N + 1, [Term | Es]}};
error(_, #{errors := {N, Es}} = S) -> S#{errors := {N + 1, Es}}.

%% Stop the workers one at a time, in the order given, and collect their results. A worker
%% that serves others comes after them (the TCP acceptor after its clients): stopped together,
%% the acceptor could end, and its listener close, while a client's last connection waited in
%% the backlog (the client then read `closed`).
stop_all(Pids) ->
    [begin
         P ! {soak_stop, self()},
         receive {soak_result, Name, Stats, Errors} -> {Name, Stats, Errors}
         after 60000 -> {Name, [], [{no_result_within, 60, s}]}
         end
     end || {Name, P} <- Pids].
