%% Receive markers: erlc brackets make_ref/0, monitor/2 and spawn_monitor with recv_marker_*
%% instructions so the receive that waits for the fresh reference skips the older messages.
%% Skipping must never change what is received: these checks put older messages that look
%% like the reply (other refs, the same shape) in front, remove messages before the marker
%% between its reserve and its use, nest more markers than a process keeps (8), leave markers
%% behind through exceptions and timeouts, and check the rest of the mailbox afterwards,
%% in order. Also: a receive whose `after` value lives in an x register (re-entered after
%% wake-ups), bad `after` values and the receive after one (OTP gh-5235), demonitor with flush.
%% Each check runs in a fresh process; no pids or refs are printed.
-module(proc_recv_markers).
-export([main/0]).

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

in_fresh(F) ->
    Main = self(),
    {P, Ref} = spawn_monitor(fun() -> Main ! {result, self(), try F() catch C:R -> {C, R} end} end),
    receive
        {result, P, R} -> receive {'DOWN', Ref, _, _, _} -> ok end, R;
        {'DOWN', Ref, process, P, Why} -> {died, Why}
    end.

mailbox() -> receive M -> [M | mailbox()] after 0 -> [] end.

id(X) -> X.

%% Replies {Ref, {echo, Msg}} to {Ref, From, Msg}, N times for {Ref, From, Msg, N}.
server() ->
    receive
        {Ref, From, Msg} -> From ! {Ref, {echo, Msg}}, server();
        {Ref, From, Msg, N} -> [From ! {Ref, {echo, Msg, I}} || I <- lists:seq(1, N)], server();
        stop -> ok
    end.

%% A call in OTP's shape: monitor, send, receive the reply or DOWN, demonitor with flush.
call(Srv, Msg) ->
    Mref = erlang:monitor(process, Srv),
    Srv ! {Mref, self(), Msg},
    receive
        {Mref, Reply} -> erlang:demonitor(Mref, [flush]), Reply;
        {'DOWN', Mref, _, _, Reason} -> {down, Reason}
    end.

%% The same with make_ref and a function called between the send and the receive.
call_ref(Srv, Msg, Between) ->
    Ref = make_ref(),
    Srv ! {Ref, self(), Msg},
    Between(),
    receive {Ref, Reply} -> Reply end.

%% Older messages that resemble replies: {OtherRef, X}, {'DOWN', OtherRef, ...}.
decoys(N) ->
    [self() ! {make_ref(), {echo, decoy}} || _ <- lists:seq(1, N)],
    [self() ! {'DOWN', make_ref(), process, self(), decoy} || _ <- lists:seq(1, N)],
    [self() ! {plain, I} || I <- lists:seq(1, N)],
    ok.

summary(Msgs) ->
    {length(Msgs),
     length([x || {R, {echo, decoy}} <- Msgs, is_reference(R)]),
     length([x || {'DOWN', _, process, _, decoy} <- Msgs]),
     [I || {plain, I} <- Msgs]}.

main() ->
    basic(),
    removal_between(),
    nesting(),
    left_behind(),
    signals_in_flight(),
    timeouts(),
    after_limits(),
    monitors(),
    ok.

basic() ->
    t(call_past_decoys, fun() -> in_fresh(fun() ->
        Srv = spawn_link(fun server/0),
        decoys(300),
        Rs = [call(Srv, I) || I <- lists:seq(1, 50)],
        Srv ! stop,
        {Rs, summary(mailbox())}
    end) end),
    t(make_ref_past_decoys, fun() -> in_fresh(fun() ->
        Srv = spawn_link(fun server/0),
        decoys(200),
        Rs = [call_ref(Srv, I, fun() -> ok end) || I <- lists:seq(1, 30)],
        Srv ! stop,
        {Rs, summary(mailbox())}
    end) end),
    t(reply_sent_to_self, fun() -> in_fresh(fun() ->
        decoys(50),
        Ref = make_ref(),
        self() ! {Ref, first},
        self() ! {Ref, second},
        A = receive {Ref, X} -> X end,
        B = receive {Ref, Y} -> Y end,
        {A, B, summary(mailbox())}
    end) end),
    t(empty_mailbox, fun() -> in_fresh(fun() ->
        Srv = spawn_link(fun server/0),
        Rs = [call(Srv, I) || I <- lists:seq(1, 5)],
        Srv ! stop,
        {Rs, mailbox()}
    end) end).

