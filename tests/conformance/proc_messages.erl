%% Messages: ! and erlang:send/2,3 to pids and registered names, what a message may carry (it is
%% copied whole), selective receive, the receive-marker pattern (a fresh ref matched past a long
%% queue), receive ... after 0 / after N / after infinity, and the order of messages.
%% Each check runs in fresh processes so no message outlives it. No pids or refs are printed.
-module(proc_messages).
-export([main/0, echo/0]).

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

%% Replies {self(), Msg} to {From, Msg} until told stop.
echo() ->
    receive
        {From, stop} -> From ! {self(), stopped};
        {From, Msg} -> From ! {self(), Msg}, echo()
    end.

%% Runs F in a fresh process and returns its result, or {died, Reason}.
in_fresh(F) ->
    Main = self(),
    {P, Ref} = spawn_monitor(fun() -> Main ! {result, self(), try F() catch C:R -> {C, R} end} end),
    receive
        {result, P, R} -> receive {'DOWN', Ref, _, _, _} -> ok end, R;
        {'DOWN', Ref, process, P, Why} -> {died, Why}
    end.

mailbox() -> receive M -> [M | mailbox()] after 0 -> [] end.

collect(0) -> [];
collect(N) -> receive M -> [M | collect(N - 1)] end.

roundtrip(Msg) ->
    P = spawn(fun echo/0),
    P ! {self(), Msg},
    R = receive {P, Back} -> Back end,
    P ! {self(), stop},
    receive {P, stopped} -> ok end,
    R.

main() ->
    sending(),
    payloads(),
    selective(),
    timeouts(),
    ordering(),
    ok.

sending() ->
    t(bang_returns_message, fun() -> in_fresh(fun() -> R = (self() ! {hello, 1}), {R, mailbox()} end) end),
    t(send_2_returns_message, fun() -> in_fresh(fun() -> R = erlang:send(self(), m2), {R, mailbox()} end) end),
    t(send_3_options, fun() -> in_fresh(fun() -> R = [erlang:send(self(), O, O) || O <- [[], [noconnect], [nosuspend],
                                                                                         [noconnect, nosuspend]]],
                                                 {R, mailbox()} end) end),
    t(send_3_bad_option, fun() -> erlang:send(self(), x, [bogus]) end),
    t(send_3_options_not_list, fun() -> erlang:send(self(), x, nosuspend) end),
    t(send_3_bad_option_cause, fun() -> [try erlang:send(self(), x, O)
                                         catch error:badarg:S -> [{_, _, _, I} | _] = S, proplists:get_value(error_info, I)
                                         end || O <- [[bogus], nosuspend, [noconnect | bad], [{x}], [nosuspend, 1]]] end),
    t(send_to_registered, fun() ->
                                  in_fresh(fun() ->
                                                   register(proc_messages_me, self()),
                                                   A = (proc_messages_me ! via_bang),
                                                   B = erlang:send(proc_messages_me, via_send2),
                                                   C = erlang:send(proc_messages_me, via_send3, []),
                                                   {A, B, C, mailbox()}
                                           end)
                          end),
    t(send_to_name_node_tuple, fun() ->
                                       in_fresh(fun() ->
                                                        register(proc_messages_me2, self()),
                                                        {proc_messages_me2, node()} ! via_tuple,
                                                        erlang:send({proc_messages_me2, node()}, via_tuple_send),
                                                        mailbox()
                                                end)
                               end),
    t(bang_unregistered_name, fun() -> proc_messages_nobody ! msg end),
    t(send_2_unregistered_name, fun() -> erlang:send(proc_messages_nobody, msg) end),
    t(send_3_unregistered_name, fun() -> erlang:send(proc_messages_nobody, msg, []) end),
    t(send_name_node_tuple_unregistered, fun() -> {proc_messages_nobody, node()} ! msg end),
    t(bang_integer, fun() -> 42 ! msg end),
    t(bang_list, fun() -> [self()] ! msg end),
    t(bang_bad_tuple, fun() -> {a, b, c} ! msg end),
    t(send_dead_pid_no_error, fun() ->
                                      {P, Ref} = spawn_monitor(fun() -> ok end),
                                      receive {'DOWN', Ref, _, _, _} -> ok end,
                                      {P ! lost, erlang:send(P, lost2)}
                              end),
    t(echo_roundtrip, fun() -> roundtrip(hello) end),
    t(queue_len_counts, fun() -> in_fresh(fun() -> [self() ! I || I <- lists:seq(1, 25)],
                                                   {message_queue_len, N} = process_info(self(), message_queue_len),
                                                   mailbox(),
                                                   {N, process_info(self(), message_queue_len)} end) end),
    ok.

