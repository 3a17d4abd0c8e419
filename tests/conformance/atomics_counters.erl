%% atomics and counters (magic references): creation limits and errors, signed and unsigned
%% wrap-around, every operation, info/1 maps, and references that survive garbage
%% collection, message passing, persistent_term and use as map keys.
-module(atomics_counters).
-export([main/0]).

main() ->
    creation(),
    signed_ops(),
    unsigned_ops(),
    bad_arguments(),
    counters_both_kinds(),
    counters_concurrent(),
    references(),
    ok.

show(Label, F) ->
    R = try F() of V -> {ok, V} catch C:E -> {C, E} end,
    io:format("~s: ~p~n", [Label, R]).

creation() ->
    [show(io_lib:format("atomics_new(~p)", [N]), fun() -> is_reference(erts_internal:atomics_new(N, 1)) end)
     || N <- [1, 0, -1, a, 1.0, 1 bsl 61, 1 bsl 64, 1 bsl 70]],
    [show(io_lib:format("atomics:new(~p, ~p)", [N, O]), fun() -> is_reference(atomics:new(N, O)) end)
     || {N, O} <- [{1, []}, {2, [{signed, false}]}, {1, [{signed, maybe}]}, {1, bad}, {0, []}]],
    [show(io_lib:format("counters_new(~p)", [N]), fun() -> is_reference(erts_internal:counters_new(N)) end)
     || N <- [1, 0, -1, a, 1 bsl 62, 1 bsl 64]],
    [show(io_lib:format("counters:new(~p, ~p)", [N, O]), fun() -> element(1, counters:new(N, O)) end)
     || {N, O} <- [{1, []}, {1, [atomics]}, {1, [write_concurrency]}, {1, [foo]}, {0, []}]],
    ok.

signed_ops() ->
    A = atomics:new(3, []),
    Max = 1 bsl 63 - 1,
    Min = -(1 bsl 63),
    show("info", fun() -> atomics:info(A) end),
    show("put max", fun() -> atomics:put(A, 1, Max) end),
    show("add wraps", fun() -> atomics:add_get(A, 1, 1) end),
    show("sub wraps", fun() -> atomics:sub_get(A, 1, 1) end),
    show("put min-1", fun() -> atomics:put(A, 2, Min - 1) end),
    show("add unsigned incr", fun() -> atomics:add_get(A, 2, 1 bsl 64 - 1) end),
    show("exchange", fun() -> {atomics:exchange(A, 3, 7), atomics:get(A, 3)} end),
    show("cas ok", fun() -> {atomics:compare_exchange(A, 3, 7, 9), atomics:get(A, 3)} end),
    show("cas fail", fun() -> {atomics:compare_exchange(A, 3, 7, 11), atomics:get(A, 3)} end),
    show("sub", fun() -> {atomics:sub(A, 3, 20), atomics:get(A, 3)} end),
    show("all", fun() -> [atomics:get(A, I) || I <- [1, 2, 3]] end).

unsigned_ops() ->
    U = atomics:new(2, [{signed, false}]),
    show("info", fun() -> atomics:info(U) end),
    show("put negative", fun() -> atomics:put(U, 1, -1) end),
    show("put max", fun() -> atomics:put(U, 1, 1 bsl 64 - 1) end),
    show("get max", fun() -> atomics:get(U, 1) end),
    show("add wraps", fun() -> atomics:add_get(U, 1, 2) end),
    show("add negative", fun() -> atomics:add_get(U, 1, -5) end),
    show("add too big", fun() -> atomics:add(U, 1, 1 bsl 64) end),
    show("exchange big", fun() -> atomics:exchange(U, 2, 1 bsl 63) end),
    show("cas fail big", fun() -> atomics:compare_exchange(U, 2, 0, 1) end).

