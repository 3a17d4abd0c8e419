%% Term order across types: number < atom < reference < fun < port < pid < tuple < map < nil <
%% list < bitstring, and within each type.
-module(term_order).
-export([main/0, id/1]).

id(X) -> X.

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

%% Types whose printed form is not stable are replaced by a tag after sorting.
tag(X) when is_reference(X) -> ref;
tag(X) when is_pid(X) -> pid;
tag(X) when is_function(X) -> case erlang:fun_info(X, type) of {type, external} -> X; _ -> local_fun end;
tag(X) -> X.

main() ->
    Ref = make_ref(), Pid = self(), Fun = fun(X) -> X end,
    Mixed = id([<<"bin">>, [1], [], #{a => 1}, {1, 2}, Pid, Fun, Ref, atom, 2.5, 1, 1 bsl 70,
                {0}, <<1:1>>, "str", -5, fun lists:sort/1, 'Z', #{}]),
    t(sort_mixed, fun() -> [tag(X) || X <- lists:sort(Mixed)] end),
    t(sort_mixed_reverse, fun() -> [tag(X) || X <- lists:reverse(lists:sort(lists:reverse(Mixed)))] end),
    t(numbers, fun() -> lists:sort(id([3, 2.0, -1, 1 bsl 65, -(1 bsl 65), 0.5, 0, -0.5, 2])) end),
    t(int_float_equal_sort, fun() -> {lists:sort(id([1.0, 1])), lists:sort(id([1, 1.0])), lists:usort(id([1, 1.0]))} end),
    t(atoms, fun() -> lists:sort(id([b, 'B', a, aa, '', 'a b', z])) end),
    t(tuples, fun() -> lists:sort(id([{2}, {1, 2}, {1, 1}, {}, {0, 0, 0}, {a}])) end),
    t(lists, fun() -> lists:sort(id([[2], [1, 2], [1], [], [1 | 2], [a]])) end),
    t(binaries, fun() -> lists:sort(id([<<2>>, <<1, 2>>, <<1>>, <<>>, <<1:1>>, <<1, 2:4>>])) end),
    t(maps_by_size_then_keys, fun() -> lists:sort(id([#{b => 1}, #{a => 2}, #{a => 1}, #{a => 1, b => 1}, #{}, #{1 => x}])) end),
    t(max_min, fun() -> {max(id(a), id(1)), min(id([]), id({})), max(id(<<>>), id([]))} end),
    t(compare_ops, fun() -> {id(1) < id(a), id(a) < id({}), id({}) < id(#{}), id(#{}) < id([]), id([]) < id(<<>>)} end),
    t(ref_fun_port_pid, fun() -> {Ref < Fun, Fun < Pid, Pid < {}, is_pid(Pid) andalso Pid =:= self()} end),
    t(exact_vs_equal, fun() -> {1 == 1.0, 1 =:= 1.0, 1 /= 1.0, 1 =/= 1.0, {1} == {1.0}, [1.0] =:= [1]} end),
    t(big_float_compare, fun() -> {(1 bsl 64) < 1.8446744073709552e19, (1 bsl 64) == 1.8446744073709552e19,
                                   (1 bsl 64) + 1 > 1.8446744073709552e19} end),
    t(sort_stable_keysort, fun() -> lists:keysort(1, id([{1, a}, {1.0, b}, {1, c}])) end),
    ok.
