%% The cluster tests' cases (tests/dist/cluster.sh). Each exported case runs on one node X
%% (called there by dist_driver through erpc) and acts on another node Y; it returns a term
%% that says what X saw. dist_driver replaces node names, pids, refs and ports in it by the
%% role of their node (a, b, c), so the same case on erl-only and mixed clusters prints the
%% same text. Every receive is bounded (?WAIT_MS); a missing message returns `missing`.
-module(dist_cases).
-export([run/2]).
-export([spawns/1, links/1, monitors/1, rpcs/1, erpcs/1, multicall/1, node_lists/1,
         remote_ids/1, ordering/1, large/1, pg_groups/1,
         watch_start/1, watch_report/1, dead_node/1, ping/1, cookie_file/1]).
%% Run on Y by the cases above.
-export([report_node/2, exit_after_go/1, wait_command/0, named_waiter/1, seq_receiver/2,
         echo/0, decode_and_reply/1, holder/0]).

-define(WAIT_MS, 10000).
-define(SEQ_COUNT, 10000).
-define(NAMED_SEQ_COUNT, 1000).
-define(PG_SCOPE, dist_pg).

%% dist_driver's entry: the case's output (error reports of processes it spawns included)
%% goes to this node's own `user`, not to the driver's group leader.
run(Case, Arg) ->
    group_leader(whereis(user), self()),
    ?MODULE:Case(Arg).

%% ---- remote spawn: spawn/4, spawn_link/4, spawn_monitor/4, spawn_request/5

spawns(Y) ->
    process_flag(trap_exit, true),
    Self = self(),
    P1 = spawn(Y, ?MODULE, report_node, [Self, spawn]),
    R1 = recv_tag(spawn, P1),
    Links = [begin
                 P = spawn_link(Y, ?MODULE, exit_after_go, [Why]),
                 P ! go,
                 {spawn_link, Why, recv_exit(P)}
             end || Why <- reasons()],
    Mons = [begin
                {P, M} = spawn_monitor(Y, ?MODULE, exit_after_go, [Why]),
                P ! go,
                {spawn_monitor, Why, node(P), recv_down(M)}
            end || Why <- reasons()],
    Req = erlang:spawn_request(Y, ?MODULE, exit_after_go, [{custom, request}], [monitor]),
    R2 = receive {spawn_reply, Req, ok, P2} -> P2 ! go, {node(P2), recv_down(Req)}
         after ?WAIT_MS -> missing end,
    Req2 = erlang:spawn_request(Y, ?MODULE, exit_after_go, [normal], [link, {reply, error_only}]),
    R3 = receive
             {spawn_reply, Req2, error, E} -> {error, E};
             {'EXIT', P3, _} = X when node(P3) =:= Y -> {linked_without_reply, X}
         after 0 -> no_reply_on_success
         end,
    %% Spawning a function that does not exist: the process runs and dies of undef.
    {P4, M4} = spawn_monitor(Y, no_such_module, no_such_function, []),
    R4 = case recv_down(M4) of {undef, _} -> undef; Other -> Other end,
    [{spawn, R1 =:= Y}, Links, Mons, {spawn_request, R2}, {error_only, R3},
     {undef, node(P4), R4}].

reasons() -> [normal, kill, {custom, "reason", 42, <<"bin">>}].

report_node(To, Tag) -> To ! {Tag, self(), node()}.

exit_after_go(Why) ->
    receive go -> ok after ?WAIT_MS -> ok end,
    exit(Why).

%% ---- links to running remote processes: exit signals both ways, unlink

