%% Writes the -ssl_dist_optfile for `-proto_dist inet_tls` (tests/dist/cluster.sh --proto
%% inet_tls): a fresh test CA with a server and a client certificate made by OTP's
%% public_key:pkix_test_data/1. The server verifies its client's certificate; the client does
%% not check the server's, whose name (a host name) is not the 127.0.0.1 the nodes dial.
-module(dist_tls_certs).
-export([main/1]).

main([File]) ->
    Data = public_key:pkix_test_data(#{server_chain => #{root => [], intermediates => [], peer => []},
                                       client_chain => #{root => [], intermediates => [], peer => []}}),
    #{server_config := Server, client_config := Client} = Data,
    Opts = [{server, Server ++ [{verify, verify_peer}, {fail_if_no_peer_cert, true}]},
            {client, Client ++ [{verify, verify_none}]}],
    ok = file:write_file(File, io_lib:format("~p.~n", [Opts])),
    halt().
