%% NIF call overhead (issue 24): a loop of N calls of a trivial NIF (bench/nif/nif_call.c,
%% built by bench/nif_run.sh beside this module's .beam). run(add, N) calls add(I, Acc), whose
%% result feeds the next call; run(noop, N) calls noop(). The time covers the loop only.
%% Rate: millions of NIF calls per second. The check line is the same on every VM.
-module(nif_call).
-export([run/2, noop/0, add/2]).

noop() -> erlang:nif_error(not_loaded).
add(_, _) -> erlang:nif_error(not_loaded).

run(Kind, N) ->
    ok = erlang:load_nif(filename:join(filename:dirname(code:which(?MODULE)), "nif_call"), 0),
    T0 = erlang:monotonic_time(microsecond),
    Result = case Kind of
                 add -> add_loop(N, 0);
                 noop -> noop_loop(N)
             end,
    T1 = erlang:monotonic_time(microsecond),
    io:format("check nif_call ~p calls ~p result ~p~n", [Kind, N, Result]),
    io:format("rate ~.3f Mcall/s~n", [N / max(1, T1 - T0)]).

add_loop(0, Acc) -> Acc;
add_loop(I, Acc) -> add_loop(I - 1, add(I band 1023, Acc)).

noop_loop(0) -> ok;
noop_loop(I) -> ok = noop(), noop_loop(I - 1).
