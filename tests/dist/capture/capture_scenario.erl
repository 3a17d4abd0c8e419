%% What the two recorded erl nodes do (capture.sh): node a sends each of messages/0 to a sink
%% on node b (by registered name and by pid, alternately: REG_SEND and SEND_SENDER) and waits for
%% its ack, so the connection carries, in order: many atoms (more than a header's 255 cache
%% references), long atoms (255 characters, 510 bytes of UTF-8: the LongAtoms flag), UTF-8
%% atoms, the same atoms again (old cache references), and a 2 MiB message (fragmented by erl in
%% 64 KiB pieces); then two processes send the larger messages of parallel_messages/0 at once,
%% so erl interleaves their fragments (the proxy reads slowly: erts interleaves only when the
%% connection's queue is busy). a writes {messages(), parallel_messages()} to
%% OutDir/a_to_b.expected (term_to_binary, compressed) for the unit test to compare with what it
%% decodes.
-module(capture_scenario).
-export([sink/0, send/1, messages/0, parallel_messages/0]).

messages() ->
    Many = [list_to_atom("capture_atom_" ++ integer_to_list(I)) || I <- lists:seq(1, 300)],
    [{small, {hello_world, 1, <<"bin">>, 2.5, "chars"}},
     {many_atoms, Many},
     {long_atoms, {list_to_atom(lists:duplicate(255, $l)), list_to_atom(lists:duplicate(255, 16#E4))}},
     {utf8_atoms, ['ångström', list_to_atom([26085, 26412, 35486]), list_to_atom([16#1F600, $x])]},
     {many_atoms_again, Many},
     {big, {blob, binary:copy(<<"0123456789abcdef">>, 131072),
            lists:duplicate(2000, {'ångström', chunk})}},
     {after_big, done}].

parallel_messages() ->
    [{parallel_one, binary:copy(<<"first of two at once ">>, 200000)},
     {parallel_two, lists:duplicate(400000, {'second_ü', 12345678})}].

sink() ->
    register(capture_sink, self()),
    sink_loop(undefined).

sink_loop(From) ->
    receive
        {hello, Pid} ->
            Pid ! {ack, hello, self(), 'réponse_ü'},
            sink_loop(Pid);
        stop ->
            halt(0);
        {Label, _} ->
            From ! {ack, Label, self(), 'réponse_ü'},
            sink_loop(From)
    after 60000 ->
        halt(1)
    end.

send([Node, OutDir]) ->
    true = net_kernel:connect_node(Node),
    Sink = {capture_sink, Node},
    Sink ! {hello, self()},
    SinkPid = receive {ack, hello, P, _} -> P after 10000 -> exit(no_hello_ack) end,
    Msgs = messages(),
    lists:foreach(
      fun({I, {Label, _} = Msg}) ->
              case I rem 2 of 0 -> Sink ! Msg; 1 -> SinkPid ! Msg end,
              receive {ack, Label, _, _} -> ok after 30000 -> exit({no_ack, Label}) end
      end, lists:zip(lists:seq(1, length(Msgs)), Msgs)),
    Par = parallel_messages(),
    [spawn_link(fun() -> SinkPid ! Msg end) || Msg <- Par],
    [receive {ack, Label, _, _} -> ok after 30000 -> exit({no_ack, Label}) end || {Label, _} <- Par],
    ok = file:write_file(filename:join(atom_to_list(OutDir), "a_to_b.expected"),
                         term_to_binary({Msgs, Par}, [compressed])),
    SinkPid ! stop,
    timer:sleep(500),
    halt(0).
