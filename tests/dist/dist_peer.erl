%% OTP's peer started from this VM (tests/dist/peer.sh): the peer is the same VM by default
%% (init's progname), and answers peer:call/4 over each connection kind. main(Mode): Mode
%% nodist tries the alternative connections standard_io and {IP, Port} (no distribution on
%% either side); Mode dist (this node started with -name) starts peers connected by
%% distribution, with a name, as ?CT_PEER does, and also an erl peer (exec => "erl").
%% Prints one line per peer, starting "peer ", the same text on erl and on beamvm.
-module(dist_peer).
-export([main/1]).

-define(TIMEOUT_MS, 30000).

main([Mode]) ->
    Status = try run(list_to_atom(Mode)), 0
             catch C:E:St -> io:format("peer failed: ~0p~n", [{C, E, St}]), 1
             end,
    halt(Status).

run(nodist) ->
    [show(Conn, #{connection => Conn}) || Conn <- [standard_io, {{127, 0, 0, 1}, 0}]];
run(dist) ->
    %% This node's cookie is a random -setcookie: peers are told it, as test_server does.
    Base = #{host => "127.0.0.1", longnames => true,
             args => ["-setcookie", atom_to_list(erlang:get_cookie())]},
    show(dist, Base#{name => peer:random_name()}),
    show(dist_args, Base#{name => peer:random_name(),
                          args => maps:get(args, Base) ++ ["-kernel", "dist_auto_connect", "once"]}),
    show(dist_erl, Base#{name => peer:random_name(), exec => os:find_executable("erl")}).

show(Label, Opts) ->
    {ok, Peer, Node} = peer:start_link(Opts#{wait_boot => ?TIMEOUT_MS}),
    %% peer:call/5 goes over the alternative connection; a peer connected by distribution
    %% has none and is called by erpc.
    Call = case Node of
               nonode@nohost -> fun(M, F, A) -> peer:call(Peer, M, F, A, ?TIMEOUT_MS) end;
               _ -> fun(M, F, A) -> erpc:call(Node, M, F, A, ?TIMEOUT_MS) end
           end,
    {ok, [[Prog]]} = Call(init, get_argument, [progname]),
    %% Without exec, the peer runs this VM; with exec => erl, erl (whose progname is "erl").
    Vm = case maps:is_key(exec, Opts) of
             false -> {same_vm, {ok, [[Prog]]} =:= init:get_argument(progname)};
             true -> {erl, Prog =:= "erl"}
         end,
    Result = [{alive, Node =/= nonode@nohost, Call(erlang, is_alive, [])},
              {vm, Vm},
              {user, Call(init, get_argument, [user])},
              {sum, Call(lists, sum, [[1, 2, 3]])},
              {node, Node =:= Call(erlang, node, []), lists:member(Node, nodes())},
              {stop, peer:stop(Peer)}],
    io:format("peer ~p: ~0p~n", [Label, Result]).