links(Y) ->
    process_flag(trap_exit, true),
    %% The remote process exits: X's link delivers its reason.
    Own = [begin P = waiter(Y), link(P), P ! {exit, Why}, {remote_exits, Why, recv_exit(P)} end
           || Why <- reasons()],
    %% X sends the exit signal (exit/2) to a remote process that does not trap exits.
    Sent = [begin P = waiter(Y), link(P), exit(P, Why), {exit2, Why, recv_exit(P)} end
            || Why <- [kill, {custom, sent}]],
    %% exit(P, normal) leaves a process that does not trap exits running.
    P5 = waiter(Y),
    exit(P5, normal),
    Alive = rpc:call(Y, erlang, is_process_alive, [P5]),
    P5 ! {exit, done},
    %% After unlink/1 no exit signal comes (the monitor's 'DOWN' is the barrier).
    P6 = waiter(Y),
    link(P6),
    unlink(P6),
    M6 = monitor(process, P6),
    P6 ! {exit, after_unlink},
    Down6 = recv_down(M6),
    Unlinked = receive {'EXIT', P6, R} -> {exit_after_unlink, R} after 200 -> no_exit end,
    %% A link to a remote process that is gone: noproc as the exit reason.
    P7 = waiter(Y),
    M7 = monitor(process, P7),
    P7 ! {exit, gone},
    gone = recv_down(M7),
    link(P7),
    Dead = recv_exit(P7),
    [Own, Sent, {exit_normal_alive, Alive}, {unlink, Down6, Unlinked}, {link_dead, Dead}].

waiter(Y) -> spawn(Y, ?MODULE, wait_command, []).

wait_command() ->
    receive
        {exit, Why} -> exit(Why);
        {ping, From} -> From ! {pong, self()}, wait_command()
    after ?WAIT_MS * 3 -> exit(waited_too_long)
    end.

%% ---- monitors: by pid and by name, demonitor, noproc

monitors(Y) ->
    P1 = waiter(Y),
    M1 = monitor(process, P1),
    true = demonitor(M1),
    M2 = monitor(process, P1),
    P1 ! {exit, {custom, monitored}},
    Down2 = recv_down(M2),
    Stale = receive {'DOWN', M1, _, _, _} -> stale_down after 0 -> no_stale_down end,
    %% demonitor with flush once the 'DOWN' is queued: M3b's 'DOWN' comes from the same
    %% process after M3's (signals between two processes keep their order).
    P2 = waiter(Y),
    M3 = monitor(process, P2),
    M3b = monitor(process, P2),
    P2 ! {exit, flushed},
    flushed = recv_down(M3b),
    Flushed = demonitor(M3, [flush]),
    AfterFlush = receive {'DOWN', M3, _, _, _} -> down_left after 0 -> none_left end,
    %% By registered name on Y
    Name = list_to_atom("dist_named_" ++ integer_to_list(erlang:unique_integer([positive]))),
    P3 = spawn(Y, ?MODULE, named_waiter, [Name]),
    MRef = monitor(process, P3),
    wait_registered(Y, Name, 100),
    M4 = monitor(process, {Name, Y}),
    P3 ! {exit, by_name},
    ByName = receive {'DOWN', M4, process, Obj, R4} -> {Obj =:= {Name, Y}, R4}
             after ?WAIT_MS -> missing end,
    by_name = recv_down(MRef),
    %% Monitoring a name that is not registered, and a pid that is gone
    M5 = monitor(process, {dist_no_such_name, Y}),
    NoName = recv_down(M5),
    M6 = monitor(process, P3),
    NoProc = recv_down(M6),
    [{down, Down2, Stale}, {flush, Flushed, AfterFlush}, {by_name, ByName},
     {unregistered_name, NoName}, {gone_pid, NoProc}].

named_waiter(Name) ->
    register(Name, self()),
    wait_command().

wait_registered(_, _, 0) -> missing;
wait_registered(Y, Name, N) ->
    case rpc:call(Y, erlang, whereis, [Name]) of
        P when is_pid(P) -> ok;
        _ -> timer:sleep(10), wait_registered(Y, Name, N - 1)
    end.

%% ---- rpc and erpc

rpcs(Y) ->
    Badrpc = fun({badrpc, {'EXIT', {Why, _Stack}}}) -> {badrpc_exit, Why};
                (Other) -> Other end,
    [{node, rpc:call(Y, erlang, node, []) =:= Y},
     {seq, rpc:call(Y, lists, seq, [1, 5])},
     {error, Badrpc(rpc:call(Y, erlang, error, [boom]))},
     {throw, rpc:call(Y, erlang, throw, [ball])},
     {exit, Badrpc(rpc:call(Y, erlang, exit, [bye]))},
     {undef, Badrpc(rpc:call(Y, no_such_module, f, []))},
     {timeout, rpc:call(Y, timer, sleep, [2000], 100)},
     {cast, rpc:cast(Y, erlang, node, [])}].

erpcs(Y) ->
    Catch = fun(F) -> try F() catch C:{exception, R, _Stack} -> {C, exception, R};
                                    C:R -> {C, R} end end,
    [{node, erpc:call(Y, erlang, node, []) =:= Y},
     {fun_call, erpc:call(Y, fun() -> {node(), lists:sum(lists:seq(1, 100))} end)},
     {error, Catch(fun() -> erpc:call(Y, erlang, error, [{custom, boom}]) end)},
     {throw, Catch(fun() -> erpc:call(Y, erlang, throw, [ball]) end)},
     {exit, Catch(fun() -> erpc:call(Y, erlang, exit, [bye]) end)},
     {timeout, Catch(fun() -> erpc:call(Y, timer, sleep, [2000], 100) end)},
     {send_request, begin
                        Req = erpc:send_request(Y, erlang, node, []),
                        erpc:receive_response(Req, ?WAIT_MS) =:= Y
                    end}].

%% erpc:multicall and rpc:multicall to all nodes from X, X itself included; Nodes is
%% [A, B, C]. Bounded by a timeout: erpc:multicall's default is infinity.
multicall(Nodes) ->
    [{multicall, erpc:multicall(Nodes, erlang, node, [], ?WAIT_MS)},
     {rpc_multicall, rpc:multicall(Nodes, erlang, node, [], ?WAIT_MS)},
     {multicall_error, [case R of {error, {exception, Why, _}} -> {error, Why}; _ -> R end
                        || R <- erpc:multicall(Nodes, erlang, error, [oops], ?WAIT_MS)]},
     {multicast, erpc:multicast(Nodes, erlang, node, [])}].

node_lists(_) ->
    [{node, node()}, {is_alive, is_alive()}, {visible, lists:sort(nodes())},
     {this_visible, lists:sort(nodes([this, visible]))},
     {connected, lists:sort(nodes(connected))}, {hidden_count, length(nodes(hidden))}].

%% ---- remote pids, refs and ports: printed, compared, term_to_binary round trip

remote_ids(Y) ->
    Self = self(),
    P = spawn(Y, ?MODULE, report_node, [Self, id]),
    Ptext = pid_to_list(P),
    [N | _] = string:tokens(tl(Ptext), "."),
    {id, P, Y} = receive M = {id, P, _} -> M after ?WAIT_MS -> missing end,
    Ref = erpc:call(Y, erlang, make_ref, []),
    Port = erpc:call(Y, fun() -> hd(erlang:ports()) end),
    Back = erpc:call(Y, erlang, binary_to_term, [term_to_binary({P, Ref, self()})]),
    D = spawn(Y, ?MODULE, decode_and_reply, [term_to_binary(self())]),
    Decoded = receive {decoded, D} -> ok after ?WAIT_MS -> missing end,
    [{pid_node, node(P) =:= Y},
     {printed, lists:flatten(io_lib:format("~p", [P])) =:= Ptext, list_to_integer(N) > 0,
      length(string:tokens(Ptext, "<.>")) =:= 3},
     {list_to_pid, list_to_pid(Ptext) =:= P},
     {term_to_binary, binary_to_term(term_to_binary(P)) =:= P,
      binary_to_term(term_to_binary(Ref)) =:= Ref, binary_to_term(term_to_binary(Port)) =:= Port},
     {compare, P =:= P, P =/= self(), lists:usort([P, self(), P]) =:= lists:usort([self(), P])},
     {ref, node(Ref) =:= Y, is_reference(Ref), Ref =/= make_ref()},
     {port, node(Port) =:= Y, is_port(Port), Port =/= hd(erlang:ports())},
     {round_trip_through_y, Back =:= {P, Ref, self()}},
     {decoded_on_y_and_used, Decoded}].

decode_and_reply(Bin) -> binary_to_term(Bin) ! {decoded, self()}.

%% ---- message ordering and large messages

ordering(Y) ->
    R = spawn(Y, ?MODULE, seq_receiver, [self(), ?SEQ_COUNT]),
    [R ! {seq, I} || I <- lists:seq(1, ?SEQ_COUNT)],
    Pid = receive {seq_done, R, Count, InOrder} -> {Count, InOrder} after ?WAIT_MS * 3 -> missing end,
    Name = list_to_atom("dist_seq_" ++ integer_to_list(erlang:unique_integer([positive]))),
    Rn = spawn(Y, fun() -> register(Name, self()), seq_receiver_named(Name) end),
    wait_registered(Y, Name, 200),
    [{Name, Y} ! {seq, I} || I <- lists:seq(1, ?NAMED_SEQ_COUNT)],
    {Name, Y} ! {report, self()},
    Named = receive {seq_done, Rn, C2, O2} -> {C2, O2} after ?WAIT_MS * 3 -> missing end,
    [{pid_send, Pid}, {reg_send, Named}].

seq_receiver(From, N) -> seq_receiver(From, N, 1, true).

seq_receiver(From, N, I, InOrder) when I > N -> From ! {seq_done, self(), I - 1, InOrder};
seq_receiver(From, N, I, InOrder) ->
    receive {seq, J} -> seq_receiver(From, N, I + 1, InOrder andalso J =:= I)
    after ?WAIT_MS * 3 -> From ! {seq_done, self(), I - 1, InOrder}
    end.

seq_receiver_named(_Name) -> seq_named(1, true).

seq_named(I, InOrder) ->
    receive
        {seq, J} -> seq_named(I + 1, InOrder andalso J =:= I);
        {report, From} -> From ! {seq_done, self(), I - 1, InOrder}
    after ?WAIT_MS * 3 -> ok
    end.

large(Y) ->
    E = spawn(Y, ?MODULE, echo, []),
    Terms = [{bin_1mib, binary:copy(<<"0123456789abcdef">>, 65536)},
             {bin_10mib, crypto_free_bytes(10 * 1024 * 1024)},
             {bitstring, <<(binary:copy(<<7>>, 1024 * 1024))/binary, 5:3>>},
             {sub_binary, binary:part(binary:copy(<<"xyz">>, 400000), 7, 1000000)},
             {deep_tuple, deep(10000)},
             {long_list, [{I, I * I, <<I:32>>} || I <- lists:seq(1, 100000)]},
             {mixed, #{atoms => ['ünïcødé', 'a b', ''], big => 1 bsl 300, neg => -(1 bsl 70),
                       floats => [0.1, -2.5e300, 1.0e-300], list => lists:seq(1, 1000),
                       map => maps:from_list([{K, K} || K <- lists:seq(1, 1000)]),
                       fun_ext => fun lists:reverse/1, pid => self(), ref => make_ref()}}],
    Echoed = [begin
         E ! {echo, self(), T},
         receive {echoed, E, Back, Size} ->
                 {Tag, Back =:= T, Size =:= erlang:external_size(T) orelse {size, Size}}
         after ?WAIT_MS * 3 -> {Tag, missing}
         end
     end || {Tag, T} <- Terms],
    E ! stop,
    Echoed.

