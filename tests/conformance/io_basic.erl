%% The I/O server: io:format/1,2,3, io:fwrite, io:put_chars, io:nl, io_lib:format, to
%% standard_io and user, with the common control sequences, field widths and precisions, and
%% unicode (the -noshell device is latin1 in erl: characters above 255 come out as \x{...}).
%% Everything goes through io (never erlang:display), so the output order is the call order.
-module(io_basic).
-export([main/0]).
-compile(nowarn_format).  % the errors section passes bad formats on purpose

-record(point, {x = 0, y = 0}).

%% Prints Label, then the class and reason of an io call that raises (or ok).
t(Label, F) ->
    R = try F(), ok catch C:E -> {C, E} end,
    io:format("~p: ~p~n", [Label, R]).

main() ->
    basics(),
    integers(),
    floats(),
    strings_and_chars(),
    terms(),
    widths(),
    unicode(),
    devices(),
    io_lib_checks(),
    errors(),
    input(),
    ok.

basics() ->
    io:format("plain line~n"),
    io:format("tilde ~~ and newline~n", []),
    io:fwrite("fwrite/1~n"),
    io:fwrite("fwrite/2 ~w~n", [x]),
    io:put_chars("put_chars list\n"),
    io:put_chars(<<"put_chars binary\n">>),
    io:put_chars(["put_chars ", [<<"io">>, "list"], $\n]),
    io:nl(),
    io:format("after nl~n"),
    io:format("~w ~w ~w~n", [1, two, "three"]),
    io:format("no args then ~s~n", ["args"]),
    io:format('atom format ~w~n', [ok]),
    io:format(<<"binary format ~w~n">>, [ok]).

integers() ->
    io:format("~b ~b ~b~n", [0, 42, -42]),
    io:format("~w ~w~n", [1 bsl 100, -(1 bsl 70)]),
    io:format("~.2b ~.8b ~.16b ~.36b~n", [10, 64, 255, 1295]),
    io:format("~.16B ~.16b~n", [48879, 48879]),
    io:format("~x ~X~n", [255, "0x", 255, "0x"]),
    io:format("~.16x ~.16X~n", [-255, "#", -255, "#"]),
    io:format("~# ~.2#~n", [255, 5]),
    io:format("~+ ~.16+~n", [31, 31]),
    io:format("[~5b] [~-5b] [~05b]~n", [42, 42, 42]),
    io:format("[~10.16b] [~-10.2b]~n", [4095, 5]),
    io:format("~i~b~n", [ignored, 7]).

floats() ->
    io:format("~f ~f ~f~n", [3.14159, -0.5, 1.0e10]),
    io:format("~.2f ~.1f ~.5f~n", [2.71828, 2.25, 1/3]),
    io:format("~e ~e ~.3e~n", [3.14159, 123456.789, 0.000123]),
    io:format("~g ~g ~g ~g~n", [3.14159, 1.0e-10, 123456789.0, 0.5]),
    io:format("[~10.3f] [~-10.3f] [~10.2e]~n", [3.14159, 3.14159, 31415.9]),
    io:format("~w ~w ~w ~w~n", [0.1, 1.0e100, -0.0, 1/3]),
    io:format("~p ~p~n", [1.5e-300, 123.0]),
    io:format("~.1f ~.1f ~.1f~n", [0.05, 0.15, 0.25]).

strings_and_chars() ->
    io:format("~s|~s|~s|~s~n", ["list", <<"binary">>, atom, ["io", <<"list">>, $!]]),
    io:format("[~10s] [~-10s] [~.3s] [~10.3s]~n", ["right", "left", "truncate", "both"]),
    io:format("~c~c~c ~3c ~-3c|~n", [$a, $b, $c, $x, $y]),
    io:format("~c~n", [233]),
    io:format("[~*s] [~-*s]~n", [6, "star", 6, "star"]),
    io:format("[~*.*f]~n", [10, 3, 2.5]),
    io:format("~s~n", [""]),
    io:format("~p ~p~n", ["quoted \"string\"\n", 'quoted atom']),
    io:format("~w ~w~n", ["chars", 'Cap atom']),
    io:format("~p~n", [[$a, $b, 0]]),
    io:format("~s~n", [[72, 101, 108, 108, 111]]).

