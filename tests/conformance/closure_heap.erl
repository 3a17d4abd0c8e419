%% Many closures built after one heap check: the loader must reserve a fun's full size
%% (header, code entry, creator) for each `{funs, N}` of a test_heap, or the heap runs into the
%% stack and a return address is overwritten (found by tests/beamvm_only/ns_destroy).
-module(closure_heap).
-export([main/0]).

main() ->
    io:format("~p~n", [[depth(D, 200) || D <- [1, 5, 20, 100]]]),
    io:format("~p~n", [lists:sum([length(funs(I, I + 1)) || I <- lists:seq(1, 2000)])]).

%% Body recursion keeps return addresses on the stack just above the heap top.
depth(0, N) -> loop(N, 0);
depth(D, N) -> 1 + depth(D - 1, N).

loop(0, Acc) -> Acc;
loop(N, Acc) ->
    Fs = funs(N, Acc),
    loop(N - 1, (Acc + lists:sum([F() || F <- Fs])) rem 1000003).

funs(A, B) ->
    [fun() -> A end, fun() -> B end, fun() -> A + B end, fun() -> A * 2 end,
     fun() -> B * 3 end, fun() -> A - B end, fun() -> 7 end, fun() -> A end,
     fun() -> B end, fun() -> A + 1 end, fun() -> B + 1 end, fun() -> A + B + 1 end,
     fun() -> 11 end, fun() -> A * B end, fun() -> B - A end, fun() -> A rem 7 end].
