%% ETS objects holding every kind of term, read back by each path that copies a whole object
%% out (lookup, tab2list, match_object, select with '$_', take, lookup of a bag) and by the
%% paths that copy parts (lookup_element, select of fields); compound keys of immediates and of
%% other terms, looked up by equal but not identical keys. Large binaries are shared with the
%% table: reading them after the writer and the table are gone must still see their bytes.
-module(ets_object_terms).
-export([main/0]).

show(Label, V) -> io:format("~p: ~p~n", [Label, V]).

big_bin(N) -> list_to_binary([I rem 251 || I <- lists:seq(1, N)]).

values() ->
    Big = big_bin(300),
    <<_:7/binary, Sub:100/binary, _/binary>> = Big,
    Fun = fun(X) -> {X, Big, [1, 2]} end,
    BigMap = maps:from_list([{K, {K, integer_to_list(K)}} || K <- lists:seq(1, 40)]),
    [{atom, a}, {small, 42}, {neg, -7}, {bignum, 1 bsl 100 + 3}, {negbig, -(1 bsl 70)},
     {float, 3.25}, {nil, []}, {string, "hello"}, {improper, [1, 2 | tail]},
     {nested, [{a, [b, {c, [d]}]}, <<"heap bin">>]},
     {heapbin, <<1, 2, 3>>}, {bits, <<5:3>>}, {refcbin, Big}, {subbin, Sub},
     {twice, {Big, Big, Sub}}, {smallmap, #{a => 1, "b" => [2], {c} => <<"c">>}},
     {bigmap, BigMap}, {fun_, Fun}, {export, fun lists:reverse/1},
     {pid, self()}, {ref, make_ref()}, {tuple0, {}}, {deep, lists:foldl(fun(I, A) -> {I, A} end, x, lists:seq(1, 200))}].

check(Label, Expected, Got) ->
    show(Label, Expected =:= Got).

main() ->
    Vs = values(),
    [table(Type, Vs) || Type <- [set, ordered_set, bag, duplicate_bag]],
    compound_keys(),
    shared_binaries(),
    ok.

table(Type, Vs) ->
    T = ets:new(t, [Type, public]),
    Objs = [{K, V, length(atom_to_list(K))} || {K, V} <- Vs],
    ets:insert(T, Objs),
    check({Type, lookup}, Objs, [O || {K, _, _} <- Objs, O <- ets:lookup(T, K)]),
    %% a bag's lookup_element gives a list
    Elem = fun(K) when Type =:= set; Type =:= ordered_set -> ets:lookup_element(T, K, 2);
              (K) -> hd(ets:lookup_element(T, K, 2))
           end,
    check({Type, lookup_element}, [V || {_, V, _} <- Objs], [Elem(K) || {K, _, _} <- Objs]),
    check({Type, tab2list}, lists:sort(Objs), lists:sort(ets:tab2list(T))),
    check({Type, match_object}, lists:sort(Objs), lists:sort(ets:match_object(T, '_'))),
    check({Type, select_whole}, lists:sort(Objs), lists:sort(ets:select(T, [{'_', [], ['$_']}]))),
    check({Type, select_field}, lists:sort([V || {_, V, _} <- Objs]),
          lists:sort(ets:select(T, [{{'_', '$1', '_'}, [], ['$1']}]))),
    {Chunk, _} = ets:select(T, [{'_', [], ['$_']}], 5),
    show({Type, chunk}, [lists:member(O, Objs) || O <- Chunk]),
    check({Type, take}, [lists:keyfind(refcbin, 1, Objs)], ets:take(T, refcbin)),
    show({Type, after_take}, ets:lookup(T, refcbin)),
    Fun = Elem(fun_),
    show({Type, fun_call}, element(3, Fun(x))),
    ets:delete(T).

compound_keys() ->
    T = ets:new(k, [set, public, {write_concurrency, true}]),
    Keys = [{W, I} || W <- lists:seq(1, 4), I <- lists:seq(0, 99)] ++
           [{a, "str", I} || I <- lists:seq(1, 20)] ++ [{1.0, I} || I <- lists:seq(1, 10)] ++
           [{1, I} || I <- lists:seq(1, 10)] ++ [{<<"bin">>, I} || I <- lists:seq(1, 10)],
    [ets:insert(T, {K, erlang:phash2(K)}) || K <- Keys],
    show(compound_size, ets:info(T, size)),
    %% keys built again, so that they are equal but not the same words
    Again = [binary_to_term(term_to_binary(K)) || K <- Keys],
    show(compound_found, lists:all(fun(K) -> [{K, erlang:phash2(K)}] =:= ets:lookup(T, K) end, Again)),
    show(float_vs_int, {ets:lookup(T, {1.0, 3}), ets:lookup(T, {1, 3})}),
    show(missing, [ets:lookup(T, K) || K <- [{5, 0}, {1, 100}, {a, "str", 21}, {1.0, 11}]]),
    [ets:update_counter(T, {1, I}, 10) || I <- lists:seq(1, 10)],
    show(counters, [ets:lookup_element(T, {1, I}, 2) - erlang:phash2({1, I}) || I <- lists:seq(1, 10)]),
    ets:delete(T).

shared_binaries() ->
    Self = self(),
    Writer = spawn(fun() ->
                       T = ets:new(s, [set, public]),
                       ets:insert(T, {k, big_bin(1000), [big_bin(200)]}),
                       Self ! {table, T},
                       receive stop -> ok end
                   end),
    T = receive {table, Tab} -> Tab end,
    [{k, B1, [B2]}] = ets:lookup(T, k),
    Writer ! stop,
    receive after 50 -> ok end,
    show(table_gone, ets:info(T)),
    erlang:garbage_collect(),
    show(binaries, {byte_size(B1), erlang:md5(B1), byte_size(B2), erlang:md5(B2)}).
