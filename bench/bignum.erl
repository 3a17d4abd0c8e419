%% Bignum arithmetic: factorial of 20,000 (77,338 digits) and its decimal text, then big
%% multiplications and divisions (the issue asks that these not be quadratic past a few
%% thousand digits), and bignum x small / div small loops.
-module(bignum).
-export([main/0, quick/0]).

fact(N) -> fact(N, 1).
fact(0, Acc) -> Acc;
fact(N, Acc) -> fact(N - 1, Acc * N).

%% A checksum of decimal text: length and a digit-position hash.
text_sum(S) -> {length(S), lists:foldl(fun(C, A) -> (A * 31 + C) band 16#FFFFFFF end, 0, S)}.

%% Products and quotients of numbers of `Digits`-ish size, each checked by its inverse.
mul_div(F, Rounds) ->
    G = F + 12345678901234567890,
    lists:foldl(fun(K, Acc) ->
                        P = (F + K) * (G - K),
                        Q = P div (G - K),
                        R = P rem (F + 3 * K + 1),
                        (Acc + (Q - F) + R rem 1000003) rem 1000000007
                end, 0, lists:seq(1, Rounds)).

%% Decimal printing of a huge number in pieces: repeated div/rem by 10^18.
chunks(0, Acc) -> Acc;
chunks(X, Acc) -> chunks(X div 1000000000000000000, (Acc + X rem 1000000000000000000) rem 1000000007).

run(N, Rounds) ->
    F = fact(N),
    S = integer_to_list(F),
    Back = list_to_integer(S),
    Sq = F * F,
    erlang:display({bignum, N, text_sum(S), Back =:= F, Sq div F =:= F, mul_div(F, Rounds),
                    chunks(F bsr (N * 8), 0), length(integer_to_list(F, 16))}).

main() -> run(20000, 1).
quick() -> run(3000, 2).
