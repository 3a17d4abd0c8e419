%% Stand-in for the hidden suite's bit-syntax parsing (bench/standins/run.sh).
-module(ipv4_parse).
-export([main/0]).
%% Build a stream of IPv4+UDP packets, then parse: header fields by bit syntax in function
%% heads, options skipped, a 16-bit one's-complement checksum loop over each header, payload
%% sub-binaries summed byte by byte.
main() ->
    Stream = iolist_to_binary([packet(I) || I <- lists:seq(1, 20000)]),
    R = lists:foldl(fun(_, Acc) -> parse(Stream, Acc) end, {0, 0, 0}, lists:seq(1, 100)),
    erlang:display(R).

packet(I) ->
    Payload = << <<((I * J) band 255)>> || J <- lists:seq(1, 16 + I rem 48) >>,
    Udp = <<(1000 + I rem 100):16, (53 + I rem 7):16, (8 + byte_size(Payload)):16, 0:16, Payload/binary>>,
    Opts = case I rem 3 of 0 -> <<>>; _ -> <<1, 1, 1, 1>> end,
    IHL = 5 + byte_size(Opts) div 4,
    Tot = IHL * 4 + byte_size(Udp),
    Hdr0 = <<4:4, IHL:4, 0:8, Tot:16, I:16, 0:3, 0:13, 64:8, 17:8, 0:16,
             10, 0, (I band 255), 1, 192, 168, 0, (I rem 200), Opts/binary>>,
    Sum = csum(Hdr0, 0),
    <<Pre:10/binary, _:16, Post/binary>> = Hdr0,
    [Pre, <<Sum:16>>, Post, Udp].

csum(<<W:16, Rest/binary>>, Acc) -> csum(Rest, Acc + W);
csum(<<>>, Acc) -> fold(Acc).
fold(A) when A > 16#ffff -> fold((A band 16#ffff) + (A bsr 16));
fold(A) -> (bnot A) band 16#ffff.

parse(<<4:4, IHL:4, _Tos:8, Tot:16, _Id:16, _Fl:3, _Frag:13, _Ttl:8, Proto:8, _Sum:16,
        Src:32, Dst:32, Rest/binary>> = Bin, {N, S, C}) ->
    OptLen = (IHL - 5) * 4,
    <<Hdr:(IHL * 4)/binary, _/binary>> = Bin,
    Ok = csum_ok(Hdr, 0),
    <<_:OptLen/binary, Body/binary>> = Rest,
    BodyLen = Tot - IHL * 4,
    <<Seg:BodyLen/binary, Next/binary>> = Body,
    S1 = (S + udp(Proto, Seg) + (Src bxor Dst)) band 16#fffffff,
    parse(Next, {N + 1, S1, C + Ok});
parse(<<>>, Acc) -> Acc.

csum_ok(<<W:16, Rest/binary>>, Acc) -> csum_ok(Rest, Acc + W);
csum_ok(<<>>, Acc) -> case fold(Acc) of 0 -> 1; _ -> 0 end.

udp(17, <<Sp:16, Dp:16, Len:16, _:16, Data/binary>>) -> Sp + Dp + Len + bytes(Data, 0);
udp(_, _) -> 0.
bytes(<<B, R/binary>>, A) -> bytes(R, A + B);
bytes(<<>>, A) -> A.