terms() ->
    io:format("~p~n", [{tuple, [list, 1, 2.5], <<"bin">>, <<1, 2, 3>>, #{a => 1, "b" => [2]}}]),
    io:format("~w~n", [{tuple, [list, 1, 2.5], <<"bin">>, #{a => 1}}]),
    io:format("~p~n", [#point{x = 1, y = 2}]),
    io:format("~p~n", [lists:seq(1, 60)]),
    io:format("~p~n", [[{key, lists:seq(1, 10)}, {other_key, "a string value"}, {third, #{nested => {deep, [1, 2, 3]}}}]]),
    io:format("~p~n", [{a_fairly_long_atom_name, another_fairly_long_atom_name, yet_another_long_atom_name_here}]),
    io:format("~w~n", [lists:seq(1, 40)]),
    io:format("~p~n", [<<"a binary that is long enough to need wrapping when printed with p, more and more text">>]),
    io:format("~p~n", [[<<1:1>>, <<5:3>>, <<>>, {}, [], [[]]]]),
    io:format("~p~n", [[improper | tail]]),
    io:format("~P~n", [lists:seq(1, 20), 5]),
    io:format("~W~n", [{a, {b, {c, {d, {e}}}}}, 3]),
    io:format("~P~n", [#{k1 => v1, k2 => v2, k3 => v3}, 3]),
    io:format("~10p|~n", [{x, y}]),
    io:format("~p~n", [{1, 2}]),
    io:format("~p ~p ~p~n", ['hello world', '[]', '{}']),
    io:format("~p~n", [[1 bsl 64, -3, 2.0e-5]]),
    io:format("~40p~n", [lists:seq(1, 30)]),
    io:format("   ~p~n", [[{alpha, 1}, {beta, 2}, {gamma, 3}, {delta, 4}, {epsilon, 5}, {zeta, 6}, {eta, 7}]]).

widths() ->
    io:format("[~5w] [~-5w] [~.2w]~n", [ab, ab, abc]),
    io:format("[~20p]~n", [{a, b}]),
    io:format("[~3s]~n", ["toolong"]),
    io:format("[~5.2.*s]~n", [$-, "abc"]),
    io:format("[~10..0b]~n", [42]),
    io:format("[~-10.._s]~n", ["pad"]),
    io:format("[~10.5.xs]~n", ["abcdefgh"]).

unicode() ->
    S = "héllo ☃ wörld",
    B = <<"héllo ☃ wörld"/utf8>>,
    io:format("~ts~n", [S]),
    io:format("~ts~n", [B]),
    io:format("~tp~n", [S]),
    io:format("~tp~n", [B]),
    io:format("~p~n", [B]),
    io:format("~p~n", ["latin1 é à ü"]),
    io:format("~tp~n", ["latin1 é à ü"]),
    io:format("~s~n", ["latin1 é à ü"]),
    io:format("~tc~tc~n", [9731, 233]),
    io:format("[~10ts] [~-10ts]~n", ["☃☃", "é"]),
    io:format("~tw~n", [S]),
    io:format("~ts~n", [[<<"mixed "/utf8>>, "☃", <<" ok"/utf8>>]]),
    io:put_chars(unicode:characters_to_binary("put_chars ☃ é\n")).

devices() ->
    io:format(standard_io, "to standard_io ~w~n", [1]),
    io:format(user, "to user ~w~n", [2]),
    io:fwrite(standard_io, "fwrite/3 standard_io ~s~n", ["x"]),
    io:fwrite(user, "fwrite/3 user ~s~n", ["y"]),
    io:put_chars(standard_io, "put_chars/2 standard_io\n"),
    io:put_chars(user, "put_chars/2 user\n"),
    io:format(group_leader(), "to group_leader ~w~n", [3]),
    io:nl(user),
    io:format(standard_error, "this goes to stderr, not compared~n", []),
    %% Output from other processes is ordered by when their io requests complete.
    Me = self(),
    P = spawn(fun() -> io:format("from another process~n"), Me ! done end),
    receive done -> ok end,
    io:format("after other process ~w~n", [is_pid(P)]),
    [begin
         Q = spawn(fun() -> io:format("worker ~w~n", [I]), Me ! {done, I} end),
         receive {done, I} -> ok end,
         Q
     end || I <- lists:seq(1, 3)],
    io:format("~w~n", [io:format("return value of format~n")]),
    io:format("~w~n", [io:put_chars("return value of put_chars\n")]).

io_lib_checks() ->
    io:format("~s~n", [io_lib:format("io_lib ~w ~s ~p", [1, "two", {three}])]),
    io:format("~w~n", [lists:flatten(io_lib:format("~5.2f", [3.14159]))]),
    io:format("~p~n", [lists:flatten(io_lib:format("~tp", ["é☃"]))]),
    io:format("~p~n", [io_lib:format("~w", [abc])]),
    io:format("~p~n", [lists:flatten(io_lib:fwrite("~b-~x", [10, 10, "p"]))]),
    io:format("~p~n", [io_lib:write({a, [1, 2]})]),
    io:format("~p~n", [lists:flatten(io_lib:print(lists:seq(1, 5)))]),
    io:format("~p~n", [io_lib:write_string("q\"s")]),
    io:format("~p~n", [io_lib:write_atom('needs quotes')]),
    io:format("~p~n", [lists:flatten(io_lib:format("~p", [lists:seq(1, 40)]))]),
    io:format("~p~n", [io_lib:char_list("abc")]),
    io:format("~p~n", [io_lib:printable_list("abc\n")]),
    io:format("~p~n", [io_lib:printable_list([1, 2])]),
    io:format("~p~n", [io_lib:printable_unicode_list("☃")]).

errors() ->
    t(format_bad_control, fun() -> io:format("~q~n", [x]) end),
    t(format_too_few_args, fun() -> io:format("~w ~w~n", [x]) end),
    t(format_too_many_args, fun() -> io:format("~w~n", [x, y]) end),
    t(format_s_not_string, fun() -> io:format("~s~n", [{tuple}]) end),
    t(format_b_not_integer, fun() -> io:format("~b~n", [1.5]) end),
    t(format_f_not_float, fun() -> io:format("~f~n", [abc]) end),
    t(format_args_not_list, fun() -> io:format("~w~n", x) end),
    t(io_lib_bad, fun() -> io_lib:format("~d", [1]) end),
    t(put_chars_bad, fun() -> io:put_chars({not_chars}) end),
    t(format_bad_device, fun() -> io:format(no_such_device, "x~n", []) end),
    io:format("errors done~n").

%% stdin is /dev/null in the conformance run: every read sees end of file.
input() ->
    t(get_line_eof, fun() -> eof = io:get_line('') end),
    io:format("~p~n", [io:get_line('')]),
    io:format("~p~n", [io:read('')]),
    io:format("~p~n", [io:get_chars('', 3)]),
    io:format("~p~n", [io:fread('', "~d")]),
    io:format("done~n").
