%% persistent_term:get/0 over 20,000 terms, called in a loop by 20 processes, as OTP's
%% persistent_term_SUITE:killed_while_trapping does: each call must use up reductions in
%% proportion to the table (erts traps through it), so that the caller yields and the
%% killer gets a scheduler. Before, the loops kept the schedulers for seconds per slice and
%% killing them took 27 s. The bound below (5 s, for what takes milliseconds on erl) only
%% catches a VM that stops preempting the loops.
-module(persistent_term_get_all_busy).
-export([main/0]).

main() ->
    N = 20000,
    [ok = persistent_term:put({?MODULE, I}, I) || I <- lists:seq(1, N)],
    io:format("entries: ~p~n", [length([K || {{?MODULE, _} = K, _} <- persistent_term:get()])]),
    T0 = erlang:monotonic_time(millisecond),
    Getters = [spawn(fun Loop() -> _ = persistent_term:get(), Loop() end) || _ <- lists:seq(1, 20)],
    erlang:yield(),
    Refs = [monitor(process, P) || P <- Getters],
    [exit(P, kill) || P <- Getters],
    Reasons = [receive {'DOWN', R, process, _, Why} -> Why end || R <- Refs],
    Took = erlang:monotonic_time(millisecond) - T0,
    io:format("getters killed: ~p~n", [lists:usort(Reasons)]),
    io:format("within 5 s: ~p~n", [Took < 5000]),
    {Reds0, _} = {element(2, process_info(self(), reductions)), persistent_term:get()},
    Reds1 = element(2, process_info(self(), reductions)),
    io:format("a call charges at least 1,000 reductions: ~p~n", [Reds1 - Reds0 >= 1000]),
    [true = persistent_term:erase({?MODULE, I}) || I <- lists:seq(1, N)],
    ok.
