%% Debian's erlang-jiffy (a third-party NIF library, /usr/lib/erlang/lib/jiffy-*/priv/jiffy.so,
%% found through the code path like any OTP application): JSON encoded and decoded, with
%% options, errors, bignums (jiffy hands those back to Erlang code), and documents large
%% enough that jiffy reschedules itself (enif_consume_timeslice, enif_schedule_nif).
%% Prints one line and nothing else where the package is not installed (tools/setup.sh
%% installs it).
-module(nif_jiffy).
-export([main/0]).

main() ->
    case code:which(jiffy) of
        non_existing -> io:format("erlang-jiffy is not installed~n");
        _ -> run()
    end.

run() ->
    Terms = [null, true, false, 0, -1, 1 bsl 40, 1 bsl 100, -(1 bsl 70), 1.5, -0.25, 1.0e300, 3.0e-5,
             <<>>, <<"text">>, <<"quote \" backslash \\ tab \t newline \n">>, <<"é ü 日本"/utf8>>,
             <<1, 2, 31>>, [], [1, [2, [3]]], {[]}, {[{<<"k">>, <<"v">>}, {a, 1}]},
             #{}, #{<<"a">> => 1, b => [true, null]}, [{[{<<"x">>, {[{<<"y">>, [1.25]}]}}]}]],
    [show({encode, T}, fun() -> jiffy:encode(T) end) || T <- Terms],
    show(encode_pretty, fun() -> jiffy:encode(#{<<"a">> => [1, 2], <<"b">> => #{<<"c">> => null}}, [pretty]) end),
    show(encode_uescape, fun() -> jiffy:encode(<<"é日"/utf8>>, [uescape]) end),
    show(encode_bad_utf8, fun() -> jiffy:encode(<<255, 254>>) end),
    show(encode_force_utf8, fun() -> jiffy:encode(<<"a", 255>>, [force_utf8]) end),
    show(encode_bad_term, fun() -> jiffy:encode({bad}) end),
    show(encode_pid, fun() -> try jiffy:encode(self()) catch error:{invalid_ejson, P} -> {invalid_ejson, P =:= self()} end end),
    Docs = [<<"null">>, <<"true">>, <<"12">>, <<"-12.5e3">>, <<"123456789012345678901234567890">>,
            <<"\"\\u00e9\\ud83d\\ude00\"">>, <<"[1, \"two\", [3.0], {}]">>,
            <<"{\"a\": {\"b\": [null, false]}, \"c\": 1}">>, <<"  [ ]  ">>, <<"{\"dup\": 1, \"dup\": 2}">>],
    [show({decode, D}, fun() -> jiffy:decode(D) end) || D <- Docs],
    [show({decode_maps, D}, fun() -> jiffy:decode(D, [return_maps]) end) || D <- Docs],
    show(decode_null_term, fun() -> jiffy:decode(<<"[null, 1]">>, [{null_term, undefined}]) end),
    show(decode_trailer, fun() -> jiffy:decode(<<"[1] [2]">>, [return_trailer]) end),
    show(decode_copy_strings, fun() -> jiffy:decode(<<"[\"s\"]">>, [copy_strings]) end),
    [show({decode_bad, D}, fun() -> jiffy:decode(D) end)
     || D <- [<<>>, <<"{bad">>, <<"[1,]">>, <<"\"unterminated">>, <<"[1] x">>, <<"nul">>, <<"01">>]],
    show(decode_not_binary, fun() -> jiffy:decode(not_json) end),
    %% Large documents: jiffy works in slices and reschedules itself between them.
    show(large_roundtrip, fun() ->
        Big = [#{<<"id">> => I, <<"name">> => integer_to_binary(I * 7), <<"tags">> => [I rem 3, null]}
               || I <- lists:seq(1, 20000)],
        %% Large output comes back as an iolist of chunks.
        Json = iolist_to_binary(jiffy:encode(Big)),
        {byte_size(Json), erlang:crc32(Json), jiffy:decode(Json, [return_maps]) =:= Big} end),
    show(large_in_processes, fun() ->
        in_parallel([fun() -> L = lists:seq(1, 5000 * N), jiffy:decode(jiffy:encode(L)) =:= L end
                     || N <- [1, 2, 3, 4]]) end).

%% Runs each fun in a process of its own, all at once; their results in order, or
%% {died, Reason} for one that raised.
in_parallel(Funs) ->
    Self = self(),
    Monitors = [spawn_monitor(fun() -> Self ! {self(), F()} end) || F <- Funs],
    [receive
         {'DOWN', Ref, process, Pid, normal} -> receive {Pid, R} -> R end;
         {'DOWN', Ref, process, Pid, Reason} -> {died, Reason}
     end || {Pid, Ref} <- Monitors].

show(Label, Fun) ->
    Result = try Fun() catch Class:Reason -> {Class, Reason} end,
    io:format("~p: ~p~n", [Label, Result]).