bad_arguments() ->
    A = atomics:new(2, []),
    C = erts_internal:counters_new(2),
    Bad = [{atomics, get, [A, 0]}, {atomics, get, [A, 3]}, {atomics, get, [A, a]},
           {atomics, get, [make_ref(), 1]}, {atomics, get, [C, 1]}, {atomics, get, [self(), 1]},
           {atomics, put, [A, 1, 1.0]}, {atomics, put, [A, 1, 1 bsl 63]},
           {atomics, add, [A, 1, a]}, {atomics, add_get, [A, 1, -(1 bsl 64)]},
           {atomics, compare_exchange, [A, 1, a, 1]}, {atomics, info, [C]}, {atomics, info, [x]},
           {erts_internal, counters_get, [A, 1]}, {erts_internal, counters_get, [C, 3]},
           {erts_internal, counters_add, [C, 1, 1.5]}, {erts_internal, counters_put, [C, 1, 1 bsl 63]},
           {erts_internal, counters_info, [A]}, {counters, get, [x, 1]}, {counters, add, [{atomics, C}, 1, 1]}],
    [show(io_lib:format("~p:~p/~p", [M, F, length(As)]), fun() -> apply(M, F, As) end) || {M, F, As} <- Bad],
    ok.

counters_both_kinds() ->
    lists:foreach(
      fun(Opts) ->
              C = counters:new(4, Opts),
              ok = counters:add(C, 1, 10),
              ok = counters:sub(C, 1, 3),
              ok = counters:add(C, 2, 1 bsl 63 - 1),
              ok = counters:add(C, 2, 1),
              ok = counters:put(C, 3, -42),
              ok = counters:add(C, 3, 2),
              io:format("~p: ~p size ~p~n", [Opts, [counters:get(C, I) || I <- [1, 2, 3, 4]],
                                              maps:get(size, counters:info(C))])
      end, [[], [atomics], [write_concurrency]]).

counters_concurrent() ->
    Parent = self(),
    lists:foreach(
      fun(Opts) ->
              C = counters:new(1, Opts),
              A = atomics:new(1, []),
              Pids = [spawn(fun() ->
                                    [begin counters:add(C, 1, 1), atomics:add(A, 1, 2) end
                                     || _ <- lists:seq(1, 5000)],
                                    Parent ! {done, self()}
                            end) || _ <- lists:seq(1, 8)],
              [receive {done, P} -> ok end || P <- Pids],
              io:format("~p concurrent: ~p ~p~n", [Opts, counters:get(C, 1), atomics:get(A, 1)])
      end, [[atomics], [write_concurrency]]).

references() ->
    A = atomics:new(1, []),
    atomics:put(A, 1, 5),
    %% Survives collections with only the term holding it.
    [erlang:garbage_collect() || _ <- [1, 2, 3]],
    _ = [lists:seq(1, 100) || _ <- lists:seq(1, 1000)],
    show("after gc", fun() -> atomics:get(A, 1) end),
    %% Sent to another process, used there and sent back.
    Self = self(),
    P = spawn(fun() -> receive {R, From} -> atomics:add(R, 1, 1), erlang:garbage_collect(), From ! {back, R} end end),
    P ! {A, Self},
    B = receive {back, R} -> R end,
    show("round trip", fun() -> {B =:= A, B == A, atomics:get(B, 1), erlang:phash2(A) =:= erlang:phash2(B)} end),
    %% A map key and a persistent term.
    M = #{A => one, make_ref() => two},
    show("map key", fun() -> maps:get(B, M) end),
    persistent_term:put({?MODULE, ref}, A),
    show("persistent", fun() -> atomics:add_get(persistent_term:get({?MODULE, ref}), 1, 10) end),
    persistent_term:erase({?MODULE, ref}),
    show("compare", fun() -> {A =/= make_ref(), is_reference(A), length(erlang:ref_to_list(A)) > 5} end),
    show("size", fun() -> erts_debug:flat_size(A) end),
    %% Many short-lived arrays are freed as their terms die.
    [atomics:new(1000, []) || _ <- lists:seq(1, 2000)],
    erlang:garbage_collect(),
    show("still", fun() -> atomics:get(A, 1) end).
