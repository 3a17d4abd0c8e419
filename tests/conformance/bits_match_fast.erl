%% The bit-syntax matching fast paths (issue 11): integers of every literal size 1..64, big and
%% little endian, signed and unsigned, at every bit alignment and right at the end of the
%% binary; binaries of literal and register sizes (around the 64-byte heap-binary limit, at
%% unaligned positions), skips, tails, tail and unit tests, strings, positions (clause heads
%% that fall through to the next clause), start_match on every kind of bitstring and on
%% non-binaries, and the errors a failed match raises.
-module(bits_match_fast).
-export([main/0, id/1]).

id(X) -> X.

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

%% One matcher per flag combination for a literal size N; O is a run-time skip, so every
%% alignment is reached.
-define(INT(N),
        {N, [{big_unsigned, fun(B, O) -> case B of <<_:O, X:N, R/bits>> -> {X, bit_size(R)}; _ -> no end end},
             {little_unsigned, fun(B, O) -> case B of <<_:O, X:N/little, R/bits>> -> {X, bit_size(R)}; _ -> no end end},
             {big_signed, fun(B, O) -> case B of <<_:O, X:N/signed, R/bits>> -> {X, bit_size(R)}; _ -> no end end},
             {little_signed, fun(B, O) -> case B of <<_:O, X:N/little-signed, R/bits>> -> {X, bit_size(R)}; _ -> no end end},
             {native_unsigned, fun(B, O) -> case B of <<_:O, X:N/native, R/bits>> -> {X, bit_size(R)}; _ -> no end end}]}).

int_matchers() ->
    [?INT(1), ?INT(2), ?INT(3), ?INT(4), ?INT(5), ?INT(6), ?INT(7), ?INT(8),
     ?INT(9), ?INT(10), ?INT(11), ?INT(12), ?INT(13), ?INT(14), ?INT(15), ?INT(16),
     ?INT(17), ?INT(18), ?INT(19), ?INT(20), ?INT(21), ?INT(22), ?INT(23), ?INT(24),
     ?INT(25), ?INT(26), ?INT(27), ?INT(28), ?INT(29), ?INT(30), ?INT(31), ?INT(32),
     ?INT(33), ?INT(34), ?INT(35), ?INT(36), ?INT(37), ?INT(38), ?INT(39), ?INT(40),
     ?INT(41), ?INT(42), ?INT(43), ?INT(44), ?INT(45), ?INT(46), ?INT(47), ?INT(48),
     ?INT(49), ?INT(50), ?INT(51), ?INT(52), ?INT(53), ?INT(54), ?INT(55), ?INT(56),
     ?INT(57), ?INT(58), ?INT(59), ?INT(60), ?INT(61), ?INT(62), ?INT(63), ?INT(64)].

