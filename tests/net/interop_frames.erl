%% The bytes the TCP interop test (interop_tcp.erl) sends in each packet mode, framed by hand
%% where gen_tcp only parses the mode on receipt (line, asn1, cdr, sunrm, fcgi, tpkt, http),
%% and by gen_tcp itself for 1, 2 and 4. Both directions use the same frames except http,
%% where the client sends requests and the server answers responses.
-module(interop_frames).
-export([modes/0, frames/2, send_packet/1, expected/2, show/1]).

%% Each mode the receiving side decodes; {inet6, M} is mode M over ::1.
modes() ->
    [raw, 1, 2, 4, line, asn1, cdr, sunrm, fcgi, tpkt, http, http_bin, {inet6, 4}].

%% The {packet, _} the sender uses: gen_tcp frames 1, 2 and 4 itself.
send_packet({inet6, M}) -> send_packet(M);
send_packet(N) when N =:= 1; N =:= 2; N =:= 4 -> N;
send_packet(_) -> raw.

%% Deterministic filler bytes.
bytes(N, Seed) -> list_to_binary([(I * 7 + Seed) band 255 || I <- lists:seq(1, N)]).

%% Filler for line mode: no newline inside.
letters(N) -> list_to_binary([$a + I rem 26 || I <- lists:seq(1, N)]).

frames({inet6, M}, Dir) -> frames(M, Dir);
frames(raw, _) -> [<<"hello">>, <<0, 1, 2, 255>>, bytes(70000, 3)];
frames(1, _) -> [<<>>, <<"a">>, bytes(255, 1)];
frames(2, _) -> [<<>>, <<"ab">>, bytes(65535, 2)];
frames(4, _) -> [<<>>, <<"abcd">>, bytes(200000, 4)];
frames(line, _) ->
    [<<"first\n">>, <<"\n">>, <<"with\r\n">>, <<"spaces and tabs\t here\n">>,
     <<(letters(500))/binary, "\n">>];
frames(asn1, _) ->
    [<<16#30, 3, 1, 2, 3>>,                                  % short length
     <<16#04, 16#81, 200, (bytes(200, 6))/binary>>,          % long form, one length byte
     <<16#04, 16#82, 1000:16, (bytes(1000, 7))/binary>>,     % long form, two length bytes
     <<16#1f, 16#81, 16#01, 2, "ab">>,                       % tag number in several bytes
     <<16#05, 0>>];                                          % empty content
frames(cdr, _) ->
    [<<"GIOP", 1, 0, 0, 0, 4:32/big, "abcd">>,               % big-endian size
     <<"GIOP", 1, 2, 1, 1, 5:32/little, "hello">>,           % little-endian size
     <<"GIOP", 1, 1, 0, 5, 0:32>>];                          % no body
frames(sunrm, _) ->
    [<<1:1, 5:31, "hello">>, <<0:1, 3:31, "abc">>, <<1:1, 0:31>>];
frames(fcgi, _) ->
    [<<1, 5, 1:16, 5:16, 3, 0, "hello", 0, 0, 0>>,            % content and padding
     <<1, 6, 2:16, 0:16, 0, 0>>,                              % empty record
     <<1, 5, 3:16, 300:16, 0, 0, (bytes(300, 8))/binary>>];
frames(tpkt, _) ->
    [<<3, 0, 9:16, "hello">>, <<3, 0, 4:16>>, <<3, 0, 1004:16, (bytes(1000, 9))/binary>>];
frames(M, client) when M =:= http; M =:= http_bin ->
    [<<"GET /path/to?q=1&r=two HTTP/1.1\r\nHost: localhost\r\nX-Custom: v\r\n"
       "Content-Length: 0\r\nAccept: */*\r\n\r\n">>,
     <<"POST http://example.com:8080/a HTTP/1.0\r\nContent-Type: text/plain\r\n"
       "Folded: one\r\n two\r\n\r\n">>,
     <<"OPTIONS * HTTP/1.1\r\nhost: x\r\nCONNECTION: close\r\n\r\n">>];
frames(M, server) when M =:= http; M =:= http_bin ->
    [<<"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nSet-Cookie: a=b\r\n\r\n">>,
     <<"HTTP/1.0 404 Not Found\r\nServer: interop\r\n\r\n">>,
     <<"HTTP/1.1 301 Moved Permanently\r\nLocation: /elsewhere\r\n\r\n">>].

%% When the receiver has all it was sent: {bytes, N} for raw (where the chunks depend on how
%% the bytes arrived), {eohs, N} for http (one http_eoh per message), else {packets, N}.
expected(Mode, Dir) ->
    Frames = frames(Mode, Dir),
    case Mode of
        raw -> {bytes, iolist_size(Frames)};
        M when M =:= http; M =:= http_bin -> {eohs, length(Frames)};
        _ -> {packets, length(Frames)}
    end.

%% A received item as printed: long binaries by size and digest.
show(B) when is_binary(B), byte_size(B) > 40 ->
    {bytes, byte_size(B), binary:encode_hex(erlang:md5(B))};
show(T) when is_tuple(T) -> list_to_tuple([show(E) || E <- tuple_to_list(T)]);
show(L) when is_list(L) -> [show(E) || E <- L];
show(X) -> X.