echo() ->
    receive
        {echo, From, T} -> From ! {echoed, self(), T, erlang:external_size(T)}, echo();
        stop -> ok
    after ?WAIT_MS * 3 -> ok
    end.

%% Varied bytes, the same on every run.
crypto_free_bytes(N) ->
    {Bin, _} = rand:bytes_s(N, rand:seed_s(exsss, {1, 2, 3})),
    Bin.

deep(0) -> leaf;
deep(N) -> {N, deep(N - 1)}.

%% ---- pg: join and leave on X seen on Y

pg_groups(Y) ->
    Group = {group, node(), Y},
    P = spawn(?MODULE, holder, []),
    ok = pg:join(?PG_SCOPE, Group, P),
    Joined = wait_members(Y, Group, [P]),
    ok = pg:join(?PG_SCOPE, Group, [P, self()]),
    Twice = wait_members(Y, Group, lists:sort([P, P, self()])),
    ok = pg:leave(?PG_SCOPE, Group, [P, self()]),
    Left = wait_members(Y, Group, [P]),
    exit(P, kill),
    Exited = wait_members(Y, Group, []),
    %% Y's own member seen on X
    Q = spawn(Y, ?MODULE, holder, []),
    ok = erpc:call(Y, pg, join, [?PG_SCOPE, Group, Q]),
    Remote = wait_members(node(), Group, [Q]),
    Q ! stop,
    Gone = wait_members(node(), Group, []),
    [{join, Joined}, {join_twice, Twice}, {leave, Left}, {member_exit, Exited},
     {remote_join, Remote}, {remote_exit, Gone}].

