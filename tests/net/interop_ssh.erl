%% SSH between two VMs (issue 24): OTP's ssh daemon in one VM (server/1), OTP's ssh client in
%% the other (client/1). The daemon's ECDSA P-256 host key is made at test time by public_key
%% and written as a PEM file into its system_dir; users log in with a password. The daemon
%% runs its default exec (each command an Erlang expression it evaluates) and an sftp
%% subsystem rooted in a directory of its own.
%% The client runs exec commands (a value, a crypto hash computed in the daemon, an error), a
%% wrong password, two sessions on one connection, an sftp write/read/list/delete of 200 kB,
%% and last an exec of interop_ssh:stop(), after which the daemon's VM halts.
%% tests/net/interop.sh compares both sides' output with an all-erl run.
-module(interop_ssh).
-export([server/1, client/1, stop/0]).

-define(TIMEOUT_MS, 10000).
-define(USER, "tester").
-define(PASSWORD, "interop secret").

%% [PortFile, Dir]: Dir is an empty directory the script made.
server([PortFile, Dir]) ->
    ok = logger:set_primary_config(level, warning),
    SystemDir = filename:join(Dir, "system"),
    SftpRoot = filename:join(Dir, "sftp_root"),
    ok = file:make_dir(SystemDir),
    ok = file:make_dir(SftpRoot),
    HostKey = public_key:generate_key({namedCurve, secp256r1}),
    Pem = public_key:pem_encode([public_key:pem_entry_encode('ECPrivateKey', HostKey)]),
    ok = file:write_file(filename:join(SystemDir, "ssh_host_ecdsa_key"), Pem),
    ok = ssh:start(),
    {ok, Daemon} = ssh:daemon({127, 0, 0, 1}, 0,
                              [{system_dir, SystemDir},
                               {user_passwords, [{?USER, ?PASSWORD}]},
                               {auth_methods, "password"},
                               {subsystems, [ssh_sftpd:subsystem_spec([{root, SftpRoot}])]}]),
    {ok, Info} = ssh:daemon_info(Daemon),
    Port = proplists:get_value(port, Info),
    register(interop_ssh_server, self()),
    ok = file:write_file(PortFile ++ ".tmp", integer_to_list(Port)),
    ok = file:rename(PortFile ++ ".tmp", PortFile),
    receive stop -> ok after 60000 -> io:format("server: no stop request~n") end,
    timer:sleep(300),   % let the daemon send the stop command's answer
    {ok, Files} = file:list_dir(SftpRoot),
    io:format("server: sftp root holds ~p~n", [lists:sort(Files)]),
    io:format("server done~n"),
    halt().

%% Evaluated by the daemon for the client's last exec command.
stop() ->
    interop_ssh_server ! stop,
    stopping.

%% [PortFile, UserDir]: UserDir is an empty directory (the client's known_hosts would go there).
client([PortFile, UserDir]) ->
    ok = logger:set_primary_config(level, warning),
    {ok, Text} = file:read_file(PortFile),
    Port = binary_to_integer(Text),
    ok = ssh:start(),
    Opts = [{user, ?USER}, {silently_accept_hosts, true}, {save_accepted_host, false},
            {user_interaction, false}, {user_dir, UserDir}, {connect_timeout, ?TIMEOUT_MS}],
    Connect = fun(Password) ->
                      ssh:connect({127, 0, 0, 1}, Port, [{password, Password} | Opts],
                                  ?TIMEOUT_MS)
              end,
    io:format("wrong password: ~p~n", [Connect("not it")]),
    {ok, C} = Connect(?PASSWORD),
    [{user, User}] = ssh:connection_info(C, [user]),
    io:format("connected as ~p~n", [User]),
    Cmds = ["lists:seq(1, 10).",
            "binary:encode_hex(crypto:hash(sha256, lists:seq(0, 255))).",
            "lists:sum([X * X || X <- lists:seq(1, 1000)]).",
            "erlang:error(oops)."],
    [io:format("exec ~s~n  ~p~n", [Cmd, exec(C, Cmd)]) || Cmd <- Cmds],
    {ok, Ch1} = ssh_connection:session_channel(C, ?TIMEOUT_MS),
    {ok, Ch2} = ssh_connection:session_channel(C, ?TIMEOUT_MS),
    io:format("two sessions at once: ~p~n",
              [[collect(C, Ch2, exec_on(C, Ch2, "2 + 2.")),
                collect(C, Ch1, exec_on(C, Ch1, "atom_to_list(session_one)."))]]),
    sftp(C),
    io:format("exec interop_ssh:stop().~n  ~p~n", [exec(C, "interop_ssh:stop().")]),
    ok = ssh:close(C),
    io:format("client done~n"),
    halt().

sftp(C) ->
    {ok, Sftp} = ssh_sftp:start_channel(C, [{timeout, ?TIMEOUT_MS}]),
    Data = list_to_binary([I * 13 band 255 || I <- lists:seq(1, 200000)]),
    io:format("sftp write: ~p~n", [ssh_sftp:write_file(Sftp, "data.bin", Data)]),
    io:format("sftp write small: ~p~n", [ssh_sftp:write_file(Sftp, "note.txt", "note")]),
    {ok, Back} = ssh_sftp:read_file(Sftp, "data.bin"),
    io:format("sftp read back: ~w bytes, equal: ~p~n", [byte_size(Back), Back =:= Data]),
    {ok, Names} = ssh_sftp:list_dir(Sftp, "."),
    io:format("sftp list: ~p~n", [lists:sort(Names)]),
    {ok, Size} = file_size(ssh_sftp:read_file_info(Sftp, "data.bin")),
    io:format("sftp size: ~p~n", [Size]),
    io:format("sftp delete: ~p~n", [ssh_sftp:delete(Sftp, "data.bin")]),
    io:format("sftp read missing: ~p~n", [ssh_sftp:read_file(Sftp, "data.bin")]),
    ok = ssh_sftp:stop_channel(Sftp).

file_size({ok, Info}) -> {ok, element(2, Info)};
file_size(Other) -> Other.

exec(C, Cmd) ->
    {ok, Ch} = ssh_connection:session_channel(C, ?TIMEOUT_MS),
    collect(C, Ch, exec_on(C, Ch, Cmd)).

exec_on(C, Ch, Cmd) -> ssh_connection:exec(C, Ch, Cmd, ?TIMEOUT_MS).

%% The channel's output until it closes: {Reply, Stdout, Stderr, ExitStatus}.
collect(C, Ch, success) -> collect(C, Ch, [], [], none);
collect(_, _, Failure) -> Failure.

collect(C, Ch, Out, Err, Status) ->
    receive
        {ssh_cm, C, {data, Ch, 0, D}} -> collect(C, Ch, [D | Out], Err, Status);
        {ssh_cm, C, {data, Ch, 1, D}} -> collect(C, Ch, Out, [D | Err], Status);
        {ssh_cm, C, {eof, Ch}} -> collect(C, Ch, Out, Err, Status);
        {ssh_cm, C, {exit_status, Ch, S}} -> collect(C, Ch, Out, Err, S);
        {ssh_cm, C, {closed, Ch}} ->
            {iolist_to_binary(lists:reverse(Out)), iolist_to_binary(lists:reverse(Err)), Status}
    after ?TIMEOUT_MS ->
            {timeout, iolist_to_binary(lists:reverse(Out))}
    end.