%% Between the reserve and the receive, messages before the marker are taken out (by a
%% receive in the called fun): the marker must move with them, not skip a new message.
removal_between() ->
    t(removed_before_marker, fun() -> in_fresh(fun() ->
        Srv = spawn_link(fun server/0),
        [self() ! {plain, I} || I <- lists:seq(1, 20)],
        Take = fun() -> [receive {plain, I} -> I end || I <- [3, 7, 1, 20, 12]] end,
        R = call_ref(Srv, hello, Take),
        Srv ! stop,
        {R, mailbox()}
    end) end),
    t(drained_before_receive, fun() -> in_fresh(fun() ->
        Srv = spawn_link(fun server/0),
        [self() ! {plain, I} || I <- lists:seq(1, 10)],
        R = call_ref(Srv, hi, fun() -> mailbox() end),
        Srv ! stop,
        {R, mailbox()}
    end) end),
    t(many_replies_one_ref, fun() -> in_fresh(fun() ->
        Srv = spawn_link(fun server/0),
        decoys(20),
        Ref = make_ref(),
        Srv ! {Ref, self(), multi, 5},
        Got = [receive {Ref, {echo, multi, I}} -> I end || I <- [5, 4, 3, 2, 1]],
        Srv ! stop,
        {Got, summary(mailbox())}
    end) end).

%% Twelve calls nested inside each other: more live markers than the eight a process keeps.
nested(_Srv, 0) -> [];
nested(Srv, N) ->
    self() ! {plain, N},
    call_ref(Srv, N, fun() -> put(inner, nested(Srv, N - 1)) end) ++ get(inner).

nesting() ->
    t(nested_twelve_deep, fun() -> in_fresh(fun() ->
        Srv = spawn_link(fun server/0),
        decoys(10),
        R = nested(Srv, 12),
        Srv ! stop,
        {R, summary(mailbox())}
    end) end).

%% Markers whose receive is never reached (an exception in between, a timeout) stay in the
%% table until reused; later receives must be unaffected.
abandoned(Srv) ->
    Ref = make_ref(),
    Srv ! {Ref, self(), lost},
    erlang:error(give_up),
    receive {Ref, R} -> R end.

timed_out_call() ->
    Ref = make_ref(),
    receive {Ref, R} -> R after 10 -> timeout end.

left_behind() ->
    t(after_exceptions, fun() -> in_fresh(fun() ->
        Srv = spawn_link(fun server/0),
        decoys(20),
        Caught = [catch abandoned(Srv) || _ <- lists:seq(1, 10)],
        Rs = [call_ref(Srv, I, fun() -> ok end) || I <- lists:seq(1, 3)],
        Lost = [x || {R, {echo, lost}} <- mailbox_keep(), is_reference(R)],
        Srv ! stop,
        {length([x || {'EXIT', {give_up, _}} <- Caught]), Rs, length(Lost)}
    end) end),
    t(after_timeouts, fun() -> in_fresh(fun() ->
        Srv = spawn_link(fun server/0),
        decoys(5),
        T = [timed_out_call() || _ <- lists:seq(1, 10)],
        R = call(Srv, last),
        Srv ! stop,
        {T, R, summary(mailbox())}
    end) end).

%% The mailbox in order, without emptying it: read and put back.
mailbox_keep() ->
    Ms = mailbox(),
    [self() ! M || M <- Ms],
    Ms.

