%% erlang:crc32/1,2, adler32/1,2 and their combine/3, erlang:md5/1, md5_init/0, md5_update/2, md5_final/1 (contexts printed with every byte
%% that has been written: their buffer bytes depend on how the input was cut; erl leaves the
%% buffer of md5_init/0 uninitialised, so bytes not yet written are left out), memory/0,1 (shapes and invariants, as the
%% figures differ between VMs), iolist_to_iovec/1 (which binaries come out), the dt_*
%% functions, nodes/0,1,2, the dist_ctrl_* functions, erlang:'!'/2, append/2, subtract/2,
%% bump_reductions/1, is_alive/0.
-module(bif_md5_memory).
-export([main/0]).

outcome(F, Args) ->
    try apply(erlang, F, Args) of
        V when is_pid(V) -> {ok, pid};
        V when is_reference(V) -> {ok, ref};
        V -> {ok, V}
    catch
        C:E:S -> {C, E, frame(S)}
    end.

frame([{M, F, A, Loc} | _]) ->
    {M, F, if is_list(A) -> length(A); true -> A end, [K || {K, _} <- Loc]};
frame(_) -> none.

hostile() ->
    [a, -1, 1 bsl 70, 1.5, [a | b], <<1:3>>, <<"x">>, self(), make_ref(), #{a => 1},
     fun() -> ok end, {1, 2}, [], "abc", [256], [-1], [<<"a">> | <<"b">>], [[[]]]].

numbered(L) -> lists:zip(lists:seq(1, length(L)), L).

md5_inputs() ->
    Big = list_to_binary([X rem 256 || X <- lists:seq(1, 1000)]),
    <<_:3/binary, Sub:500/binary, _/binary>> = Big,
    [<<>>, "", "abc", <<"abc">>, lists:seq(0, 255), Big, Sub, [Sub, "tail"], ["a", [<<"bc">>, [$d]], <<"e">>],
     lists:duplicate(130, $x), [lists:duplicate(99, $y), <<"zz">>, lists:duplicate(150, $w)],
     [<<"ab">> | <<"cd">>], [lists:duplicate(63, $q) | <<"r">>], lists:duplicate(64, $s),
     [<<>>, [], [[]], <<"t">>]].