%% Bit patterns: all ones, all zeros, alternating, and a fixed pseudo-random run.
patterns() ->
    [binary:copy(<<255>>, 10), binary:copy(<<0>>, 10), binary:copy(<<16#a5>>, 10),
     <<16#8d, 16#13, 16#f0, 16#7e, 16#01, 16#c4, 16#59, 16#b2, 16#e6, 16#3a>>].

ints() ->
    lists:foreach(
      fun({N, Fs}) ->
              lists:foreach(
                fun({Kind, F}) ->
                        Res = [[F(P, O) || O <- lists:seq(0, 9)] ++
                                   %% right at the end: fits exactly, then one bit short
                                   [F(P, bit_size(P) - N), F(P, bit_size(P) - N + 1)]
                               || P <- patterns()],
                        erlang:display({int, N, Kind, Res})
                end, Fs)
      end, int_matchers()).

%% The same on a sub-binary that starts at an odd bit offset (start_match of a SubBin).
ints_in_sub() ->
    <<_:3, Sub:70/bits, _/bits>> = id(<<16#8d, 16#13, 16#f0, 16#7e, 16#01, 16#c4, 16#59, 16#b2, 16#e6, 16#3a>>),
    lists:foreach(
      fun({N, Fs}) ->
              erlang:display({sub, N, [[F(Sub, O) || O <- [0, 1, 5, 70 - N, 71 - N]] || {_, F} <- Fs]})
      end, [M || {N, _} = M <- int_matchers(), N rem 7 =:= 1 orelse N >= 59]).

%% Integers whose size is in a register (any size, bignums past 64 bits, bad sizes fail).
var_ints() ->
    Fs = [{big, fun(B, O, S) -> case B of <<_:O, X:S, R/bits>> -> {X, bit_size(R)}; _ -> no end end},
          {little_signed, fun(B, O, S) -> case B of <<_:O, X:S/little-signed, R/bits>> -> {X, bit_size(R)}; _ -> no end end},
          {signed, fun(B, O, S) -> case B of <<_:O, X:S/signed, R/bits>> -> {X, bit_size(R)}; _ -> no end end},
          {little, fun(B, O, S) -> case B of <<_:O, X:S/little, R/bits>> -> {X, bit_size(R)}; _ -> no end end},
          {unit8, fun(B, O, S) -> case B of <<_:O, X:S/unit:8, R/bits>> -> {X, bit_size(R)}; _ -> no end end}],
    P = id(<<16#8d, 16#13, 16#f0, 16#7e, 16#01, 16#c4, 16#59, 16#b2, 16#e6, 16#3a, 16#ff, 16#00, 16#80>>),
    lists:foreach(
      fun({Kind, F}) ->
              erlang:display({var_int, Kind, [{S, [F(P, O, S) || O <- [0, 3, 8, 9]]}
                                              || S <- [0, 1, 5, 8, 13, 16, 31, 32, 33, 59, 60, 61, 63, 64, 65,
                                                       100, 101, 104, 105, -1, foo, 1.5]]})
      end, Fs).

%% Floats of 32 and 64 bits, both byte orders, at every alignment; NaN, infinities and 16-bit
%% floats fail or take the general path.
floats() ->
    F32 = fun(B, O) -> case B of <<_:O, X:32/float, R/bits>> -> {X, bit_size(R)}; _ -> no end end,
    F32L = fun(B, O) -> case B of <<_:O, X:32/float-little, R/bits>> -> {X, bit_size(R)}; _ -> no end end,
    F64 = fun(B, O) -> case B of <<_:O, X:64/float, R/bits>> -> {X, bit_size(R)}; _ -> no end end,
    F64N = fun(B, O) -> case B of <<_:O, X:64/float-native, R/bits>> -> {X, bit_size(R)}; _ -> no end end,
    F16 = fun(B, O) -> case B of <<_:O, X:16/float, R/bits>> -> {X, bit_size(R)}; _ -> no end end,
    Bins = [<<1.5:64/float, 0.1:64/float>>, <<(-2.25):32/float, 1.0e30:32/float-little, 7:8>>,
            <<16#7ff0000000000000:64, 16#fff8000000000000:64>>,  % inf, NaN
            <<16#7f800000:32, 16#7fc00000:32, 16#ff800000:32>>,   % float32 inf, NaN, -inf
            <<16#3c00:16, 16#7c00:16, 1:3>>,                     % 1.0, inf as float16
            <<1, 2, 3>>],
    lists:foreach(
      fun(B) ->
              erlang:display({float, B, [[F(B, O) || O <- [0, 1, 7, 8, 32, 33]] || F <- [F32, F32L, F64, F64N, F16]]})
      end, Bins),
    %% a float per iteration with no room left: the GC or a heap fragment takes it
    erlang:display({float_sum, float_sum(list_to_binary([<<(I * 0.5):64/float>> || I <- lists:seq(1, 2000)]), 0.0)}).

float_sum(<<X:64/float, R/binary>>, Acc) -> float_sum(R, Acc + X);
float_sum(<<>>, Acc) -> Acc.

%% UTF-8: ASCII, multi-byte, at odd offsets, malformed and truncated sequences.
utf8() ->
    G = fun(B, O) ->
                case B of
                    <<_:O, C/utf8, R/bits>> -> {C, bit_size(R)};
                    _ -> no
                end
        end,
    S = fun(B, O) ->
                case B of
                    <<_:O, _/utf8, R/bits>> -> bit_size(R);
                    _ -> no
                end
        end,
    Bins = [<<"a">>, <<"é"/utf8>>, <<"€x"/utf8>>, <<16#1F600/utf8>>, <<1:1, "abc">>, <<2:3, "é"/utf8, 0:5>>,
            <<16#80>>, <<16#C3>>, <<16#E2, 16#82>>, <<16#ED, 16#A0, 16#80>>, <<16#F4, 16#90, 16#80, 16#80>>,
            <<16#C0, 16#80>>, <<>>, <<1:7>>],
    lists:foreach(fun(B) -> erlang:display({utf8, B, [G(B, O) || O <- [0, 1, 3, 8]], [S(B, O) || O <- [0, 1, 8]]}) end, Bins),
    erlang:display({utf8_loop, utf8_count(id(<<"héllo wörld €€ 😀 end"/utf8>>), 0)}).

utf8_count(<<_/utf8, R/binary>>, N) -> utf8_count(R, N + 1);
utf8_count(<<>>, N) -> N;
utf8_count(Bad, N) -> {bad, Bad, N}.

%% Clause heads: each clause tries a layout; failure moves to the next one (bs_set_position).
decode(<<1:8, A:16, B:32/little, C:8/signed>>) -> {one, A, B, C};
decode(<<1:8, A:16, Rest/binary>>) -> {one_rest, A, Rest};
decode(<<2:4, A:12, B:3, C:13/little, D/bits>>) -> {two, A, B, C, D};
decode(<<3:8, Len:8, Body:Len/binary, Rest/bits>>) -> {three, Body, Rest};
decode(<<4:8, Len:8, _:Len/unit:8, X:8>>) -> {four, X};
decode(<<"GET ", Path/binary>>) -> {get, Path};
decode(<<5:8, X:64/signed, Y:64, Z:60/little-signed>>) -> {five, X, Y, Z};
decode(<<>>) -> empty;
decode(B) when is_bitstring(B) -> {other, B}.

heads() ->
    Cases = [<<1, 0, 7, 1, 0, 0, 0, 255>>, <<1, 0, 7, 1, 0, 0, 0>>, <<1, 0>>, <<1>>,
             <<2:4, 4095:12, 5:3, 1234:13/little, 1:1>>, <<2:4, 1:12, 5:3, 8191:13/little>>,
             <<2:4, 1:12, 5:3, 8191:12>>,
             <<3, 2, "ab", "rest">>, <<3, 5, "ab">>, <<3, 0>>, <<3, 1, 9, 1:3>>,
             <<4, 3, "abc", 42>>, <<4, 3, "abc">>, <<4, 3, "abc", 42, 43>>, <<4, 255, 1>>,
             <<"GET /index.html">>, <<"GET ">>, <<"GET">>, <<"GXT /">>, <<"GET /", 1:1>>,
             <<5, -1:64/signed, -1:64, -1:60/little-signed>>,
             <<5, (-16#8000000000000000):64/signed, 16#8000000000000000:64, (-16#800000000000000):60/little-signed>>,
             <<5, 16#7fffffffffffffff:64, 16#0fffffffffffffff:64, 16#7ffffffffffffff:60/little>>,
             <<5, 16#07ffffffffffffff:64, 16#07ffffffffffffff:64, (-16#400000000000000):60/little-signed>>,
             <<5, 1:64, 2:64, 3:59/little>>,
             <<>>, <<1:1>>, <<9, 9, 9>>],
    lists:foreach(fun(B) -> erlang:display({head, B, decode(id(B))}) end, Cases).

%% Binaries of a literal size in bytes and bits, across the heap-binary limit, aligned and not.
binaries() ->
    Big = list_to_binary(lists:seq(0, 199)),
    lists:foreach(
      fun(Off) ->
              <<_:Off, A:1/binary, B:63/binary, C:64/binary, D:65/binary, E/bits>> = id(Big),
              <<_:Off, F:3/bits, G:100/bits, H:0/binary, _/bits>> = id(Big),
              erlang:display({bin, Off, A, byte_size(B), binary:last(B), C, binary:first(D), bit_size(E),
                              F, G, H,
                              [binary:referenced_byte_size(X) || X <- [A, B, C, D]]})
      end, [0, 1, 7, 8, 9, 15]),
    %% register sizes, with units
    lists:foreach(
      fun({S, U}) ->
              R = case id(Big) of
                      <<_:5, X:S/binary-unit:8, _/bits>> when U =:= 8 -> {ok8, X};
                      <<_:5, X:S/bits, _/bits>> when U =:= 1 -> {ok1, X};
                      _ -> no
                  end,
              erlang:display({bin_var, S, U, R})
      end, [{0, 8}, {1, 8}, {64, 8}, {65, 8}, {199, 8}, {200, 8}, {-1, 8}, {foo, 8}, {1.0, 8},
            {0, 1}, {13, 1}, {1595, 1}, {1596, 1}, {-3, 1}, {16#fffffffffffffffff, 8}]),
    %% all of the rest, which must be whole bytes for /binary
    lists:foreach(
      fun(Off) ->
              R = case id(Big) of
                      <<_:Off, X/binary>> -> {binary, byte_size(X)};
                      <<_:Off, X/bits>> -> {bits, bit_size(X)}
                  end,
              erlang:display({bin_all, Off, R})
      end, [0, 3, 8, 1599, 1600]).

skips() ->
    B = id(<<1, 2, 3, 4, 5, 6, 7, 8, 9>>),
    F = fun(S) ->
                case B of
                    <<_:S, X:8, _:2/binary, Y:4, _:4, Rest/bits>> -> {S, X, Y, Rest};
                    _ -> {S, no}
                end
        end,
    erlang:display({skip, [F(S) || S <- [0, 1, 7, 8, 40, 41, 48, 49, 72, -1, foo]]}),
    Skip = fun(<<_:3/binary, _:5, R/bits>>) -> R; (_) -> no end,
    erlang:display({skip_lit, [Skip(id(X)) || X <- [<<1, 2, 3, 255>>, <<1, 2, 3, 1:5>>, <<1, 2, 3, 1:4>>, <<>>]]}).

%% Loops over a binary: the compiler keeps the match context across calls.
sum16(<<V:16/signed-little, Rest/binary>>, Acc) -> sum16(Rest, Acc + V);
sum16(<<>>, Acc) -> Acc;
sum16(<<_:8>>, Acc) -> {odd, Acc}.

chunks(<<N:8, Rest0/binary>>, Acc) ->
    case Rest0 of
        <<_:N/binary, Rest/binary>> -> chunks(Rest, [N | Acc]);
        _ -> {short, lists:reverse(Acc), Rest0}
    end;
chunks(<<>>, Acc) -> lists:reverse(Acc).

bits_loop(<<B:1, R/bits>>, Acc) -> bits_loop(R, Acc * 2 + B);
bits_loop(<<>>, Acc) -> Acc.

loops() ->
    erlang:display({sum16, [sum16(id(B), 0) || B <- [<<>>, <<1, 0, 255, 255, 0, 128>>, <<1, 2, 3>>]]}),
    erlang:display({sum16_long, sum16(list_to_binary([<<I:16/little>> || I <- lists:seq(1, 3000)]), 0)}),
    erlang:display({chunks, [chunks(id(B), []) || B <- [<<>>, <<2, 1, 2, 0, 3, 7, 7, 7>>, <<3, 1, 2>>]]}),
    erlang:display({bits_loop, bits_loop(id(<<16#abcdef:24, 5:3>>), 0)}),
    %% GC between the steps of a match loop: the context and its positions must survive.
    erlang:display({gc_loop, gc_loop(id(list_to_binary(lists:seq(1, 40))), [])}).

gc_loop(<<A:8, B:3/binary, Rest/binary>>, Acc) ->
    _ = lists:seq(1, 50),
    erlang:garbage_collect(),
    gc_loop(Rest, [{A, B} | Acc]);
gc_loop(Rest, Acc) -> {lists:reverse(Acc), Rest}.

%% A guard on the tail, then the same context passed on (the compiler hands the match context
%% itself to a function that accepts one): taking the tail must not move the position.
tail_then_ctx(<<$\\, R/binary>>) when byte_size(R) > 0 -> digits(R);
tail_then_ctx(<<X:3, R/bits>>) when bit_size(R) > 4 -> {X, digits(R)};
tail_then_ctx(_) -> other.

digits(<<X, R/binary>>) when X >= $0, X =< $9 -> {F, Rest} = digits(R), {[X | F], Rest};
digits(B) -> {[], B}.

%% Tail and unit tests, and tails taken at every alignment.
tails() ->
    T = fun(B) ->
                case B of
                    <<X:8>> -> {one, X};
                    <<X:8, _:0>> -> {never, X};
                    <<_:3, R/bits>> when bit_size(R) rem 8 =:= 0 -> {unit8, R};
                    <<_:16, R/binary>> -> {tail16, R};
                    _ -> no
                end
        end,
    erlang:display({tails, [T(id(B)) || B <- [<<1>>, <<1:11>>, <<1, 2, 3>>, <<1, 2:13>>, <<>>, <<1:2>>]]}),
    G = fun(Off) -> <<_:Off, R/bits>> = id(<<16#12345678:32, 3:3>>), R end,
    erlang:display({tail_at, [G(O) || O <- lists:seq(0, 35)]}),
    erlang:display({tail_then_ctx, [tail_then_ctx(id(B)) || B <- [<<"\\12a">>, <<"\\">>, <<"\\x">>, <<1:3, "42">>, <<1:3, "4">>, <<1:3>>]]}).

%% start_match on every kind of term, and the errors of failed matches.
starts() ->
    Heap = <<1, 2, 3>>,
    Refc = binary:copy(<<7>>, 100),
    <<_:4, Sub:20/bits, _/bits>> = id(Heap),
    <<_:8, Sub2:99/binary>> = id(Refc),
    M = fun(<<A:4, B:4, _/bits>>) -> {A, B}; (X) -> {nomatch, X} end,
    erlang:display({starts, [M(id(X)) || X <- [Heap, Refc, Sub, Sub2, <<>>, <<1:3>>, atom, 42, [1], {<<1>>}]]}),
    t(badmatch_short, fun() -> <<X:16>> = id(<<1>>), X end),
    t(badmatch_not_bin, fun() -> <<X:16>> = id(foo), X end),
    t(badmatch_tail, fun() -> <<_:8, X:8>> = id(<<1, 2, 3>>), X end),
    t(badmatch_size, fun() -> S = id(-8), <<X:S>> = id(<<1>>), X end),
    t(function_clause, fun() -> only_short(id(<<1, 2>>)) end),
    t(function_clause_atom, fun() -> only_short(id(a)) end),
    t(case_clause, fun() -> case id(<<1:7>>) of <<X:8>> -> X end end).

only_short(<<X:8>>) -> X.

main() ->
    ints(),
    ints_in_sub(),
    var_ints(),
    floats(),
    utf8(),
    heads(),
    binaries(),
    skips(),
    loops(),
    tails(),
    starts(),
    ok.
