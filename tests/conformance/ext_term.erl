%% term_to_binary / binary_to_term: exact bytes for simple terms, round trips, options, errors.
-module(ext_term).
-export([main/0, id/1]).

id(X) -> X.

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

rt(X) -> binary_to_term(term_to_binary(X)) =:= X.

main() ->
    t(small_int, fun() -> term_to_binary(id(1)) end),
    t(int32, fun() -> term_to_binary(id(1000)) end),
    t(neg_int, fun() -> term_to_binary(id(-1)) end),
    t(big_int, fun() -> term_to_binary(id(1 bsl 64)) end),
    t(neg_big_int, fun() -> term_to_binary(id(-(1 bsl 100))) end),
    t(float, fun() -> term_to_binary(id(1.5)) end),
    t(atom, fun() -> term_to_binary(id(abc)) end),
    t(atom_unicode, fun() -> term_to_binary(id('ö')) end),
    t(nil, fun() -> term_to_binary(id([])) end),
    t(string, fun() -> term_to_binary(id("abc")) end),
    t(list, fun() -> term_to_binary(id([1, a])) end),
    t(improper, fun() -> term_to_binary(id([1 | 2])) end),
    t(tuple, fun() -> term_to_binary(id({a, 1})) end),
    t(large_tuple_header, fun() -> binary_part(term_to_binary(erlang:make_tuple(300, 0)), 0, 6) end),
    t(binary, fun() -> term_to_binary(id(<<1, 2, 3>>)) end),
    t(bitstring, fun() -> term_to_binary(id(<<1, 2:3>>)) end),
    t(map, fun() -> term_to_binary(id(#{a => 1, b => [2]})) end),
    t(export_fun, fun() -> term_to_binary(id(fun lists:sort/1)) end),
    t(compressed, fun() -> B = term_to_binary(lists:duplicate(1000, 0), [compressed]), {byte_size(B) < 100, binary_to_term(B) =:= lists:duplicate(1000, 0)} end),
    t(minor_version_0, fun() -> term_to_binary(id(2.5), [{minor_version, 0}]) end),
    t(roundtrip, fun() -> [rt(X) || X <- [0, 255, 256, -(1 bsl 27), 1 bsl 27, 1 bsl 300, -3.25e-10, "", "x", [[]],
                                            {}, {{}}, <<>>, <<0:7>>, #{}, #{k => #{}}, 'héllo', fun erlang:abs/1,
                                            maps:from_list([{I, I} || I <- lists:seq(1, 40)]), list_to_tuple(lists:seq(1, 300))]] end),
    t(roundtrip_pid_ref, fun() -> R = make_ref(), P = self(), {rt(R), rt(P), rt({P, [R]})} end),
    t(decode_literal, fun() -> binary_to_term(id(<<131, 104, 2, 100, 0, 2, 111, 107, 97, 42>>)) end),
    t(decode_small_atom_utf8, fun() -> binary_to_term(id(<<131, 119, 3, 102, 111, 111>>)) end),
    t(decode_bad, fun() -> binary_to_term(id(<<131, 255>>)) end),
    t(decode_no_magic, fun() -> binary_to_term(id(<<1, 2>>)) end),
    t(decode_trailing_used, fun() -> binary_to_term(id(<<131, 97, 5, 0, 0>>), [used]) end),
    t(external_size, fun() -> {erlang:external_size(id({a, "b"})), byte_size(term_to_binary(id({a, "b"})))} end),
    %% erts' estimate for a local fun allows 5 bytes each for OldIndex and OldUniq.
    t(external_size_funs, fun() ->
        X = id(5), F = fun(Y) -> {X, Y} end, G = fun() -> ok end,
        [{erlang:external_size(T), byte_size(term_to_binary(T))} || T <- [F, G, [F, {G}], fun lists:map/2]]
    end),
    t(term_to_iovec, fun() -> iolist_to_binary(term_to_iovec(id({x}))) end),
    ok.