holder() -> receive stop -> ok after ?WAIT_MS * 3 -> ok end.

wait_members(Node, Group, Want) -> wait_members(Node, Group, Want, 500).

wait_members(Node, Group, Want, 0) ->
    {not_seen, erpc:call(Node, pg, get_members, [?PG_SCOPE, Group]), Want};
wait_members(Node, Group, Want, N) ->
    case lists:sort(erpc:call(Node, pg, get_members, [?PG_SCOPE, Group])) of
        Want -> ok;
        _ -> timer:sleep(10), wait_members(Node, Group, Want, N - 1)
    end.

%% ---- a node's death seen from X: monitor_node, monitor_nodes, link, monitor

%% Starts a registered watcher on X that will see Y die.
watch_start(Y) ->
    Parent = self(),
    W = spawn(fun() -> watcher(Parent, Y) end),
    receive {watching, W} -> ok after ?WAIT_MS -> missing end.

watcher(Parent, Y) ->
    register(dist_watcher, self()),
    process_flag(trap_exit, true),
    true = monitor_node(Y, true),
    ok = net_kernel:monitor_nodes(true, [nodedown_reason]),
    P = waiter(Y),
    link(P),
    M = monitor(process, waiter(Y)),
    Parent ! {watching, self()},
    watcher_collect(Y, M, []).

