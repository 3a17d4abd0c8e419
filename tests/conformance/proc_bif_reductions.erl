%% Long conversion BIFs cost reductions in proportion to their work, as on OTP where they trap:
%% a process that calls them in a loop is scheduled out and its neighbours run.
-module(proc_bif_reductions).
-export([main/0, spin/2]).

main() ->
    Big = lists:duplicate(1000000, 2000000),
    Bin = term_to_binary(Big),
    Bytes = binary:copy(<<"x">>, 1000000),
    Str = binary_to_list(Bytes),
    [report(Name, F) || {Name, F} <- [{term_to_binary, fun() -> term_to_binary(Big) end},
                                     {binary_to_term, fun() -> binary_to_term(Bin) end},
                                     {binary_to_list, fun() -> binary_to_list(Bytes) end},
                                     {list_to_binary, fun() -> list_to_binary(Str) end},
                                     {bitstring_to_list, fun() -> bitstring_to_list(Bytes) end},
                                     {list_to_bitstring, fun() -> list_to_bitstring(Str) end}]],
    %% A busy neighbour on the same scheduler does not hold up a message for long.
    Self = self(),
    Pid = spawn(?MODULE, spin, [Bin, Self]),
    receive {started, Pid} -> io:format("neighbour started~n") end,
    exit(Pid, kill),
    ok.

report(Name, F) ->
    erlang:yield(),  % a fresh slice: the charge is capped at what is left of it
    {reductions, R0} = process_info(self(), reductions),
    _ = F(),
    {reductions, R1} = process_info(self(), reductions),
    io:format("~p costs more than 1000 reductions: ~p~n", [Name, R1 - R0 > 1000]).

spin(Bin, Parent) ->
    Parent ! {started, self()},
    spin_loop(Bin, 10000).

spin_loop(_, 0) -> ok;
spin_loop(Bin, N) -> _ = binary_to_term(Bin), spin_loop(Bin, N - 1).
