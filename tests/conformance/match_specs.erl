%% Match specifications through erlang:match_spec_test/3 (table and trace dialects) and
%% ets:match_spec_compile/1, match_spec_run/2, is_compiled_ms/1: head patterns (variables,
%% repeated variables, '_', lists, maps), guards and bodies ('$_', '$$', {const, T}, tuple,
%% list and map construction, special forms, guard functions), body failures ('EXIT'), trace
%% flags, and the error messages for refused specs.
-module(match_specs).
-export([main/0]).
t(F) -> try F() catch C:R -> {C,R} end.
main() ->
    table_and_trace(),
    special_cases(),
    nesting(),
    ok.

table_and_trace() ->
    Specs = [bad, [], [bad], [{'_', [], ['$_']}], [{{'$1','$2'}, [{'>', '$1', 1}], [{{'$2','$1'}}]}],
             [{{'$1'}, [], ['$2']}], [{{'$1'}, [{foo, '$1'}], [true]}], [{{'$1'}, [], [{element, 5, '$1'}]}],
             [{{'$1'}, [{element, 5, '$1'}], [true]}], [{{'$1'}, [], [{message, '$1'}]}], [{{'$1'}, [], [{return_trace}]}],
             [{'$1', [], ['$$']}], [{[a|'$1'], [], ['$1']}], [{{'$1'}, [{is_integer, '$1'}, {'<', '$1', 10}], [{'+', '$1', 1}]}],
             [{{'$1'}, [], [{const, {'$1'}}]}], [{#{a => '$1'}, [], ['$1']}], [{{'$1', '$1'}, [], [same]}],
             [{{'$1'}, [{'andalso', {is_integer, '$1'}, {'>', {'div', 10, '$1'}, 1}}], [{{'$1', {'div', 10, '$1'}}}]}],
             [{{'$1'}, [], [{'div', 10, '$1'}]}], [{{'$1'}, [], [{is_pid, {self}}]}], [{{'$1'}, [], [{node}]}], [{{'$1'}, [], [{is_seq_trace}]}],
             [{{'$100000001'}, [], [ok]}], [{{'$-1'}, [], [ok]}], [{{'$1'}, ['$1'], [ok]}], [{{'$1'}, [], [{'and', true, '$1'}]}]],
    Objs = [{1,2}, {5,a}, {0}, {3}, {x}, {2,2}, [a,b,c], #{a => 7}, a],
    [io:format("~p: ~p~n", [S, [t(fun() -> erlang:match_spec_test(O, S, table) end) || O <- Objs]]) || S <- Specs],
    [io:format("trace ~p: ~p~n", [S, [t(fun() -> erlang:match_spec_test(O, S, trace) end) || O <- [[1], [a, b], [{3}], [{1,2}]]]]) || S <- Specs],
    ok.

special_cases() ->
    C = ets:match_spec_compile([{{'$1'},[],[{'div',10,'$1'}]}]),
    io:format("~p~n", [[t(fun() -> ets:match_spec_run([{3},{0},{a,b},x], C) end),
        t(fun() -> ets:match_spec_compile(bad) end), t(fun() -> ets:match_spec_compile([{'_',[],[{message, 1}]}]) end),
        ets:is_compiled_ms(C), ets:is_compiled_ms(make_ref()), ets:is_compiled_ms(x), is_reference(C),
        t(fun() -> ets:match_spec_run_r([{3}], C, [acc]) end), t(fun() -> ets:match_spec_run_r(notlist, C, []) end),
        t(fun() -> ets:match_spec_run_r([{3}], make_ref(), []) end), t(fun() -> ets:match_spec_run_r([{3}|x], C, []) end),
        t(fun() -> erlang:match_spec_test({1}, [{'_',[],[]}], table) end),
        t(fun() -> erlang:match_spec_test([1], [{'_',[],[]}], trace) end),
        t(fun() -> erlang:match_spec_test(x, [{'_',[],[]}], trace) end),
        t(fun() -> erlang:match_spec_test(x, [{'_',[],[]}], foo) end),
        t(fun() -> erlang:match_spec_test([1,2], [{['$1','$2'],[{'<','$1','$2'}],[{message,{{'$2','$1'}}}, {return_trace}, {exception_trace}]}], trace) end),
        t(fun() -> erlang:match_spec_test([1,2], [{'$1',[],[{message,'$1'}, {caller}, {message, {caller}}]}], trace) end),
        t(fun() -> erlang:match_spec_test({a,b}, [{{'$1','$2'},[{'=:=', {element, 1, '$_'}, a}],['$$', '$_']}], table) end),
        t(fun() -> erlang:match_spec_test({a,b}, [{{'$1','$2'},[],[{{}}]}], table) end),
        t(fun() -> erlang:match_spec_test({a,b}, [{{'$1','$2'},[],[{}]}], table) end),
        t(fun() -> erlang:match_spec_test({a,b}, [{{'$1','$2'},[],[#{'$1' => '$2'}]}], table) end),
        t(fun() -> erlang:match_spec_test({a,b}, [{{'$1','$2'},[{'andalso', true, '$1'}],[ok]}], table) end),
        t(fun() -> erlang:match_spec_test({a,b}, [{{'$1','$2'},[{'orelse', '$1', true}],[ok]}], table) end),
        t(fun() -> erlang:match_spec_test({a,b}, [{{'$1','$2'},[{'andalso', true, true}],[{is_record, '$_', a, 2}]}], table) end),
        t(fun() -> erlang:match_spec_test({a,b}, [{{'$1','$2'},[],[{'and'}]}], table) end),
        t(fun() -> erlang:match_spec_test({a,b}, [{{'$1','$2'},[],[{const, a, b}]}], table) end),
        t(fun() -> erlang:match_spec_test({a,b}, [{{'$1','$2'},[],[{self, a}]}], table) end),
        t(fun() -> erlang:match_spec_test({a,b}, [{{'$1','$2'},[],[{get_tcw}]}], table) end),
        t(fun() -> erlang:match_spec_test([a], [{['$1'],[{message, a}],[{get_tcw}]}], trace) end),
        t(fun() -> erlang:match_spec_test([a], [{['$1'],[{caller}],[{message, {caller}}]}], trace) end),
        t(fun() -> erlang:match_spec_test({a,b}, [{{'$1','$2'},[],[{element, '$1'}]}], table) end),
        t(fun() -> erlang:match_spec_test({a,b}, [{{'$1','$2'},[],[{'/', 1, 2}, {map_size, #{}}, {binary_part, <<"abc">>, 1, 1}, {size, {1,2}}, {'node', self()}, {is_function, '$1'}]}], table) end)
    ]]).

nesting() ->
    Deep = lists:foldl(fun(_, Acc) -> {'+', Acc, 1} end, '$1', lists:seq(1, 200)),
    io:format("~p~n", [erlang:match_spec_test({1}, [{{'$1'}, [], [Deep]}], table)]),
    Long = lists:seq(1, 10000),
    io:format("~p~n", [erlang:match_spec_test(Long ++ [x], [{Long ++ ['$1'], [], ['$1']}], table)]),
    io:format("~p~n", [erlang:match_spec_test(lists:seq(1, 1000), [{'$1', [{'==', {length, '$1'}, 1000}], [{hd, '$1'}]}], table)]).
