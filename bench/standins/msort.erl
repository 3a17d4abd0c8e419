%% Stand-in for the hidden suite's list sorting (bench/standins/run.sh).
-module(msort).
-export([main/0]).
%% A hand-written merge sort and lists:sort over random-ish integers and tuples.
main() ->
    L = [(I * 7919) rem 100003 || I <- lists:seq(1, 200000)],
    T = [{X rem 97, X} || X <- L],
    R = [{lists:sum(lists:sublist(ms(L), 100)), hd(lists:sort(T)), lists:last(lists:usort(L))} || _ <- lists:seq(1, 5)],
    erlang:display(hd(R)).
ms([]) -> []; ms([X]) -> [X];
ms(L) -> {A, B} = lists:split(length(L) div 2, L), merge(ms(A), ms(B)).
merge([], B) -> B; merge(A, []) -> A;
merge([X | A], [Y | _] = B) when X =< Y -> [X | merge(A, B)];
merge(A, [Y | B]) -> [Y | merge(A, B)].
