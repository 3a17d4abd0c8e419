%% Allocates about 10 GB over the run while keeping a live set of a few MB: the process heap
%% must stay bounded (tools/stress.sh reports the peak RSS next to erl's).
-module(gc_10gb).
-export([main/0, main/1]).

main() -> main(["700"]).

%% -run gc_10gb main Rounds: 700 rounds allocate about 13 GB.
main([Rounds]) ->
    Live = lists:seq(1, 100000),                 % ~1.6 MB kept alive throughout
    Total = churn(list_to_integer(Rounds), Live, 0),
    erlang:display({done, Total, length(Live)}).

%% Each round builds and drops about 14 MB (a 300,000-element list of 3-tuples plus the sum).
churn(0, _Live, Acc) -> Acc;
churn(N, Live, Acc) ->
    L = [{I, I * 2, N} || I <- lists:seq(1, 300000)],
    S = lists:foldl(fun({A, B, _}, S0) -> S0 + A + B end, 0, L),
    churn(N - 1, Live, Acc + S rem 1000 + hd(Live)).