main() ->
    %% md5/1 and the incremental functions agree, and match erl byte for byte.
    [io:format("md5 ~w ~w~n", [I, erlang:md5(In)]) || {I, In} <- numbered(md5_inputs())],
    Ctx0 = erlang:md5_init(),
    io:format("init ~w~n", [written(Ctx0, 0)]),
    Ctxs = lists:foldl(fun(In, [{C, Fed} | _] = Acc) -> [{erlang:md5_update(C, In), Fed + iolist_size(In)} | Acc] end,
                       [{Ctx0, 0}], md5_inputs()),
    [io:format("ctx ~w ~w~n", [I, written(C, Fed)]) || {I, {C, Fed}} <- numbered(lists:reverse(Ctxs))],
    {Last, _} = hd(Ctxs),
    io:format("final ~w~n", [erlang:md5_final(Last)]),
    io:format("same as one md5 ~w~n", [erlang:md5_final(Last) =:= erlang:md5(md5_inputs())]),
    io:format("final of init ~w~n", [erlang:md5_final(Ctx0) =:= erlang:md5(<<>>)]),
    %% Any 88-byte binary is a context; others are refused.
    Odd = list_to_binary(lists:seq(1, 88)),
    io:format("odd context ~w~n", [[outcome(md5_final, [Odd]), outcome(md5_update, [Odd, "abc"])]]),
    [io:format("md5 ~w -> ~w~n", [I, outcome(md5, [A])]) || {I, A} <- numbered(hostile())],
    [io:format("md5_update ctx ~w -> ~w~n", [I, case outcome(md5_update, [Ctx0, A]) of
                                                      {ok, C} -> {ok, written(C, iolist_size(A))};
                                                      O -> O
                                                  end]) || {I, A} <- numbered(hostile())],
    [io:format("md5_update ~w -> ~w~n", [I, outcome(md5_update, [A, "abc"])]) || {I, A} <- numbered(hostile())],
    [io:format("md5_final ~w -> ~w~n", [I, outcome(md5_final, [A])]) || {I, A} <- numbered(hostile())],
    io:format("short context ~w~n", [outcome(md5_final, [binary:part(Ctx0, 0, 87)])]),

    %% CRC-32 and Adler-32, whole and in two parts joined.
    [io:format("crc ~w ~w ~w~n", [I, erlang:crc32(In), erlang:adler32(In)]) || {I, In} <- numbered(md5_inputs())],
    Sums = [{erlang:crc32(erlang:crc32(A), B), erlang:adler32(erlang:adler32(A), B),
             erlang:crc32_combine(erlang:crc32(A), erlang:crc32(B), iolist_size(B)),
             erlang:adler32_combine(erlang:adler32(A), erlang:adler32(B), iolist_size(B))}
            || {A, B} <- [{"abc", "def"}, {<<>>, "x"}, {lists:seq(1, 200), <<"tail">>}]],
    io:format("crc parts ~w~n", [Sums]),
    [io:format("~w ~w -> ~w~n", [F, I, outcome(F, [A])]) || F <- [crc32, adler32], {I, A} <- numbered(hostile())],
    [io:format("~w/2 ~w -> ~w~n", [F, I, outcome(F, [A, "abc"])]) || F <- [crc32, adler32], {I, A} <- numbered(hostile() ++ [0, 1 bsl 32, (1 bsl 32) - 1])],
    [io:format("~w ~w -> ~w~n", [F, Args, outcome(F, Args)])
     || F <- [crc32_combine, adler32_combine],
        Args <- [[0, 0, 0], [1, 2, 3], [(1 bsl 32) - 1, (1 bsl 32) - 1, (1 bsl 32) - 1], [1 bsl 32, 0, 0], [0, -1, 0],
                 [0, 0, 1 bsl 32], [a, 0, 0], [0, 0, 1.0]]],

    %% memory/0,1: OTP's keys in OTP's order, non-negative integers, consistent figures.
    M = erlang:memory(),
    io:format("memory keys ~w~n", [[K || {K, _} <- M]]),
    io:format("memory integers ~w~n", [lists:all(fun({_, V}) -> is_integer(V) andalso V >= 0 end, M)]),
    V = fun(K) -> proplists:get_value(K, M) end,
    io:format("total = processes + system ~w~n", [V(total) =:= V(processes) + V(system)]),
    io:format("used within allocated ~w ~w~n", [V(processes_used) =< V(processes), V(atom_used) =< V(atom)]),
    io:format("system covers atom, binary, code, ets ~w~n", [V(system) >= V(atom) + V(binary) + V(code) + V(ets)]),
    io:format("nonzero ~w~n", [[K || K <- [total, processes, processes_used, system, atom, atom_used, code], V(K) > 0]]),
    io:format("memory/1 types ~w~n", [[is_integer(erlang:memory(K)) || {K, _} <- M]]),
    io:format("memory/1 list ~w~n", [[K || {K, _} <- erlang:memory([code, total, code])]]),
    io:format("memory([]) ~w~n", [erlang:memory([])]),
    [io:format("memory ~w -> ~w~n", [I, case outcome(memory, [A]) of {ok, _} -> ok; O -> O end])
     || {I, A} <- numbered(hostile() ++ [maximum, [total, foo], [total | foo], [foo]])],

    %% iolist_to_iovec/1: sizes and referenced sizes of what comes out.
    B1000 = list_to_binary(lists:duplicate(1000, $a)),
    B300 = binary:copy(<<"b">>, 300),
    B65 = binary:copy(<<"c">>, 65),
    <<_:8, Sub999/binary>> = B1000,
    Iovs = [<<>>, [<<>>], [[]], <<"x">>, "abc", [<<"ab">>, "cd", <<"ef">>], [B1000], [B1000, B1000],
            ["xy", B1000, "z"], [<<"ab">> | <<"cd">>], [B1000 | B300], Sub999, [Sub999, "q"],
            [$a, [<<"b">>, [$c]], <<"d">>], lists:duplicate(5000, $z), [B300, B300], [B65, B65],
            [B65, B300, B65], [B300, "x", B300], [B1000, "x", B65], lists:duplicate(40, B300),
            [lists:duplicate(9000, $k), B1000], lists:duplicate(100, lists:duplicate(100, $m))],
    [io:format("iovec ~w ~w~n", [I, [{byte_size(X), binary:referenced_byte_size(X)} || X <- erlang:iolist_to_iovec(A)]])
     || {I, A} <- numbered(Iovs)],
    io:format("iovec content ~w~n", [[iolist_to_binary(erlang:iolist_to_iovec(A)) =:= iolist_to_binary(A) || A <- Iovs]]),
    [io:format("iovec ~w -> ~w~n", [I, outcome(iolist_to_iovec, [A])]) || {I, A} <- numbered(hostile())],

    %% DTrace tags, as a build without VM probes answers.
    [io:format("~w -> ~w~n", [F, outcome(F, [])]) || F <- [dt_get_tag, dt_get_tag_data]],
    [io:format("~w ~w -> ~w~n", [F, I, outcome(F, [A])])
     || F <- [dt_put_tag, dt_prepend_vm_tag_data, dt_append_vm_tag_data, dt_spread_tag, dt_restore_tag],
        {I, A} <- numbered(hostile() ++ [true, false, undefined, {0, []}])],

    %% A node without distribution.
    io:format("alive ~w node ~w nodes ~w~n", [is_alive(), node(), nodes()]),
    Types = [visible, hidden, connected, this, known, [this, known], [], [visible, foo], [this | known], foo, 1, [this, this]],
    [io:format("nodes ~w -> ~w~n", [T, outcome(nodes, [T])]) || T <- Types],
    Opts = [#{}, #{connection_id => true}, #{node_type => true}, #{connection_id => true, node_type => true},
            #{connection_id => false, node_type => false}, #{foo => true}, #{node_type => 1}, [], a],
    [io:format("nodes ~w ~w -> ~w~n", [T, O, outcome(nodes, [T, O])]) || T <- [visible, this, known, [this, known], foo], O <- Opts],
    [io:format("~w -> ~w~n", [F, outcome(F, Args)])
     || {F, Args} <- [{dist_ctrl_input_handler, [a, self()]}, {dist_ctrl_put_data, [make_ref(), <<"x">>]},
                      {dist_ctrl_get_data, [a]}, {dist_ctrl_get_data_notification, [make_ref()]},
                      {dist_ctrl_set_opt, [a, get_size, true]}, {dist_ctrl_get_opt, [self(), get_size]}]],

    [io:format("monitor_node ~w ~w -> ~w~n", [N, B, outcome(monitor_node, [N, B])])
     || N <- [foo@bar, nonode@nohost, 1, "a"], B <- [true, false, x]],
    [io:format("monitor_node ~w ~w ~w -> ~w~n", [N, B, O, outcome(monitor_node, [N, B, O])])
     || N <- [foo@bar, nonode@nohost, 1], B <- [true, x], O <- [[], [allow_passive_connect], [x], [a | b], x]],
    io:format("dist_get_stat ~w~n", [[outcome(dist_get_stat, [A]) || A <- [a, make_ref(), self()]]]),
    io:format("no nodedown ~w~n", [receive {nodedown, _} = M -> M after 0 -> none end]),
    %% Operators as functions.
    Dests = [self(), a, -1, {1, 2}, [], {a, nonode@nohost}, {a, b}, "a", <<"a">>],
    [io:format("'!' ~w -> ~w~n", [I, outcome('!', [D, msg])]) || {I, D} <- numbered(Dests)],
    register(bif_md5_memory_main, self()),
    io:format("'!' registered ~w~n", [outcome('!', [bif_md5_memory_main, hello])]),
    io:format("mailbox ~w~n", [receive_all([])]),
    Lists = [[], "abc", [a | b], a, [1, 2, 1], {1}],
    [io:format("append ~w ~w -> ~w~n", [I, J, outcome(append, [A, B])]) || {I, A} <- numbered(Lists), {J, B} <- numbered(Lists)],
    [io:format("subtract ~w ~w -> ~w~n", [I, J, outcome(subtract, [A, B])]) || {I, A} <- numbered(Lists), {J, B} <- numbered(Lists)],
    [io:format("bump_reductions ~w -> ~w~n", [N, outcome(bump_reductions, [N])])
     || N <- [0, 1, 4000, 100000, 1 bsl 59, 1 bsl 62, -1, a, 1.0]],
    {reductions, R0} = process_info(self(), reductions),
    erlang:bump_reductions(1000),
    {reductions, R1} = process_info(self(), reductions),
    io:format("bump counted ~w~n", [R1 - R0 >= 1000]),
    ok.

%% State and bit count, and the buffer bytes written so far.
written(<<Head:24/binary, Buffer:64/binary>>, Fed) ->
    {Head, binary:part(Buffer, 0, min(Fed, 64))}.

receive_all(Acc) ->
    receive M -> receive_all([M | Acc]) after 0 -> lists:reverse(Acc) end.
