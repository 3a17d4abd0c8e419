%% erlang:decode_packet/3: every packet type, the options, partial input, errors.
-module(bif_decode_packet).
-export([main/0]).

show(Label, F) ->
    R = try F() of V -> V catch C:E -> {C, E} end,
    io:format("~s: ~p~n", [Label, R]).

dp(T, B, O) -> show(io_lib:format("~p ~p ~p", [T, B, O]), fun() -> erlang:decode_packet(T, B, O) end).

main() ->
    length_prefixed(),
    asn1(),
    cdr_fcgi_tpkt_sunrm(),
    line(),
    http(),
    httph(),
    ssl(),
    errors(),
    bitstrings(),
    streams().

length_prefixed() ->
    [dp(T, B, O) || T <- [raw, 0, 1, 2, 4],
                    B <- [<<>>, <<1>>, <<3,1,2,3,4,5>>, <<0,3,1,2,3>>, <<0,0,0,3,1,2,3,4>>,
                          <<0,0,0,2,1>>, <<255,255,255,255,1>>, <<127,255,255,252,0>>,
                          <<0>>, <<0,0>>, <<0,0,0,0>>, <<5,1,2>>],
                    O <- [[], [{packet_size, 2}], [{packet_size, 3}], [{line_length, 1}]]].