%% Messages from another process still on their way while the marker is reserved must stay
%% receivable, in order.
signals_in_flight() ->
    t(blast_then_call, fun() -> in_fresh(fun() ->
        Me = self(),
        Srv = spawn_link(fun server/0),
        Blaster = spawn_link(fun() -> [Me ! {blast, I} || I <- lists:seq(1, 2000)], Me ! blasted end),
        Rs = [call(Srv, I) || I <- lists:seq(1, 20)],
        receive blasted -> ok end,
        Srv ! stop,
        _ = Blaster,
        Ms = mailbox(),
        {Rs, length(Ms), [I || {blast, I} <- Ms] =:= lists:seq(1, 2000)}
    end) end).

timeouts() ->
    %% `receive after T` with T in an x register: woken by messages meanwhile, it must keep
    %% waiting on the timer it set (OTP does not read the operand again).
    t(after_var_with_traffic, fun() -> in_fresh(fun() ->
        Me = self(),
        spawn_link(fun() -> [Me ! {tick, I} || I <- lists:seq(1, 200)] end),
        T = id(30),
        R = receive after T -> done end,
        Ticks = [receive {tick, I} -> I end || I <- lists:seq(1, 200)],
        {R, Ticks =:= lists:seq(1, 200), mailbox()}
    end) end),
    t(after_var_selective_with_traffic, fun() -> in_fresh(fun() ->
        Me = self(),
        spawn_link(fun() -> [Me ! {tick, I} || I <- lists:seq(1, 100)] end),
        R = receive never -> never after id(20) -> done end,
        {R, length(mailbox())}
    end) end),
    %% A bad timeout value abandons the receive; the next receive starts from the first
    %% message again (OTP gh-5235).
    t(bad_timeout_then_receive, fun() -> in_fresh(fun() ->
        id(self()) ! init,
        E1 = try receive blipp -> ok after id(blupp) -> ok end catch C:R -> {C, R} end,
        A = receive init -> got_init after 1000 -> missed end,
        Ref = make_ref(),
        id(self()) ! init2,
        id(self()) ! Ref,
        E2 = try receive blapp -> ok after id(-1) -> ok end catch C2:R2 -> {C2, R2} end,
        B = receive init2 -> got_init2 after 1000 -> missed end,
        D = receive Ref -> got_ref after 1000 -> missed end,
        {E1, A, E2, B, D, mailbox()}
    end) end).

%% `after` accepts 0..16#ffffffff milliseconds; anything else is timeout_value, at once.
after_value(T) -> try receive after T -> ok end catch C:R -> {C, R} end.

after_limits() ->
    t(after_value_limits, fun() -> in_fresh(fun() ->
        self() ! keep,
        Bad = [after_value(id(V)) || V <- [-1, 0.0, 3.14, 16#100000000, 1 bsl 80, 16#3fffffffffffffff,
                                          -16#100000000, -(1 bsl 90), xxx]],
        {Bad, after_value(id(0)), mailbox()}
    end) end).

monitors() ->
    t(demonitor_flush_live, fun() -> in_fresh(fun() ->
        P = spawn(fun() -> receive stop -> ok end end),
        decoys(10),
        M = erlang:monitor(process, P),
        R1 = erlang:demonitor(M, [flush, info]),
        P ! stop,
        M2 = erlang:monitor(process, P),
        Down = receive {'DOWN', M2, process, P, Why} -> Why end,
        {R1, Down, [x || {'DOWN', Ref, _, _, _} <- mailbox(), Ref =:= M]}
    end) end),
    t(demonitor_flush_fired, fun() -> in_fresh(fun() ->
        P = spawn(fun() -> ok end),
        M = erlang:monitor(process, P),
        receive {'DOWN', M, _, _, _} = D -> self() ! D end,
        decoys(5),
        R = erlang:demonitor(M, [flush, info]),
        {R, summary(mailbox())}
    end) end),
    t(spawn_monitor_reply, fun() -> in_fresh(fun() ->
        decoys(30),
        {P, M} = spawn_monitor(fun() -> exit(bye) end),
        Why = receive {'DOWN', M, process, P, W} -> W end,
        {Why, summary(mailbox())}
    end) end).
