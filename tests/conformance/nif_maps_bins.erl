%% Maps and binaries through a NIF library (tests/nif/nif_maps_bins.c): map functions, map
%% iterators both ways on small (flat) and large (hashed) maps, binaries and sub-binaries of
%% heap, off-heap and matched binaries, allocated binaries, iolists.
-module(nif_maps_bins).
-export([main/0]).
-export([map_ops/3, build_map/2, iterate/2, inspect/1, sub/3, allocated/1, iolist/1, keep_binary/1]).

-define(STUB, erlang:nif_error(not_loaded)).
map_ops(_, _, _) -> ?STUB.
build_map(_, _) -> ?STUB.
iterate(_, _) -> ?STUB.
inspect(_) -> ?STUB.
sub(_, _, _) -> ?STUB.
allocated(_) -> ?STUB.
iolist(_) -> ?STUB.
keep_binary(_) -> ?STUB.

lib() -> filename:join([filename:dirname(code:which(?MODULE)), "nif", "nif_maps_bins"]).

main() ->
    show(load, fun() -> erlang:load_nif(lib(), []) end),
    maps_part(),
    binaries_part().

maps_part() ->
    Small = #{a => 1, b => 2, c => 3},
    Large = maps:from_list([{I, I * I} || I <- lists:seq(1, 40)]),
    [show({map_ops, M, K}, fun() -> map_ops(M, K, new) end)
     || {M, K} <- [{#{}, a}, {Small, a}, {Small, z}, {Small, 1.0}, {#{1 => x}, 1.0}, {not_a_map, a}]],
    show(map_ops_large, fun() ->
        [Is, Size, Got, Put, Upd, Rem] = map_ops(Large, 7, new),
        {Is, Size, Got, Put =:= Large#{7 => new}, Upd =:= Large#{7 := new}, Rem =:= maps:remove(7, Large)} end),
    show(map_ops_large_missing, fun() ->
        [_, _, Got, Put, Upd, Rem] = map_ops(Large, 99, new),
        {Got, Put =:= Large#{99 => new}, Upd, Rem =:= Large} end),
    [show({build_map, Ks}, fun() -> build_map(Ks, Vs) end)
     || {Ks, Vs} <- [{[], []}, {[a, b], [1, 2]}, {[a, a], [1, 2]}, {[1, 1.0], [x, y]}]],
    show(build_map_large, fun() ->
        Ks = lists:seq(1, 50),
        {A, B} = build_map(Ks, [-K || K <- Ks]),
        Expected = maps:from_list([{K, -K} || K <- Ks]),
        {A =:= Expected, B =:= Expected} end),
    [show({iterate, Name, Dir}, fun() ->
         {Pairs, AtEnd, Back} = iterate(M, Dir),
         Order = case Dir of forwards -> maps:to_list(M); backwards -> lists:reverse(maps:to_list(M)) end,
         {Pairs =:= Order, length(Pairs), AtEnd, Back =:= lists:last([none | Pairs])} end)
     || {Name, M} <- [{empty, #{}}, {small, Small}, {large, Large}], Dir <- [forwards, backwards]],
    show(iterate_small_pairs, fun() -> iterate(Small, forwards) end),
    show(iterate_not_map, fun() -> iterate([a], forwards) end).

binaries_part() ->
    Heap = <<"heap binary">>,
    OffHeap = list_to_binary(lists:duplicate(200, $z) ++ "end"),
    <<_:3/binary, Matched:5/binary, _/binary>> = OffHeap,
    <<_:1, Unaligned:8/binary, _/bits>> = <<0:1, "unaligned", 0:7>>,
    [show({inspect, Name}, fun() -> inspect(B) end)
     || {Name, B} <- [{empty, <<>>}, {heap, Heap}, {matched, Matched}, {unaligned, Unaligned},
                      {part, binary:part(Heap, 5, 6)}, {bits, <<1:3>>}, {list, "abc"}]],
    show(inspect_off_heap, fun() -> {Size, Copy} = inspect(OffHeap), {Size, Copy =:= OffHeap} end),
    [show({sub, Name, Pos, Len}, fun() -> sub(B, Pos, Len) end)
     || {Name, B, Pos, Len} <- [{heap, Heap, 0, 4}, {heap, Heap, 5, 6}, {heap, Heap, 11, 0},
                                {matched, Matched, 1, 3}, {unaligned, Unaligned, 2, 5}, {heap, Heap, 8, 9}]],
    show(sub_off_heap, fun() ->
        {S, Inner} = sub(OffHeap, 150, 53), {S =:= binary:part(OffHeap, 150, 53), Inner, byte_size(Inner)} end),
    [show({allocated, N}, fun() -> allocated(N) end) || N <- [0, 1, 5, 100]],
    show(allocated_large, fun() ->
        B = allocated(100000), {byte_size(B), binary:at(B, 99999), binary:last(B), erlang:crc32(B)} end),
    [show({iolist, Name}, fun() -> iolist(T) end)
     || {Name, T} <- [{empty, []}, {flat, "abc"}, {nested, [<<"a">>, [$b, [<<"cd">> | <<"e">>]], "f"]},
                      {binary, <<"bin">>}, {sub_binaries, [Matched, Unaligned]}, {big_int, [256]},
                      {atom, [a]}, {improper, [$a | $b]}, {bits, [<<1:3>>]}]],
    show(iolist_deep, fun() -> L = deep(200), iolist(L) =:= iolist_to_binary(L) end),
    show(keep_binary, fun() -> {keep_binary(Heap), keep_binary(OffHeap) =:= OffHeap, keep_binary(Matched)} end).

deep(0) -> [];
deep(N) -> [deep(N - 1), N rem 256].

show(Label, Fun) ->
    Result = try Fun() catch Class:Reason -> {Class, Reason} end,
    io:format("~p: ~p~n", [Label, Result]).