asn1() ->
    Cases = [<<>>, <<16#30>>, <<16#30, 3, 1, 2, 3, 9>>, <<16#30, 3, 1, 2>>,
             <<16#30, 16#81, 2, 1, 2>>, <<16#30, 16#81>>, <<16#30, 16#82, 0, 2, 1, 2, 7>>,
             <<16#30, 16#83, 0, 0, 1, 5>>, <<16#30, 16#84, 0, 0, 0, 1, 5>>,
             <<16#30, 16#85, 0, 0, 0, 0, 1, 5>>, <<16#30, 16#80, 1, 2>>,
             <<16#1f, 16#81, 16#01, 2, 9, 9>>, <<16#1f, 16#81>>, <<16#1f, 16#81, 16#82>>,
             <<16#1f, 16#01, 1, 7>>, <<16#30, 16#84, 255, 255, 255, 255>>,
             <<16#30, 16#84, 127, 255, 255, 250>>],
    [dp(asn1, B, O) || B <- Cases, O <- [[], [{packet_size, 1}]]].

cdr_fcgi_tpkt_sunrm() ->
    Cdr = [<<"GIOP", 1, 2, 0, 0, 0, 0, 0, 3, "abcde">>, <<"GIOP", 1, 2, 1, 0, 3, 0, 0, 0, "abc">>,
           <<"GIOP", 1, 2, 0, 0, 0, 0, 0>>, <<"GIOX", 1, 2, 0, 0, 0, 0, 0, 0>>,
           <<"GIOP", 1, 2, 0, 0, 0, 0, 0, 9, "abc">>, <<"GIO">>],
    [dp(cdr, B, O) || B <- Cdr, O <- [[], [{packet_size, 2}]]],
    Fcgi = [<<1, 1, 0, 1, 0, 3, 2, 0, "abcPP", "rest">>, <<1, 1, 0, 1, 0, 3, 2, 0, "abc">>,
            <<2, 1, 0, 1, 0, 3, 2, 0, "abcPP">>, <<1, 1, 0, 1, 0, 0, 0, 0>>, <<1, 1, 0>>],
    [dp(fcgi, B, O) || B <- Fcgi, O <- [[], [{packet_size, 4}]]],
    Tpkt = [<<3, 0, 0, 7, "abc", "xy">>, <<3, 0, 0, 7, "a">>, <<3, 0, 0, 4>>, <<3, 0, 0, 3>>,
            <<3, 0, 0, 0>>, <<2, 0, 0, 7, "abc">>, <<3, 0>>],
    [dp(tpkt, B, O) || B <- Tpkt, O <- [[], [{packet_size, 2}]]],
    Rm = [<<0, 0, 0, 3, "abcd">>, <<128, 0, 0, 3, "abc">>, <<128, 0, 0, 3, "a">>,
          <<255, 255, 255, 255, "a">>, <<0, 0>>],
    [dp(sunrm, B, O) || B <- Rm, O <- [[], [{packet_size, 2}]]].

line() ->
    Bs = [<<>>, <<"abc">>, <<"abc\ndef">>, <<"\n">>, <<"abcdef\n">>, <<"ab\r\ncd">>, <<"abc;def">>],
    Os = [[], [{line_length, 3}], [{line_length, 10}], [{packet_size, 3}], [{packet_size, 4}],
          [{line_delimiter, $;}], [{line_delimiter, $;}, {line_length, 2}],
          [{packet_size, 5}, {line_length, 2}], [{line_length, 0}], [{packet_size, 0}]],
    [dp(line, B, O) || B <- Bs, O <- Os].

http_lines() ->
    [<<"GET / HTTP/1.1\r\n">>, <<"GET /index.html HTTP/1.0\r\nHost: x\r\n">>,
     <<"POST http://example.com:8080/a/b?q=1 HTTP/1.1\r\n">>,
     <<"PUT https://example.com/ HTTP/1.1\r\n">>, <<"OPTIONS * HTTP/1.1\r\n">>,
     <<"HEAD http://host HTTP/1.1\r\n">>, <<"GET http://host:abc/x HTTP/1.1\r\n">>,
     <<"GET http://host:0/x HTTP/1.1\r\n">>, <<"GET HTTP://HOST/X HTTP/1.1\r\n">>,
     <<"DELETE ftp://files/a HTTP/1.1\r\n">>, <<"TRACE foo HTTP/1.1\r\n">>,
     <<"BREW /pot HTTP/1.1\r\n">>, <<"get / HTTP/1.1\r\n">>, <<"GET /\r\n">>, <<"GET / \r\n">>,
     <<"GET / HTTP/1.1">>, <<"GET / HTTP/1.1\n">>, <<"GET / HTTP/x.1\r\n">>, <<"GET / HTTP/1.\r\n">>,
     <<"GET / FTP/1.1\r\n">>, <<"GET / HTTP/1\r\n">>, <<"GET  /a   HTTP/12.345\r\n">>,
     <<"GET\t/\tHTTP/1.1\r\n">>, <<"GET / HTTP/1.1x\r\n">>, <<"GET / HTTP/1.1 \r\n">>,
     <<"GET\r\n">>, <<" GET / HTTP/1.1\r\n">>, <<"\r\n">>, <<"\n">>, <<"\r\nGET">>,
     <<"HTTP/1.1 200 OK\r\n">>, <<"HTTP/1.0 404 Not Found\r\nServer: x\r\n">>,
     <<"HTTP/1.1 200\r\n">>, <<"HTTP/1.1 200 \r\n">>, <<"HTTP/1.1  200  Fine  \r\n">>,
     <<"HTTP/1.1 abc\r\n">>, <<"HTTP/1.1 200OK\r\n">>, <<"HTTP/1.1\r\n">>, <<"HTTP/11 200 OK\r\n">>,
     <<"HTTP/2.0 999 Whatever it is\r\n">>, <<"HTTP/a.b 200 OK\r\n">>,
     <<"GET /", 200, 201, " HTTP/1.1\r\n">>, <<"G", 200, "T / HTTP/1.1\r\n">>, <<"partial">>].

http() ->
    [dp(T, B, O) || T <- [http, http_bin], B <- http_lines(),
                    O <- [[], [{packet_size, 10}], [{line_length, 10}]]].

header_lines() ->
    [<<"Host: example.com\r\n">>, <<"Host: example.com\r\nX">>, <<"Host: example.com\r\n">>,
     <<"content-type:text/html\r\n\r\n">>, <<"CONTENT-LENGTH:   12  \r\n\r\n">>,
     <<"X-Custom-Header: v\r\n\r\n">>, <<"x-custom-header: v\r\n\r\n">>,
     <<"Set-Cookie: a=b\r\n c=d\r\n\r\n">>, <<"Set-Cookie: a=b\r\n\tc=d\r\nNext: 1\r\n">>,
     <<"\r\n">>, <<"\n">>, <<"\r\nrest">>, <<"NoColon\r\n\r\n">>, <<": empty\r\n\r\n">>,
     <<"Name : v\r\n\r\n">>, <<"Www-authenticate: basic\r\n\r\n">>,
     <<"WWW-AUTHENTICATE: basic\r\n\r\n">>, <<"Etag: \"x\"\r\n\r\n">>,
     <<"Keep-Alive: 300\r\n\r\n">>, <<"Proxy-Connection: close\r\n\r\n">>,
     <<"X-Forwarded-For: 1.2.3.4\r\n\r\n">>, <<"Set-Cookie2: z\r\n\r\n">>,
     <<"Content-Md5: abc\r\n\r\n">>, <<"content-md5: abc\r\n\r\n">>,
     <<(binary:copy(<<"a">>, 50))/binary, ": v\r\n\r\n">>,
     <<(binary:copy(<<"b">>, 51))/binary, ": v\r\n\r\n">>,
     <<(binary:copy(<<"Ab-">>, 20))/binary, ": v\r\n\r\n">>,
     <<"Host:", 200, 201, "\r\n\r\n">>, <<"Host: a\r\n b\r\n c\r\n\r\n">>,
     <<"Host\r\n\r\n">>, <<"Host">>, <<"a-b-c: 1\r\n\r\n">>, <<"-a-: 1\r\n\r\n">>,
     <<"HTTP/1.1 200 OK\r\n\r\n">>, <<"GET / HTTP/1.1\r\n\r\n">>].

httph() ->
    [dp(T, B, O) || T <- [httph, httph_bin], B <- header_lines(),
                    O <- [[], [{packet_size, 12}], [{line_length, 12}]]].

ssl() ->
    Bs = [<<22, 3, 1, 0, 3, "abc", "rest">>, <<22, 3, 1, 0, 3, "a">>, <<22, 3>>,
          <<128, 9, 1, 3, 1, "abcdefg">>, <<128, 6, 1, 3, 0, "abc">>],
    [dp(ssl_tls, B, O) || B <- Bs, O <- [[], [{packet_size, 2}]]].

errors() ->
    [dp(T, B, O) || {T, B, O} <-
        [{foo, <<>>, []}, {3, <<>>, []}, {-1, <<>>, []}, {raw, "abc", []}, {raw, abc, []},
         {raw, <<"a">>, foo}, {raw, <<"a">>, [foo]}, {raw, <<"a">>, [{packet_size, -1}]},
         {raw, <<"a">>, [{packet_size, 1 bsl 32}]}, {raw, <<"a">>, [{packet_size, 1 bsl 32 - 1}]},
         {raw, <<"a">>, [{packet_size, a}]}, {raw, <<"a">>, [{packet_size, 1, 2}]},
         {raw, <<"a">>, [{line_delimiter, $;}]}, {line, <<"a">>, [{line_delimiter, 256}]},
         {line, <<"a;">>, [{line_delimiter, 0}]}, {line, <<"a">>, [{line_delimiter, -1}]},
         {http, <<"a">>, [{unknown, 1}]}, {1, <<"a">>, [{line_length, 1.0}]},
         {<<"raw">>, <<>>, []}]],
    show("badopt stack", fun() ->
        try erlang:decode_packet(foo, <<>>, [])
        catch error:R:S -> {R, element(4, hd(S))} end end).

bitstrings() ->
    [dp(T, B, O) || T <- [raw, 1, line, http_bin],
                    B <- [<<1:1>>, <<2, 1, 2, 3:3>>, <<"ab\ncd", 1:4>>, <<"GET / HTTP/1.1\r\n", 5:3>>],
                    O <- [[]]],
    <<_:3, Odd/bitstring>> = <<0:3, 2, "abcd", "GET / HTTP/1.1\r\nrest", 1:5>>,
    [dp(T, Odd, []) || T <- [raw, 1, 2, line, http, http_bin]].

%% Decoding a stream packet by packet, as a socket would.
streams() ->
    Req = <<"GET /a HTTP/1.1\r\nHost: h\r\nAccept: */*\r\nX-Long: a\r\n b\r\n\r\nbody">>,
    show("http stream", fun() -> stream(http_bin, Req, []) end),
    show("http list stream", fun() -> stream(http, Req, []) end),
    Lines = <<"one\ntwo\n\nthree">>,
    show("line stream", fun() -> stream(line, Lines, []) end),
    Pkts = <<3, "abc", 0, 2, "de", 1, "f">>,
    show("1 stream", fun() -> stream(1, Pkts, []) end).

stream(Type, Bin, Acc) ->
    case erlang:decode_packet(Type, Bin, []) of
        {ok, http_eoh, Rest} -> stream(raw, Rest, [http_eoh | Acc]);
        {ok, {http_request, _, _, _} = P, Rest} -> stream(header_type(Type), Rest, [P | Acc]);
        {ok, P, Rest} -> stream(Type, Rest, [P | Acc]);
        Other -> lists:reverse([Other | Acc])
    end.

header_type(http) -> httph;
header_type(http_bin) -> httph_bin.
