%% Certificates for the TLS interop tests (interop_tls, interop_http's https mode), made at
%% test time by public_key:pkix_test_data/1 on the server's VM: a server chain and a client
%% chain, each a root CA and a peer certificate with P-256 keys (RSA key generation would take
%% seconds). The peer certificates name this machine's hostname (pkix_test_data's default
%% subjectAltName), so the client names it as its server_name_indication to pass ssl's
%% hostname check. The server keeps server_config and hands client_config to the client
%% through a file next to the port file, written before the port file appears.
-module(interop_certs).
-export([make/1, client_config/1, server_name/0]).

%% -> the server's ssl options (cert, key, cacerts); writes the client's to PortFile.tls.
make(PortFile) ->
    Key = {key, {namedCurve, secp256r1}},
    Chain = #{root => [Key], peer => [Key]},
    #{server_config := Server, client_config := Client} =
        public_key:pkix_test_data(#{server_chain => Chain, client_chain => Chain}),
    ok = file:write_file(PortFile ++ ".tls", term_to_binary(Client)),
    Server.

%% The client's ssl options (cert, key, cacerts) the server wrote.
client_config(PortFile) ->
    {ok, Bin} = file:read_file(PortFile ++ ".tls"),
    binary_to_term(Bin).

server_name() ->
    {ok, Host} = inet:gethostname(),
    Host.
