%% Pids, ports and references of other nodes, built with binary_to_term on a node that is not
%% alive (erl -noshell): printing, node/1, type tests, equality and order mixed with local ids,
%% hashes, the external format (round trip, sizes, [safe] with an unknown node), ETS and map
%% keys.
%%
%% What is printed is the same on erl and beamvm by construction:
%% - The N in <N.Id.Serial>, #Port<N.Id>, #Ref<N.....> is 0 for this node's name and, for any
%%   other node, the atom index of the node name (erts' dist_entry_channel_no), which depends on
%%   the order each VM created its atoms in. norm/1 writes a non-zero N as "N"; that the same
%%   node gets the same N and other nodes other ones is checked separately.
%% - Sorted lists are printed as positions in the unsorted list, so that they do not depend on
%%   how the ids print.
%% - Local ids are built from bytes too (nonode@nohost, creation 0), never taken from self() or
%%   make_ref(), whose numbers differ between the VMs.
-module(ext_ids).
-export([main/0]).
-compile({nowarn_deprecated_function, [{erlang, phash, 2}]}).

pid(Node, Id, Ser, Cr) ->
    N = atom_to_binary(Node),
    binary_to_term(<<131, 88, 100, (byte_size(N)):16, N/binary, Id:32, Ser:32, Cr:32>>).
old_pid(Node, Id, Ser, Cr) ->
    N = atom_to_binary(Node),
    binary_to_term(<<131, 103, 100, (byte_size(N)):16, N/binary, Id:32, Ser:32, Cr:8>>).
port(Node, Id, Cr) ->
    N = atom_to_binary(Node),
    binary_to_term(<<131, 120, 100, (byte_size(N)):16, N/binary, Id:64, Cr:32>>).
new_port(Node, Id, Cr) ->
    N = atom_to_binary(Node),
    binary_to_term(<<131, 89, 100, (byte_size(N)):16, N/binary, Id:32, Cr:32>>).
ref(Node, Cr, Ws) ->
    N = atom_to_binary(Node),
    binary_to_term(<<131, 90, (length(Ws)):16, 100, (byte_size(N)):16, N/binary, Cr:32,
                     (<< <<W:32>> || W <- Ws >>)/binary>>).
new_ref(Node, Cr, Ws) ->
    N = atom_to_binary(Node),
    binary_to_term(<<131, 114, (length(Ws)):16, 100, (byte_size(N)):16, N/binary, Cr:8,
                     (<< <<W:32>> || W <- Ws >>)/binary>>).

norm(Text) -> re:replace(Text, "(<|#Port<|#Ref<)[1-9][0-9]*\\.", "\\1N.", [global, {return, list}]).
show(Label, T) -> io:format("~s: ~s~n", [Label, norm(io_lib:format("~p", [T]))]).
%% The N of a pid, port or reference's text.
node_no(T) ->
    Text = case T of
               _ when is_pid(T) -> pid_to_list(T);
               _ when is_port(T) -> port_to_list(T);
               _ -> ref_to_list(T)
           end,
    {match, [N]} = re:run(Text, "^(?:<|#Port<|#Ref<)([0-9]+)\\.", [{capture, all_but_first, list}]),
    list_to_integer(N).
positions(Sorted, All) -> [pos(X, All, 1) || X <- Sorted].
pos(X, [Y | _], I) when X =:= Y -> I;
pos(X, [_ | T], I) -> pos(X, T, I + 1).
try_(F) -> try F() catch C:R -> {C, R} end.

main() ->
    Pids = [pid('x@y', 5, 1, 7), pid('a@b', 3, 0, 2), pid(nonode@nohost, 1, 0, 3), pid('x@y', 5, 1, 8),
            pid(nonode@nohost, 9, 0, 0), pid('x@y', 1, 2, 7), pid('x@y', 9, 0, 7), pid('a@b', 1, 0, 1),
            pid('z@q', 9, 0, 1), pid('x@y', 16#12345678, 16#9abcdef, 7), old_pid('x@y', 4, 0, 3)],
    Ports = [port('x@y', 5, 7), port('x@y', 1 bsl 40, 7), port(nonode@nohost, 3, 9), port(nonode@nohost, 3, 0),
             new_port('a@b', 6, 2), port('z@q', 1, 1), port('x@y', 4, 8)],
    Refs = [ref('x@y', 7, [1, 2, 3]), ref('x@y', 7, [1, 2, 3, 4, 5]), ref('x@y', 7, [1]),
            ref(nonode@nohost, 3, [1, 2, 3]), ref('x@y', 7, [1, 2, 3, 0, 0]), ref(nonode@nohost, 0, [7, 8, 9]),
            ref(nonode@nohost, 0, [7]), ref('a@b', 2, [16#ffffffff, 1, 2]), ref('z@q', 1, [5, 6, 7]),
            new_ref('x@y', 3, [1, 2, 3]), ref('x@y', 7, [0, 0, 4])],
    All = Pids ++ Ports ++ Refs,
    show(pids, Pids),
    show(ports, Ports),
    show(refs, Refs),
    io:format("to_list: ~p~n", [[norm(pid_to_list(P)) || P <- Pids] ++ [norm(port_to_list(P)) || P <- Ports] ++
                                [norm(ref_to_list(R)) || R <- Refs]]),
    %% The N rule: 0 for this node's name, one number per other node name.
    Nos = [{node(X), node_no(X)} || X <- All],
    io:format("node numbers: ~p~n", [lists:usort([{Node, No =:= 0} || {Node, No} <- Nos])]),
    io:format("one number per node: ~p~n", [length(lists:usort(Nos)) =:= length(lists:usort([N || {N, _} <- Nos]))]),
    io:format("node/1: ~p~n", [[node(X) || X <- All]]),
    io:format("types: ~p~n", [[{is_pid(X), is_port(X), is_reference(X)} || X <- All]]),
    %% Equality, pairwise.
    Eq = [{I, J, X == Y, X =:= Y} || {I, X} <- lists:enumerate(All), {J, Y} <- lists:enumerate(All),
                                     I < J, X == Y orelse X =:= Y],
    io:format("equal pairs: ~p~n", [Eq]),
    %% Order: sorted as positions, each kind and all together.
    io:format("sorted pids: ~p~n", [positions(lists:sort(Pids), Pids)]),
    io:format("sorted ports: ~p~n", [positions(lists:sort(Ports), Ports)]),
    io:format("sorted refs: ~p~n", [positions(lists:sort(Refs), Refs)]),
    io:format("sorted all: ~p~n", [positions(lists:sort(lists:reverse(All)), All)]),
    io:format("lt: ~p~n", [[X < Y || X <- Pids, Y <- Pids]]),
    %% Hashes.
    io:format("phash2: ~p~n", [[erlang:phash2(X) || X <- All]]),
    io:format("phash2/2: ~p~n", [[erlang:phash2({X, [X]}, 1000) || X <- All]]),
    io:format("phash: ~p~n", [[erlang:phash(X, 1 bsl 32) || X <- All]]),
    %% The external format.
    io:format("term_to_binary: ~p~n", [[term_to_binary(X) || X <- All]]),
    io:format("round trip: ~p~n", [[binary_to_term(term_to_binary(X)) =:= X || X <- All]]),
    io:format("minor 2: ~p~n", [[term_to_binary(X, [{minor_version, 2}]) || X <- lists:sublist(All, 3)]]),
    io:format("external_size: ~p~n", [[erlang:external_size(X) || X <- All]]),
    io:format("flat_size: ~p~n", [[erts_debug:flat_size(X) || X <- All]]),
    %% Copied between heaps (a message) and through garbage collections, words unchanged.
    Self = self(),
    spawn(fun() -> garbage_collect(), Self ! {copy, All} end),
    Copy = receive {copy, C} -> C end,
    garbage_collect(),
    io:format("copied: ~p~n", [Copy =:= All andalso term_to_binary(Copy) =:= term_to_binary(All)]),
    io:format("in a tuple: ~p~n", [binary_to_term(term_to_binary(list_to_tuple(All))) =:= list_to_tuple(All)]),
    Unknown = list_to_binary("extids_" ++ "never_made@nowhere"),
    Safe = <<131, 88, 100, (byte_size(Unknown)):16, Unknown/binary, 0:32, 0:32, 1:32>>,
    io:format("safe unknown node: ~p~n", [try_(fun() -> binary_to_term(Safe, [safe]) end)]),
    io:format("safe known node: ~p~n", [norm(pid_to_list(binary_to_term(term_to_binary(hd(Pids)), [safe])))]),
    %% Malformed: creation above 3 in the 8-bit fields, a local pid or port out of range, a
    %% local reference of more than 3 words, 6 words.
    Bad = [<<131, 103, 100, 0, 3, "x@y", 0:32, 0:32, 4>>,
           <<131, 88, 100, 0, 13, "nonode@nohost", 16#8000:32, 0:32, 0:32>>,
           <<131, 89, 100, 0, 13, "nonode@nohost", 16#10000000:32, 0:32>>,
           <<131, 90, 0, 4, 100, 0, 13, "nonode@nohost", 0:32, 1:32, 2:32, 3:32, 4:32>>,
           <<131, 90, 0, 6, 100, 0, 3, "x@y", 0:32, 1:32, 2:32, 3:32, 4:32, 5:32, 6:32>>,
           <<131, 114, 0, 1, 100, 0, 3, "x@y", 0, 16#40000:32>>],
    io:format("bad: ~p~n", [[element(1, try_(fun() -> binary_to_term(B) end)) || B <- Bad]]),
    %% Timer and alias functions given another node's reference: never one of this node's.
    R1 = hd(Refs),
    io:format("timers and aliases: ~p~n",
              [[try_(F) || F <- [fun() -> erlang:cancel_timer(R1) end, fun() -> erlang:read_timer(R1) end,
                                 fun() -> erlang:cancel_timer(R1, [{async, true}]) end,
                                 fun() -> erlang:read_timer(R1, [{async, true}]) end,
                                 fun() -> unalias(R1) end,
                                 fun() -> element(1, try_(fun() -> erlang:demonitor(R1) end)) end]]]),
    io:format("replies: ~p~n", [[norm(io_lib:format("~p", [receive M -> M after 100 -> none end])) || _ <- [1, 2]]]),
    %% A local pid decoded from bytes is this node's own.
    Local = binary_to_term(<<131, 88, 100, 0, 13, "nonode@nohost", 7:32, 0:32, 0:32>>),
    io:format("local: ~p ~p ~p~n", [pid_to_list(Local), node(Local), term_to_binary(Local)]),
    %% ETS keys: a set found by equal terms decoded apart, an ordered_set in term order. erts
    %% hashes an external reference's first three id words whatever its length ("limitation
    %% #2" in utils.c), so a reference of another length is not looked up by a copy of itself
    %% (erl then reads past the reference): lookups leave those out.
    T = ets:new(t, [set]),
    [ets:insert(T, {X, I}) || {I, X} <- lists:enumerate(All)],
    Hashable = [X || X <- All, not is_reference(X) orelse length(string:split(ref_to_list(X), ".", all)) =:= 4],
    io:format("ets lookup: ~p~n", [[ets:lookup_element(T, binary_to_term(term_to_binary(X)), 2) || X <- Hashable]]),
    io:format("ets 3 and 5 words: ~p~n", [ets:lookup(T, ref('x@y', 7, [1, 2, 3, 0, 0]))
                                           =:= ets:lookup(T, ref('x@y', 7, [1, 2, 3]))]),
    O = ets:new(o, [ordered_set]),
    [ets:insert(O, {X}) || X <- All],
    io:format("ordered_set: ~p~n", [positions([K || {K} <- ets:tab2list(O)], All)]),
    %% Map keys: a flat map and a hash map (whose keys are hashed as ETS's: only Hashable ones,
    %% erl crashes on the others).
    Small = maps:from_list([{X, I} || {I, X} <- lists:enumerate(lists:sublist(All, 20))]),
    Big = maps:from_list([{X, I} || {I, X} <- lists:enumerate(Hashable)] ++ [{K, K} || K <- lists:seq(1, 40)]),
    io:format("maps: ~p ~p~n", [[maps:get(X, Small, none) || X <- All], [maps:get(binary_to_term(term_to_binary(X)), Big) || X <- Hashable]]),
    io:format("map order: ~p~n", [positions([K || K <- maps:keys(Small)], All)]),
    ok.
