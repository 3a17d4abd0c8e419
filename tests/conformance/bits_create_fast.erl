%% The bs_create_bin fast path (issue 11): integers of literal sizes 1..64 at every alignment,
%% big and little endian, negative and bignum values; binaries of literal size and `all` (with
%% units), sizes in registers, utf8, appends to small and large accumulators, appending nothing, strings at odd
%% offsets; and the values the fast path hands back to the general one, whose errors (with
%% their error_info cause) must stay erl's.
-module(bits_create_fast).
-export([main/0, id/1]).

id(X) -> X.

t(Label, F) ->
    erlang:display({Label, try F() catch C:R:St -> {C, R, cause(St)} end}).

cause([{_, _, _, Loc} | _]) ->
    case lists:keyfind(error_info, 1, Loc) of
        {error_info, #{cause := Cause}} -> Cause;
        _ -> none
    end;
cause(_) -> none.

-define(INT(N), {N, fun(P, V) -> <<P/bits, V:N, 1:1>> end,
                 fun(P, V) -> <<P/bits, V:N/little, 1:1>> end,
                 fun(P, V) -> <<P/bits, V:N/native-signed, 1:1>> end}).

int_builders() ->
    [?INT(1), ?INT(2), ?INT(3), ?INT(7), ?INT(8), ?INT(9), ?INT(12), ?INT(15), ?INT(16), ?INT(17),
     ?INT(24), ?INT(31), ?INT(32), ?INT(33), ?INT(40), ?INT(47), ?INT(48), ?INT(55), ?INT(56),
     ?INT(57), ?INT(59), ?INT(60), ?INT(61), ?INT(63), ?INT(64)].

ints() ->
    Values = [0, 1, -1, 5, 255, 256, -256, 16#123456789abcdef, -16#123456789abcdef,
              16#7ffffffffffffff, -16#800000000000000, 16#ffffffffffffffff, -16#8000000000000000,
              16#1ffffffffffffffff, -(1 bsl 70)],
    Prefixes = [<<>>, <<1:1>>, <<5:3>>, <<255>>, <<1, 2:7>>],
    lists:foreach(
      fun({N, Big, Little, Native}) ->
              erlang:display({int, N, [{Big(P, V), Little(P, V), Native(P, V)} || P <- Prefixes, V <- Values]})
      end, int_builders()).

binaries() ->
    Small = <<"0123456789">>,
    Large = list_to_binary(lists:seq(0, 199)),
    <<_:3, Odd:61/bits, _/bits>> = Large,
    lists:foreach(
      fun(B) ->
              erlang:display({bin, bit_size(B),
                              <<1:3, B/bits, 7:5>>,
                              try <<B/binary, 1>> catch C:R -> {C, R} end,
                              try <<2, B:4/binary, B:3/binary-unit:1, 0:5>> catch C2:R2 -> {C2, R2} end,
                              try <<B:8/bits, "str", B/bits>> catch C3:R3 -> {C3, R3} end})
      end, [<<>>, Small, Large, Odd, <<1:1>>]),
    erlang:display({strings, <<1:1, "abc">>, <<"x", 3:2, "yz", 1:1>>, <<"">>}).

%% Sizes in registers (integers up to 64 bits, binaries) and utf8 code points of every length,
%% at odd offsets; the values these shapes hand back to the general path.
var_sizes() ->
    Bin = list_to_binary(lists:seq(1, 100)),
    lists:foreach(
      fun(N) ->
              V = id(16#123456789abcdef0 bxor N),
              erlang:display({int_var, N, <<1:3, V:N, 2:5>>, <<V:(id(N))/little>>,
                              try <<V:N/unit:2>> catch C:R -> {C, R} end})
      end, [0, 1, 7, 8, 13, 32, 33, 63, 64, 65, 100]),
    lists:foreach(
      fun(N) ->
              erlang:display({bin_var, N, try <<7:3, Bin:N/binary, 1:5>> catch C:R -> {C, R} end,
                              try <<Bin:N/binary-unit:3, 1:1>> catch C2:R2 -> {C2, R2} end})
      end, [0, 1, 5, 33, 99, 100, 101]),
    lists:foreach(
      fun(C) ->
              erlang:display({utf8, C, <<C/utf8>>, <<1:1, C/utf8, 0:7>>, <<(id(<<"ab">>))/binary, C/utf8>>})
      end, [0, $a, 16#7f, 16#80, 16#7ff, 16#800, 16#d7ff, 16#e000, 16#fffd, 16#ffff, 16#10000, 16#10ffff]),
    t(int_var_negative, fun() -> <<(id(1)):(id(-1))>> end),
    t(int_var_atom, fun() -> <<(id(1)):(id(a))>> end),
    t(int_var_bignum_value, fun() -> <<(id(1 bsl 70)):(id(72))>> end),
    t(bin_var_negative, fun() -> <<(id(<<1>>)):(id(-1))/binary>> end),
    t(bin_var_short, fun() -> <<1, (id(<<1, 2>>)):(id(3))/binary>> end),
    t(bin_var_bignum, fun() -> <<1, (id(<<1, 2>>)):(id(1 bsl 70))/binary>> end),
    t(bin_var_not_binary, fun() -> <<1, (id(x)):(id(1))/binary>> end),
    t(utf8_surrogate, fun() -> <<(id(16#d800))/utf8>> end),
    t(utf8_too_big, fun() -> <<(id(16#110000))/utf8>> end),
    t(utf8_negative, fun() -> <<(id(-1))/utf8>> end),
    t(utf8_atom, fun() -> <<1, (id(a))/utf8>> end),
    t(utf8_then_var, fun() -> <<(id(a))/utf8, (id(<<1>>)):(id(-1))/binary>> end).

%% Appending in a loop (the accumulator grows past the heap-binary limit and is extended in
%% place), appending nothing, and appending to a bitstring.
append_loop(0, Acc) -> Acc;
append_loop(N, Acc) -> append_loop(N - 1, <<Acc/binary, N:16, (N rem 7):8/little>>).

appends() ->
    A = append_loop(100, <<>>),
    erlang:display({append, byte_size(A), erlang:md5(A)}),
    B = append_loop(10, <<"start">>),
    erlang:display({append_small, B}),
    Empty = <<>>,
    C = <<A/binary, Empty/binary>>,
    erlang:display({append_nothing, C =:= A, binary:referenced_byte_size(C) =:= binary:referenced_byte_size(A)}),
    %% two appends to the same accumulator: the second must not see the first's bytes
    D1 = <<A/binary, 1, 2, 3>>,
    D2 = <<A/binary, 4, 5>>,
    erlang:display({append_twice, binary:part(D1, byte_size(A), 3), binary:part(D2, byte_size(A), 2)}),
    Bits = <<1:3>>,
    erlang:display({append_bits, <<Bits/bits, 5:5, Bits/bits>>}),
    t(append_not_binary, fun() -> X = id(foo), <<X/binary, 1>> end),
    t(append_bits_to_binary, fun() -> X = id(<<1:3>>), <<X/binary, 1>> end).

%% Values the fast path does not take: the general path decides, with erl's errors.
errors() ->
    t(int_atom, fun() -> <<(id(a)):8>> end),
    t(int_float, fun() -> <<(id(1.0)):16/little>> end),
    t(int_bignum_ok, fun() -> <<(id(1 bsl 80)):64, (id(-(1 bsl 80))):17>> end),
    t(bin_atom, fun() -> <<1, (id(a))/binary>> end),
    t(bin_short, fun() -> <<1, (id(<<1, 2>>)):3/binary>> end),
    t(bin_unit, fun() -> <<1, (id(<<1:3>>))/binary>> end),
    t(bin_unit_bits, fun() -> <<1, (id(<<1:3>>)):1/binary-unit:3>> end),
    t(second_bad, fun() -> <<(id(1)):8, (id(x)):8, (id(<<>>))/binary>> end),
    t(both_bad, fun() -> <<(id(x)):8, (id(y))/binary>> end),
    error_order(),
    t(in_guard, fun() -> guard(id(x)) end),
    t(in_guard_ok, fun() -> guard(id(7)) end).

%% Which error wins when several segments are bad: explicit sizes first, then the values of
%% binaries sized by their value (not an append's accumulator), then the rest in order.
error_order() ->
    t(int_then_bin, fun() -> <<(id(x)):8, (id(y))/binary>> end),
    t(int_then_int, fun() -> <<(id(x)):8, (id(y)):8>> end),
    t(bin_then_int, fun() -> <<(id(y))/binary, (id(x)):8>> end),
    t(int_then_bin4, fun() -> <<(id(x)):8, (id(y)):4/binary>> end),
    t(bin4_then_bin, fun() -> <<(id(x)):4/binary, (id(y))/binary>> end),
    t(float_then_bin, fun() -> <<(id(x)):64/float, (id(y))/binary>> end),
    t(utf8_then_bin, fun() -> <<(id(x))/utf8, (id(y))/binary>> end),
    t(int_then_short, fun() -> <<(id(x)):8, (id(<<1>>)):4/binary>> end),
    t(int_then_unit, fun() -> <<(id(x)):8, (id(<<1:3>>))/binary>> end),
    t(int_then_bits, fun() -> <<(id(x)):8, (id(y))/bits>> end),
    t(append_then_int_then_bin, fun() -> A = id(<<1>>), <<A/binary, (id(x)):8, (id(y))/binary>> end),
    t(bin_then_size, fun() -> <<(id(y))/binary, (id(1)):(id(z))>> end),
    t(unit_then_bin, fun() -> <<(id(<<1:3>>))/binary, (id(y))/binary>> end),
    t(float_size_then_bin, fun() -> <<(id(1.0)):(id(7))/float, (id(y))/binary>> end),
    t(bad_append_then_bin, fun() -> A = id(x), <<A/binary, (id(y))/binary>> end).

guard(X) when <<X:8>> =:= <<7>> -> seven;
guard(_) -> other.

main() ->
    ints(),
    binaries(),
    appends(),
    var_sizes(),
    errors(),
    ok.
