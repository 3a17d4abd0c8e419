%% persistent_term as erts keeps it: a stored term keeps its sharing and is read without
%% copying (erts_debug:size_shared 0); info/0's memory grows by the term's words plus a fixed
%% overhead and returns to where it was after erase; the table doubles when half full. An
%% erased or replaced term that a process still holds is copied onto that process's heap once
%% the eraser is next scheduled out (erase/1 returns first), off-heap parts (binaries,
%% references, funs) included.
-module(persistent_term_release).
-export([main/0]).

main() ->
    logger:set_primary_config(level, error),  % no warning report about the internal state
    erts_debug:set_internal_state(available_internal_state, true),
    #{memory := M0, count := C0} = persistent_term:info(),
    Shared = lists:foldl(fun(_, A) -> [A | A] end, [], lists:seq(1, 12)),
    ok = persistent_term:put({?MODULE, shared}, Shared),
    Stored = persistent_term:get({?MODULE, shared}),
    io:format("shared: size ~p, flat ~p, size_shared ~p, equal ~p~n",
              [erts_debug:size(Stored), erts_debug:flat_size(Stored), erts_debug:size_shared(Stored),
               Stored =:= Shared]),
    #{memory := M1} = persistent_term:info(),
    io:format("memory for it: ~p bytes over its ~p words~n", [M1 - M0 - 8 * erts_debug:size(Shared), erts_debug:size(Shared)]),
    ok = persistent_term:put({?MODULE, shared}, Shared),
    #{memory := M1} = persistent_term:info(),
    io:format("same value again: memory unchanged~n"),
    Table0 = maps:get(table, erts_debug:get_internal_state(persistent_term)),
    Keys = [{?MODULE, N} || N <- lists:seq(1, Table0)],
    [ok = persistent_term:put(K, N) || {_, N} = K <- Keys],
    Table1 = maps:get(table, erts_debug:get_internal_state(persistent_term)),
    #{count := C1} = persistent_term:info(),
    io:format("after ~p more: count +~p, table x~p~n", [Table0, C1 - C0, Table1 div Table0]),
    [true = persistent_term:erase(K) || K <- Keys],
    Table2 = maps:get(table, erts_debug:get_internal_state(persistent_term)),
    io:format("after erasing them: table back ~p~n", [Table2 =:= Table0]),
    Self = self(),
    Holders = [spawn(fun() -> holder(Self) end) || _ <- lists:seq(1, 5)],
    [receive {ready, H} -> ok end || H <- Holders],
    true = persistent_term:erase({?MODULE, shared}),
    io:format("erase/1 returned before copying: ~p~n", [erts_debug:size_shared(Stored) =:= 0]),
    [H ! {check, Self} || H <- Holders],
    Results = [receive {H, R} -> R end || H <- Holders],
    io:format("holders: ~p~n", [lists:usort(Results)]),
    erlang:yield(),
    receive after 10 -> ok end,
    io:format("eraser's own copy: size_shared ~p, equal ~p~n",
              [erts_debug:size_shared(Stored), Stored =:= Shared]),
    Ref = make_ref(),
    Bin = list_to_binary(lists:seq(0, 255)),
    Val = {a, Bin, Ref, fun() -> ok end, self()},
    ok = persistent_term:put({?MODULE, offheap}, Val),
    Got = persistent_term:get({?MODULE, offheap}),
    ok = persistent_term:put({?MODULE, offheap}, replaced),
    receive after 10 -> ok end,
    io:format("replaced off-heap value kept: ~p, on heap ~p, fun runs ~p~n",
              [Got =:= Val, erts_debug:size_shared(Got) > 0, (element(4, Got))()]),
    true = persistent_term:erase({?MODULE, offheap}),
    #{memory := M2, count := C2} = persistent_term:info(),
    io:format("back to the start: count ~p, memory ~p~n", [C2 =:= C0, M2 =:= M0]),
    ok.

holder(Parent) ->
    T = persistent_term:get({?MODULE, shared}),
    0 = erts_debug:size_shared(T),
    Parent ! {ready, self()},
    receive {check, Parent} -> ok end,
    Parent ! {self(), wait_copied(T, 100)}.

wait_copied(T, 0) -> {not_copied, erts_debug:size_shared(T)};
wait_copied(T, N) ->
    case erts_debug:size_shared(T) of
        0 -> receive after 10 -> ok end, wait_copied(T, N - 1);
        S -> {copied, S, erts_debug:size(T)}
    end.
