%% Calendar and time-unit conversions: date/0, time/0, localtime_to_universaltime/1,2,
%% universaltime_to_localtime/1, universaltime_to_posixtime/1, posixtime_to_universaltime/1,
%% convert_time_unit/3. Clock readings are printed as shapes; conversions of fixed dates
%% are printed in full (both runs see the same time zone).
-module(bif_time_conversions).
-export([main/0]).

outcome(F, Args) ->
    try {ok, apply(erlang, F, Args)}
    catch C:E:S -> {C, E, frame(S)}
    end.

frame([{M, F, A, Loc} | _]) ->
    {M, F, if is_list(A) -> length(A); true -> A end, [K || {K, _} <- Loc]};
frame(_) -> none.

hostile() ->
    [a, -1, 1 bsl 70, 1.5, [a | b], <<1:3>>, self(), make_ref(), #{a => 1}, fun() -> ok end,
     {1, 2}, [], "abc", {{2020, 1, 1}, {0, 0}}, {{2020, 1, 1}, {0, 0, 0, 0}}, {{2020, 1, a}, {0, 0, 0}},
     {{2020, 1, 1}, {0, 0, 1 bsl 70}}, {{2020, 1, 1}, [0, 0, 0]}].

dates() ->
    [{{1970, 1, 1}, {0, 0, 0}}, {{2000, 2, 29}, {12, 30, 59}}, {{2001, 2, 29}, {0, 0, 0}},
     {{1900, 2, 29}, {0, 0, 0}}, {{2024, 12, 31}, {23, 59, 59}}, {{2024, 13, 1}, {0, 0, 0}},
     {{2024, 0, 1}, {0, 0, 0}}, {{2024, 1, 0}, {0, 0, 0}}, {{2024, 1, 32}, {0, 0, 0}},
     {{2024, 1, 1}, {24, 0, 0}}, {{2024, 1, 1}, {0, 60, 0}}, {{2024, 1, 1}, {0, 0, 60}},
     {{2024, 1, 1}, {-1, 0, 0}}, {{1902, 1, 1}, {0, 0, 0}}, {{1901, 12, 31}, {23, 59, 59}},
     {{1600, 1, 1}, {0, 0, 0}}, {{1599, 12, 31}, {23, 59, 59}}, {{2100, 3, 1}, {0, 0, 0}},
     {{2147483646, 1, 1}, {0, 0, 0}}, {{2147483647, 1, 1}, {0, 0, 0}}, {{-5, 1, 1}, {0, 0, 0}},
     {{2038, 1, 19}, {3, 14, 8}}, {{9999, 12, 31}, {23, 59, 59}}].

main() ->
    {Y, Mo, D} = date(),
    {H, Mi, S} = time(),
    io:format("date shape ~w~n", [lists:all(fun is_integer/1, [Y, Mo, D]) andalso Mo >= 1 andalso Mo =< 12]),
    io:format("time shape ~w~n", [H >= 0 andalso H < 24 andalso Mi >= 0 andalso Mi < 60 andalso S >= 0 andalso S < 61]),
    [io:format("~w ~w -> ~w~n", [F, I, outcome(F, [A])])
     || F <- [localtime_to_universaltime, universaltime_to_localtime, universaltime_to_posixtime,
              posixtime_to_universaltime],
        {I, A} <- lists:zip(lists:seq(1, length(hostile())), hostile())],
    [io:format("ltu2 ~w ~w -> ~w~n", [I, Dst, outcome(localtime_to_universaltime, [A, Dst])])
     || {I, A} <- lists:zip(lists:seq(1, length(hostile())), hostile()),
        Dst <- [true, undefined, x]],
    [io:format("~w ~w -> ~w~n", [F, T, outcome(F, [T])])
     || T <- dates(), F <- [localtime_to_universaltime, universaltime_to_localtime, universaltime_to_posixtime]],
    [io:format("ltu2 ~w ~w -> ~w~n", [T, Dst, outcome(localtime_to_universaltime, [T, Dst])])
     || T <- dates(), Dst <- [true, false, undefined]],
    [io:format("posix ~w -> ~w~n", [P, outcome(posixtime_to_universaltime, [P])])
     || P <- [0, -1, 1, 86399, 86400, -86400, -86401, 951827459, 2147483647, 2147483648, -2147483649,
              253402300799, 253402300800, -62167219200, -62167219201, 1 bsl 59, (1 bsl 59) + 1,
              (1 bsl 63) - 1, -(1 bsl 63), 1 bsl 63, -(1 bsl 63) - 1]],
    %% A round trip through POSIX seconds.
    io:format("posix roundtrip ~w~n",
              [[erlang:universaltime_to_posixtime(erlang:posixtime_to_universaltime(P)) =:= P
                || P <- [0, 1, -1, 1000000000, -1000000000, 99999999999]]]),
    %% convert_time_unit/3: named units, integer units (bignums too), and everything else.
    Units = [second, millisecond, microsecond, nanosecond, native, perf_counter, seconds,
             micro_seconds, 3, 1 bsl 70, 0, -1, 1.5, foo, {a}],
    Times = [0, 1, -1, 999, -1001, 123456789, -(1 bsl 64), 1.5, a, [1]],
    [io:format("ctu ~w ~w ~w -> ~w~n", [T, F, To, outcome(convert_time_unit, [T, F, To])])
     || T <- Times, F <- Units, To <- Units,
        is_integer(T) orelse (F =:= second andalso To =:= second)],
    ok.
