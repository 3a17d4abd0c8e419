-module(maps_put_many).
%% Map updates with several keys in one instruction (#{M | K1 => V1, K2 => V2, ...} with
%% variable keys): keys new and old, equal keys in one update (the last wins), 1 and 1.0,
%% across the 32-key flat/trie boundary; and the term order of tuples whose leading elements
%% are atoms and integers (record-like keys), as OTP's compiler uses them.
-export([main/0]).

main() ->
    Keys = [a, b, 1, 1.0, 2, -3, z, {t, 1}, {t, 1.0}, "s", <<"b">>, [], 16#FFFFFFFFFFFFFFFFFF,
            {x, a, 1}, {x, a, 2}, {x, b, 0}, {x, 1, a}],
    Base = #{b => old, 2 => old, {t, 1} => old},
    lists:foreach(fun(K) -> put3(Base, K) end, Keys),
    show(same_key_twice, put_twice(Base, a, 1, 2)),
    show(same_key_exists, put_twice(Base, b, 1, 2)),
    show(int_and_float, put_pair(#{}, 1, 1.0)),
    show(float_and_int, put_pair(#{1 => x}, 1.0, 1)),
    show(only_values, put_pair(Base, b, 2)),
    %% Growing a map three keys at a time, through 32 keys and beyond.
    Grown = grow(#{}, 0, 40),
    show(grown_size, maps:size(Grown)),
    show(grown_list, maps:to_list(Grown) =:= lists:sort(maps:to_list(Grown))),
    show(grown_equal, Grown =:= maps:from_list([{I, I * I} || I <- lists:seq(0, 41)])),
    show(flat_at_31, maps:to_list(grow(#{}, 0, 29))),
    show(flat_to_trie, maps:size(grow(#{}, 0, 32))),
    Small = grow(#{}, 0, 29),
    show(small_update, maps:to_list(Small#{0 := zero, 29 := last})),
    show(tuple_order, lists:sort([{x, b, 0}, {x, a, 2}, {x, a, 1}, {x, 1, a}, {y}, {x, a, 1.0},
                                  {x, a, "1"}, {x, a, {1}}, {x, a, 1, 0}, {1.0, a}, {1, b}])),
    show(tuple_compare, [{x, a, 1} < {x, a, 1.0}, {x, a, 1} == {x, a, 1.0},
                         {x, a, 1} =:= {x, a, 1.0}, {a, 1} < {a, b}, {b, 1} > {a, 2}]),
    show(map_keys_tuples, maps:keys(maps:from_list([{{r, I rem 3, I}, I} || I <- lists:seq(1, 12)]))).

put3(M, K) ->
    V = value,
    show(K, maps:to_list(M#{K => V, b => new, K => V2 = {V, 2}})),
    show({K, again}, maps:to_list(M#{2 => V2, K => V})).

put_twice(M, K, V1, V2) -> maps:to_list(M#{K => V1, K => V2}).

put_pair(M, K1, K2) -> maps:to_list(M#{K1 => first, K2 => second}).

grow(M, I, Limit) when I > Limit -> M;
grow(M, I, Limit) ->
    A = I, B = I + 1, C = I + 2,
    grow(M#{A => A * A, B => B * B, C => C * C}, I + 3, Limit).

show(Tag, Value) ->
    io:format("~p: ~p~n", [Tag, Value]).
