%% OTP's largest tuple (16#FFFFFF elements) through the BIFs that build tuples, and the atom
%% encodings of term_to_binary for each minor_version.
-module(bif_size_limits).
-export([main/0]).

id(X) -> X.

t(Label, F) ->
    R = try F() catch C:E:S -> {C, E, element(1, hd(S)), element(2, hd(S))} end,
    io:format("~w: ~w~n", [Label, R]).

main() ->
    Max = 16#FFFFFF,
    t(make_tuple_max, fun() -> tuple_size(erlang:make_tuple(id(Max), x)) end),
    t(make_tuple_over, fun() -> tuple_size(erlang:make_tuple(id(Max + 1), x)) end),
    t(make_tuple3_over, fun() -> tuple_size(erlang:make_tuple(id(Max + 1), x, [])) end),
    t(make_tuple3_max, fun() -> element(Max, erlang:make_tuple(id(Max), x, [{Max, y}])) end),
    Big = erlang:make_tuple(Max, x),
    t(append_element_over, fun() -> tuple_size(erlang:append_element(Big, y)) end),
    t(append_element_max, fun() ->
        tuple_size(erlang:append_element(erlang:make_tuple(Max - 1, x), y)) end),
    L = lists:duplicate(Max, a),
    t(list_to_tuple_max, fun() -> tuple_size(list_to_tuple(L)) end),
    t(list_to_tuple_over, fun() -> tuple_size(list_to_tuple([b | L])) end),
    %% binary_to_term does not check the limit (neither does OTP).
    t(binary_to_term_over, fun() ->
        N = Max + 1,
        tuple_size(binary_to_term(<<131, 105, N:32, (binary:copy(<<106>>, N))/binary>>)) end),
    atoms().

atoms() ->
    Long = list_to_atom(lists:duplicate(255, $a)),
    Longer = list_to_atom(lists:duplicate(200, $\x{e5})),
    Atoms = [abc, '', '\x{e5}', 'caf\x{e9}', '\x{3bb}x', Long, Longer,
             list_to_atom(lists:duplicate(100, $\x{3bb})), true],
    [t({ttb, A, O}, fun() -> term_to_binary(A, O) end)
     || A <- Atoms, O <- [[], [{minor_version, 0}], [{minor_version, 1}], [{minor_version, 2}]]],
    [t({ttb_in_term, O}, fun() -> term_to_binary({abc, [1.5, '\x{e5}'], #{k => v}}, O) end)
     || O <- [[], [{minor_version, 0}], [{minor_version, 1}], [{minor_version, 2}],
              [{minor_version, 2}, deterministic], [{minor_version, 2}, compressed]]],
    [t({roundtrip, O}, fun() ->
        B = term_to_binary({abc, '\x{e5}', Long, Longer}, O),
        binary_to_term(B) =:= {abc, '\x{e5}', Long, Longer} end)
     || O <- [[], [{minor_version, 0}], [{minor_version, 2}]]],
    [t({external_size, O}, fun() -> erlang:external_size({abc, '\x{e5}', Long}, O) end)
     || O <- [[], [{minor_version, 0}], [{minor_version, 1}], [{minor_version, 2}]]],
    t(iovec_minor2, fun() -> iolist_to_binary(term_to_iovec(abc, [{minor_version, 2}])) end),
    t(ttb_minor3, fun() -> term_to_binary(abc, [{minor_version, 3}]) end).