watcher_collect(Y, M, Seen) ->
    receive
        {report, From} -> From ! {watched, lists:sort(Seen)};
        {nodedown, Y} -> watcher_collect(Y, M, [monitor_node_nodedown | Seen]);
        {nodedown, Y, Info} ->
            Why = proplists:get_value(nodedown_reason, Info),
            watcher_collect(Y, M, [{monitor_nodes_nodedown, Why} | Seen]);
        {nodeup, _, _} -> watcher_collect(Y, M, Seen);
        {'EXIT', P, Why} when node(P) =:= Y -> watcher_collect(Y, M, [{link_exit, Why} | Seen]);
        {'DOWN', M, process, _, Why} -> watcher_collect(Y, M, [{monitor_down, Why} | Seen])
    after ?WAIT_MS * 3 -> ok
    end.

%% What the watcher saw, once it has 4 messages queued (monitor_node's and monitor_nodes's
%% nodedown, the link's 'EXIT', the monitor's 'DOWN') or after a second.
watch_report(_Y) ->
    wait_watch(50),
    dist_watcher ! {report, self()},
    receive {watched, Seen} -> Seen after ?WAIT_MS -> missing end.

wait_watch(0) -> ok;
wait_watch(N) ->
    {messages, Q} = process_info(whereis(dist_watcher), messages),
    case length(Q) >= 4 of
        true -> ok;
        false -> timer:sleep(20), wait_watch(N - 1)
    end.

%% What X sees when it reaches for Y after Y was killed.
dead_node(Y) ->
    process_flag(trap_exit, true),
    Erpc = try erpc:call(Y, erlang, node, [], ?WAIT_MS) catch C:R -> {C, R} end,
    {_, M1} = spawn_monitor(Y, erlang, node, []),
    M2 = monitor(process, {some_name, Y}),
    L = spawn_link(Y, erlang, node, []),
    [{erpc, Erpc}, {rpc, rpc:call(Y, erlang, node, [])}, {spawn_monitor, recv_down(M1)},
     {monitor_name, recv_down(M2)}, {spawn_link, node(L), recv_exit(L)},
     {ping, net_adm:ping(Y)}, {visible, lists:sort(nodes())}].

%% ---- cookies

ping(Y) -> net_adm:ping(Y).

%% The cookie file auth.erl made in $HOME when the node had no -setcookie and none there.
cookie_file(_) ->
    File = filename:join(os:getenv("HOME"), ".erlang.cookie"),
    {ok, Info} = file:read_file_info(File),
    {ok, Text} = file:read_file(File),
    Cookie = binary_to_list(Text),
    [{mode, element(8, Info) band 8#777}, {length, length(Cookie)},
     {upper_case_letters, lists:all(fun(C) -> C >= $A andalso C =< $Z end, Cookie)},
     {same_as_get_cookie, list_to_atom(Cookie) =:= erlang:get_cookie()}].

%% ---- helpers

recv_tag(Tag, P) -> receive {Tag, P, Node} -> Node after ?WAIT_MS -> missing end.
recv_exit(P) -> receive {'EXIT', P, Why} -> Why after ?WAIT_MS -> missing end.
recv_down(M) -> receive {'DOWN', M, process, _, Why} -> Why after ?WAIT_MS -> missing end.