payloads() ->
    Big = lists:seq(1, 5000),
    RefcBin = binary:copy(<<"0123456789">>, 1000),
    SubBin = binary:part(RefcBin, 3, 200),
    Terms = [atom, 42, -7, 1 bsl 200, -(1 bsl 100), 3.25, -0.0, "string", <<"heap bin">>, <<1:3>>,
             {}, [], {a, [b, {c, #{d => e}}]}, #{1 => one, "two" => 2, {three} => [3]},
             list_to_tuple(lists:seq(1, 100)), [a | improper]],
    t(payload_terms, fun() -> [roundtrip(T) =:= T || T <- Terms] end),
    t(payload_big_list, fun() -> R = roundtrip(Big), {length(R), lists:sum(R), R =:= Big} end),
    t(payload_refc_binary, fun() -> R = roundtrip(RefcBin), {byte_size(R), R =:= RefcBin} end),
    t(payload_sub_binary, fun() -> R = roundtrip(SubBin), {byte_size(R), R =:= SubBin, binary:first(R)} end),
    t(payload_shared_subterms, fun() -> L = lists:seq(1, 100), T = {L, L, [L, L]},
                                        R = roundtrip(T), {R =:= T, element(1, R) =:= element(2, R)} end),
    t(payload_fun_called_remotely, fun() ->
                                           K = 10, F = fun(X) -> X * K + length(Big) end,
                                           G = roundtrip(F),
                                           {G(4), G =:= F, is_function(G, 1)}
                                   end),
    t(payload_external_fun, fun() -> G = roundtrip(fun lists:reverse/1), G([1, 2, 3]) end),
    t(payload_pid_and_ref, fun() -> Me = self(), R = make_ref(),
                                    {P2, R2} = roundtrip({Me, R}), {P2 =:= Me, R2 =:= R} end),
    t(payload_deep_nesting, fun() -> D = lists:foldl(fun(I, Acc) -> {I, Acc} end, nil, lists:seq(1, 10000)),
                                     roundtrip(D) =:= D end),
    t(payload_large_map, fun() -> M = maps:from_list([{I, I * 2} || I <- lists:seq(1, 30)]),
                                  R = roundtrip(M), {map_size(R), maps:get(25, R), R =:= M} end),
    ok.

selective() ->
    t(selective_order, fun() -> in_fresh(fun() -> self() ! a, self() ! b, self() ! c,
                                                  R1 = receive b -> b end,
                                                  R2 = receive X -> X end,
                                                  R3 = receive Y -> Y end,
                                                  [R1, R2, R3] end) end),
    t(selective_guard, fun() -> in_fresh(fun() -> [self() ! {n, I} || I <- [1, 5, 12, 3, 20, 7]],
                                                  Big = receive {n, I} when I > 10 -> I end,
                                                  {Big, mailbox()} end) end),
    t(selective_bound_variable, fun() -> in_fresh(fun() -> K = key3, [self() ! {K2, v} || K2 <- [key1, key2, key3, key4]],
                                                           R = receive {K, V} -> {K, V} end,
                                                           {R, mailbox()} end) end),
    t(selective_first_clause_wins_by_message_order,
      fun() -> in_fresh(fun() -> self() ! second_pattern, self() ! first_pattern,
                                 R = receive first_pattern -> first; second_pattern -> second end,
                                 {R, mailbox()} end) end),
    t(selective_nested_receive, fun() -> in_fresh(fun() -> self() ! outer, self() ! inner,
                                                           receive outer -> receive inner -> both end end end) end),
    t(receive_marker_pattern,
      fun() -> in_fresh(fun() ->
                                [self() ! {noise, I} || I <- lists:seq(1, 2000)],
                                P = spawn(fun echo/0),
                                Rs = [begin
                                          Ref = make_ref(),
                                          P ! {self(), {Ref, I}},
                                          receive {P, {Ref, J}} -> J end
                                      end || I <- lists:seq(1, 100)],
                                P ! {self(), stop},
                                receive {P, stopped} -> ok end,
                                Noise = mailbox(),
                                {lists:sum(Rs), length(Noise), Noise =:= [{noise, I} || I <- lists:seq(1, 2000)]}
                        end) end),
    t(receive_marker_monitor_pattern,
      fun() -> in_fresh(fun() ->
                                [self() ! {noise, I} || I <- lists:seq(1, 500)],
                                {P, Ref} = spawn_monitor(fun() -> exit(done) end),
                                R = receive {'DOWN', Ref, process, P, Why} -> Why end,
                                {R, length(mailbox())}
                        end) end),
    t(receive_in_loop_counts, fun() -> in_fresh(fun() -> [self() ! (I rem 3) || I <- lists:seq(1, 300)],
                                                         {count(0), count(1), count(2), mailbox()} end) end),
    ok.

count(X) -> receive X -> 1 + count(X) after 0 -> 0 end.

timeouts() ->
    t(after_0_empty, fun() -> in_fresh(fun() -> receive _ -> got after 0 -> timeout end end) end),
    t(after_0_present, fun() -> in_fresh(fun() -> self() ! m, receive m -> got after 0 -> timeout end end) end),
    t(after_0_nonmatching_kept, fun() -> in_fresh(fun() -> self() ! other,
                                                           R = receive m -> got after 0 -> timeout end,
                                                           {R, mailbox()} end) end),
    t(after_n_times_out, fun() -> in_fresh(fun() -> receive never -> got after 5 -> timeout end end) end),
    t(after_n_message_first, fun() -> in_fresh(fun() -> Me = self(), spawn(fun() -> Me ! quick end),
                                                        receive quick -> got after 5000 -> timeout end end) end),
    t(after_only, fun() -> in_fresh(fun() -> receive after 3 -> done end end) end),
    t(after_variable, fun() -> in_fresh(fun() -> T = length([a, b]), receive never -> got after T -> timeout end end) end),
    t(after_infinity_with_message, fun() -> in_fresh(fun() -> self() ! m, receive m -> got after infinity -> never end end) end),
    t(after_bad_value, fun() -> in_fresh(fun() -> T = list_to_atom("soon"), receive never -> got after T -> x end end) end),
    t(after_negative, fun() -> in_fresh(fun() -> T = -list_to_integer("1"), receive never -> got after T -> x end end) end),
    t(after_float, fun() -> in_fresh(fun() -> T = list_to_float("1.0"), receive never -> got after T -> x end end) end),
    t(after_keeps_queue, fun() -> in_fresh(fun() -> self() ! a, self() ! b,
                                                    R = receive c -> c after 2 -> timeout end,
                                                    {R, mailbox()} end) end),
    t(after_reenter_resets, fun() -> in_fresh(fun() -> [receive never -> x after 1 -> I end || I <- lists:seq(1, 5)] end) end),
    ok.

ordering() ->
    t(order_from_one_sender, fun() -> in_fresh(fun() -> Me = self(),
                                                        spawn(fun() -> [Me ! I || I <- lists:seq(1, 2000)] end),
                                                        L = collect(2000), L =:= lists:seq(1, 2000) end) end),
    t(order_to_self, fun() -> in_fresh(fun() -> [self() ! I || I <- lists:seq(1, 1000)],
                                                mailbox() =:= lists:seq(1, 1000) end) end),
    t(order_two_senders_each_in_order,
      fun() -> in_fresh(fun() -> Me = self(),
                                 [spawn(fun() -> [Me ! {S, I} || I <- lists:seq(1, 500)] end) || S <- [x, y]],
                                 L = collect(1000),
                                 [[I || {S2, I} <- L, S2 =:= S] =:= lists:seq(1, 500) || S <- [x, y]] end) end),
    t(order_relay_chain, fun() -> in_fresh(fun() -> Me = self(),
                                                    Relay = lists:foldl(fun(_, Next) -> spawn(fun() -> relay(Next) end) end,
                                                                        Me, lists:seq(1, 20)),
                                                    [Relay ! I || I <- lists:seq(1, 200)],
                                                    Relay ! stop,
                                                    collect(200) =:= lists:seq(1, 200) end) end),
    ok.

%% Forwards everything to Next until stop (which it forwards too, so the chain ends).
relay(Next) ->
    receive
        stop -> Next ! stop_chain;
        stop_chain -> Next ! stop_chain;
        M -> Next ! M, relay(Next)
    end.
