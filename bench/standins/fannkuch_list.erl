%% Stand-in for the hidden suite's fannkuch (bench/standins/run.sh): fannkuch-redux over lists,
%% N = 10, permutations by rotating prefixes, flips by lists:split and lists:reverse.
-module(fannkuch_list).
-export([main/0]).
main() -> N = 10, {Sum, Max} = run(N), erlang:display({Sum, Max}).

run(N) -> loop(lists:seq(1, N), N, lists:seq(1, N), 0, 0, 0).

loop(Perm, N, Count, I, Sum, Max) ->
    F = flips(Perm, 0),
    Sum1 = case I band 1 of 0 -> Sum + F; 1 -> Sum - F end,
    Max1 = max(Max, F),
    case next(Perm, Count, 2, N) of
        done -> {Sum1, Max1};
        {P2, C2} -> loop(P2, N, C2, I + 1, Sum1, Max1)
    end.

flips([1 | _], F) -> F;
flips([H | _] = L, F) ->
    {A, B} = lists:split(H, L),
    flips(lists:reverse(A, B), F + 1).

%% Rotate the first R elements; Count holds per-position counters.
next(_Perm, _Count, R, N) when R > N -> done;
next(Perm, Count, R, N) ->
    Perm1 = rotate(Perm, R),
    C = lists:nth(R, Count),
    if
        C > 1 -> {Perm1, set(R, C - 1, Count)};
        true -> next(Perm1, set(R, R, Count), R + 1, N)
    end.

rotate([H | T], R) -> {A, B} = lists:split(R - 1, T), A ++ [H | B].
set(1, V, [_ | T]) -> [V | T];
set(I, V, [H | T]) -> [H | set(I - 1, V, T)].
