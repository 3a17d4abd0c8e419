%% ETS match specifications over tables: match/1,2,3, match_object/1,2,3, match_delete,
%% select/1,2,3 with continuations, select_reverse/1,2,3, select_count, select_delete,
%% select_replace, specs from ets:fun2ms, ets:match_spec_compile/run.
-module(ets_select).
-export([main/0]).
-include_lib("stdlib/include/ms_transform.hrl").

show(Label, V) -> io:format("~s: ~p~n", [Label, V]).
try_(F) -> try F() catch C:R -> {C, R} end.
sorted(L) when is_list(L) -> lists:sort(L);
sorted(V) -> V.

fill(T) ->
    ets:insert(T, [{N, N rem 7, integer_to_list(N), {pair, N, -N}} || N <- lists:seq(1, 200)]),
    ets:insert(T, [{a, 1, "a", x}, {b, 2, "b", y}]).

main() ->
    [each(Type) || Type <- [set, ordered_set, bag, duplicate_bag]],
    ordered(),
    chunks(),
    edits(),
    compiled(),
    functions(),
    ok.

each(Type) ->
    T = ets:new(t, [Type]),
    fill(T),
    Ord = fun(L) -> case Type of ordered_set -> L; _ -> sorted(L) end end,
    show("type", Type),
    show("match", Ord(ets:match(T, {'$1', 3, '_', '_'}))),
    show("match two vars", Ord(ets:match(T, {'$2', '$1', '_', {pair, '_', '$3'}}))),
    show("match key", ets:match(T, {5, '$1', '$2', '_'})),
    show("match_object", Ord(ets:match_object(T, {'_', 6, '_', '_'}))),
    show("match_object key", ets:match_object(T, {a, '_', '_', '_'})),
    show("match none", ets:match(T, {zz, '$1', '_', '_'})),
    MS1 = ets:fun2ms(fun({K, R, _, _}) when is_integer(K), K > 190 -> {K, R} end),
    show("fun2ms", MS1),
    show("select", Ord(ets:select(T, MS1))),
    MS2 = ets:fun2ms(fun({K, _, S, {pair, _, M}}) when K < 5; K =:= a -> [S, M, K * 2] end),
    show("select orelse", try_(fun() -> Ord(ets:select(T, MS2)) end)),
    MS3 = ets:fun2ms(fun(X = {K, 0, _, _}) when K >= 190 -> X end),
    show("select object", Ord(ets:select(T, MS3))),
    MS4 = [{{'$1', '$2', '_', '_'}, [{'andalso', {is_integer, '$1'}, {'==', {'rem', '$1', 50}, 0}}],
            [{{'$1', {'+', '$2', 1}, {element, 1, {{'$2'}}}, {self}, {const, c}}}]}],
    show("select guards", Ord([setelement(4, R, pid) || R <- ets:select(T, MS4)])),
    show("select $$", Ord(ets:select(T, [{{'$1', 2, '_', '$2'}, [{'>', '$1', 180}], ['$$']}]))),
    show("select $_", Ord(ets:select(T, [{{'$1', '_', '_', '_'}, [{is_atom, '$1'}], ['$_']}]))),
    show("select key bound", ets:select(T, [{{7, '$1', '_', '_'}, [], ['$1']}, {{8, '$1', '_', '_'}, [], ['$1']}])),
    show("select badarg", try_(fun() -> ets:select(T, [{bad}]) end)),
    show("select_reverse", Ord(ets:select_reverse(T, MS1))),
    show("select_count", ets:select_count(T, ets:fun2ms(fun({K, 3, _, _}) when K > 100 -> true end))),
    show("select_count all", ets:select_count(T, [{'_', [], [true]}])),
    show("select_count none", ets:select_count(T, [{'_', [], [false]}])),
    show("select_delete", ets:select_delete(T, ets:fun2ms(fun({K, 4, _, _}) -> true end))),
    show("size", ets:info(T, size)),
    show("match_delete", ets:match_delete(T, {'_', 5, '_', '_'})),
    show("size", ets:info(T, size)),
    show("tab2list size", length(ets:tab2list(T))),
    show("select_delete all", ets:select_delete(T, [{'_', [], [true]}])),
    show("size", ets:info(T, size)),
    ets:delete(T).

ordered() ->
    T = ets:new(o, [ordered_set]),
    ets:insert(T, [{N, N * 3} || N <- lists:seq(1, 30)]),
    show("select order", ets:select(T, [{{'$1', '$2'}, [{'<', '$1', 10}], ['$2']}])),
    show("select_reverse order", ets:select_reverse(T, [{{'$1', '$2'}, [{'<', '$1', 10}], ['$2']}])),
    show("reverse chunks", chunks_rev(ets:select_reverse(T, [{{'$1', '_'}, [], ['$1']}], 7))),
    show("match chunks", all_chunks(ets:match(T, {'$1', '_'}, 8), fun ets:match/1)),
    show("match_object chunks", all_chunks(ets:match_object(T, {'_', '_'}, 11), fun ets:match_object/1)),
    ets:delete(T).

