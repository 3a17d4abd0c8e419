%% Ports and OS processes opened and closed: cat echoing a block back, a shell exiting with a
%% given status, os:cmd/1, and a port whose owner exits (the port closes with it). The echo
%% must come back byte for byte, the status must be the one asked for.
-module(soak_ports).
-export([start/0]).

start() ->
    soak_worker:start(ports, fun() -> (soak_worker:new())#{i => 0} end, fun step/1).

step(#{i := I} = S0) ->
    S = S0#{i := I + 1},
    case I rem 4 of
        0 -> echo(I, S);
        1 -> status(I rem 100, S);
        2 -> cmd(I, S);
        3 -> owner_exit(S)
    end.

echo(I, S) ->
    P = open_port({spawn_executable, "/bin/cat"}, [binary, stream, use_stdio]),
    Block = pattern_bytes(I, 3000 + I rem 5000),
    true = port_command(P, Block),
    case collect(P, byte_size(Block), []) of
        Block -> port_close(P), soak_worker:count(echoes, 1, S);
        Other -> port_close(P), soak_worker:error({echo_mismatch, byte_size(Block), Other}, S)
    end.

collect(_, 0, Acc) -> iolist_to_binary(lists:reverse(Acc));
collect(P, Left, Acc) ->
    receive {P, {data, D}} -> collect(P, Left - byte_size(D), [D | Acc])
    after 10000 -> {timeout, Left}
    end.

status(N, S) ->
    P = open_port({spawn_executable, "/bin/sh"}, [exit_status, {args, ["-c", "exit " ++ integer_to_list(N)]}]),
    receive
        {P, {exit_status, N}} -> soak_worker:count(exit_statuses, 1, S);
        {P, {exit_status, Other}} -> soak_worker:error({exit_status, N, Other}, S)
    after 10000 -> soak_worker:error({no_exit_status, N}, S)
    end.

cmd(I, S) ->
    Want = "soak" ++ integer_to_list(I) ++ "\n",
    case os:cmd("echo soak" ++ integer_to_list(I)) of
        Want -> soak_worker:count(os_cmds, 1, S);
        Got -> soak_worker:error({os_cmd, Want, Got}, S)
    end.

owner_exit(S) ->
    Self = self(),
    {Owner, Ref} = spawn_monitor(fun() ->
        P = open_port({spawn_executable, "/bin/cat"}, [binary]),
        Self ! {port, self(), P}
    end),
    P = receive {port, Owner, Port} -> Port end,
    receive {'DOWN', Ref, process, _, normal} -> ok end,
    case erlang:port_info(P) of
        undefined -> soak_worker:count(closed_with_owner, 1, S);
        Info -> soak_worker:error({port_outlived_owner, Info}, S)
    end.

%% Deterministic bytes of a given length (no crypto needed).
pattern_bytes(Seed, Len) ->
    << <<((Seed + K * 7919) rem 256)>> || K <- lists:seq(1, Len) >>.
