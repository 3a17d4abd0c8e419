%% Binary patterns whose tail size does not fit in a machine word. erlc writes the size as an
%% unsigned operand of the tail test (bs_test_tail2 with 2^64 bits); the module must load, and
%% the match must fail as on erl. OTP's bs_match_tail_SUITE failed to load on beamvm.
-module(bits_huge_tail).
-export([main/0, id/1]).

id(X) -> X.

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

tail_2_64(<<B:8, _:16#1_0000_0000_0000_0000>>) -> B;
tail_2_64(_) -> no_match.

tail_2_63(<<B:8, _:16#8000_0000_0000_0000>>) -> B;
tail_2_63(_) -> no_match.

tail_2_62(<<B:8, _:16#4000_0000_0000_0000>>) -> B;
tail_2_62(_) -> no_match.

tail_big(<<B:8, _:16#1_0000_0000_0000_0000_0000_0000>>) -> B;
tail_big(_) -> no_match.

only_clause(<<B:8, _:16#1_0000_0000_0000_0000>>) -> B.

main() ->
    Bins = [<<>>, <<42>>, <<42, 0:200>>, <<42, 0:16#1001>>],
    t(tail_2_64, fun() -> [tail_2_64(id(B)) || B <- Bins] end),
    t(tail_2_63, fun() -> [tail_2_63(id(B)) || B <- Bins] end),
    t(tail_2_62, fun() -> [tail_2_62(id(B)) || B <- Bins] end),
    t(tail_big, fun() -> [tail_big(id(B)) || B <- Bins] end),
    t(only_clause, fun() -> only_clause(id(<<0:8, 0:200>>)) end),
    t(not_binary, fun() -> only_clause(id(not_a_binary)) end),
    ok.