chunks_rev('$end_of_table') -> [];
chunks_rev({L, C}) -> [L | chunks_rev(ets:select_reverse(C))].

all_chunks('$end_of_table', _) -> [];
all_chunks({L, C}, F) -> [L | all_chunks(F(C), F)].

chunks() ->
    [begin
         T = ets:new(c, [Type]),
         ets:insert(T, [{N, N} || N <- lists:seq(1, 1000)]),
         MS = ets:fun2ms(fun({K, V}) when K rem 3 =:= 0 -> V end),
         Chunks = all_chunks(ets:select(T, MS, 25), fun ets:select/1),
         All = lists:append(Chunks),
         show("chunks", {Type, lists:sort(All) =:= [N || N <- lists:seq(1, 1000), N rem 3 =:= 0],
                         lists:all(fun(C) -> length(C) >= 1 end, Chunks)}),
         case Type of
             ordered_set -> show("ordered chunk sizes", [length(C) || C <- Chunks]);
             _ -> ok
         end,
         show("none", ets:select(T, [{{zz, '_'}, [], ['$_']}], 10)),
         show("end", ets:select('$end_of_table')),
         show("bad limit", try_(fun() -> ets:select(T, MS, 0) end)),
         ets:delete(T)
     end || Type <- [set, ordered_set, bag, duplicate_bag]].

edits() ->
    [begin
         T = ets:new(r, [Type]),
         ets:insert(T, [{N, N, old} || N <- lists:seq(1, 20)]),
         MS = ets:fun2ms(fun({K, V, old}) when V > 15 -> {K, V * 10, new} end),
         show("select_replace", {Type, ets:select_replace(T, MS)}),
         show("replaced", lists:sort(ets:select(T, [{{'_', '_', new}, [], ['$_']}]))),
         show("key change", try_(fun() -> ets:select_replace(T, [{{'$1', '$2', old}, [], [{{{'+', '$1', 100}, '$2', old}}]}]) end)),
         show("size", ets:info(T, size)),
         ets:delete(T)
     end || Type <- [set, ordered_set]],
    B = ets:new(b, [bag]),
    show("bag replace", try_(fun() -> ets:select_replace(B, [{'_', [], ['$_']}]) end)).

compiled() ->
    MS = ets:fun2ms(fun({A, B}) when A > B -> {B, A} end),
    C = ets:match_spec_compile(MS),
    show("is_compiled", {ets:is_compiled_ms(C), ets:is_compiled_ms(MS)}),
    show("run", ets:match_spec_run([{1, 2}, {3, 1}, {5, 4}], C)),
    show("test", erlang:match_spec_test({5, 4}, MS, table)).

%% every guard test and guard function a table spec may use, on one object
functions() ->
    T = ets:new(ets_select_functions, [ordered_set, named_table]),
    ets:insert(T, [{1, <<"abc">>, #{a => 1}, [1, 2, 3], 2.5, -3, {x, y}, "str", self()}]),
    Tests = [{is_atom, '$7'}, {is_float, '$5'}, {is_integer, '$6'}, {is_list, '$4'}, {is_map, '$3'},
             {is_map_key, a, '$3'}, {is_binary, '$2'}, {is_bitstring, '$2'}, {is_number, '$5'}, {is_pid, '$9'},
             {is_port, '$1'}, {is_reference, '$1'}, {is_tuple, '$7'}, {is_function, '$1'},
             {is_record, '$7', x, 2}, {is_boolean, true}],
    Exprs = [{abs, '$6'}, {element, 1, '$7'}, {hd, '$4'}, {tl, '$4'}, {length, '$4'}, {map_get, a, '$3'},
             {map_size, '$3'}, {node}, {round, '$5'}, {size, '$2'}, {byte_size, '$2'}, {bit_size, '$2'},
             {tuple_size, '$7'}, {trunc, '$5'}, {float, '$6'}, {binary_part, '$2', 1, 2}, {'+', '$6', 1},
             {'-', '$6'}, {'*', 2, '$5'}, {'/', 1, 2}, {'div', 7, 2}, {'rem', 7, 2}, {'band', 6, 3},
             {'bor', 6, 3}, {'bxor', 6, 3}, {'bnot', 6}, {'bsl', 1, 4}, {'bsr', 16, 2}, {'>', '$5', 1},
             {'=:=', 1, 1.0}, {'==', 1, 1.0}, {'not', false}, {'xor', true, false}, {ceil, '$5'}, {floor, '$5'},
             {min, 1, 2}, {max, 1, 2}, {const, {a}}, {{'$1', '$6'}}, ['$1'], {is_map_key, b, '$3'},
             {map_get, b, '$3'}, {element, 9, '$7'}],
    Pat = {'$1', '$2', '$3', '$4', '$5', '$6', '$7', '$8', '$9'},
    [show("guard", {G, try_(fun() -> ets:select(T, [{Pat, [G], [ok]}]) end)}) || G <- Tests],
    [show("body", {E, try_(fun() -> ets:select(T, [{Pat, [], [E]}]) end)}) || E <- Exprs],
    show("self", ets:select(T, [{Pat, [], [{self}]}]) =:= [self()]),
    ets:delete(T).
