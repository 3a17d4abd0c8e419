%% OTP's re module on beamvm's own regular expression engine: re:run/2,3 with every capture
%% form and run option, compile options and inline options, classes, anchors and newline
%% conventions, lazy, possessive and atomic repetition, lookaround, back references,
%% subroutine calls and recursion, branch reset, unicode subjects, errors, and re:replace/split
%% on top. One line per case, compared with erl.
-module(re_engine).
-export([main/0]).
t(F) -> try F() catch C:R -> {C, R} end.
main() ->
    part1(),
    part2().

part1() ->
    Cases = [
      {"abc", "b", []}, {"abc", "x", []}, {"aaa", "a*", []}, {"abcabc", "(a)(b)(c)", []},
      {"hello world", "(\\w+)\\s(\\w+)", [{capture, all, list}]},
      {"hello world", "(?<first>\\w+)\\s(?<second>\\w+)", [{capture, all_names, binary}]},
      {"foo123bar", "\\d+", [{capture, first, list}]}, {"a,b,,c", ",", [global]},
      {"abc", "", [global]}, {"aXbXc", "x", [caseless, global, {capture, all, index}]},
      {"line1\nline2\n", "^line\\d$", [multiline, global, {capture, first, list}]},
      {"line1\nline2\n", "^line\\d$", []}, {"line1\n", "line1$", []},
      {"ab\ncd", "b.c", []}, {"ab\ncd", "b.c", [dotall]},
      {"aaa", "a{2}", [global]}, {"aaaa", "a{1,3}?", [global]}, {"aaaa", "a{2,}", []},
      {"xyz", "[^a-x]+", [{capture, first, list}]}, {"a-b_c", "[\\w-]+", [{capture, first, list}]},
      {"foobar", "foo(?=bar)", []}, {"foobaz", "foo(?!bar)", []}, {"barfoo", "(?<=bar)foo", []},
      {"bazfoo", "(?<!bar)foo", []}, {"abab", "(ab)\\1", []}, {"abAB", "(ab)\\1", [caseless]},
      {"aaab", "(?>a+)ab", []}, {"aaab", "a++b", []}, {"aaab", "a+ab", []},
      {"x1y22z333", "\\d+", [global, {capture, all, binary}]}, {<<"bin subject">>, <<"sub">>, []},
      {"héllo", "h.llo", [unicode]}, {"héllo", "é", [unicode, {capture, all, list}]},
      {"abc", "(a)|(b)", [global]}, {"abc", "(x)?abc", []}, {"abc", "(x)?abc", [{capture, all, list}]},
      {"abc", "b", [{offset, 2}]}, {"abc", "b", [{offset, 1}]}, {"abc", "^b", [{offset, 1}]},
      {"abc", "\\Gb", [{offset, 1}]}, {"abc", "a", [anchored, {offset, 1}]}, {"abc", "c", [{capture, none}]},
      {"ABC", "(?i)abc", []}, {"aBC", "a(?i:b)c", []}, {"aBC", "a(?i:b)C", []},
      {"a b", "a\\ b", [extended]}, {"a b", "a b # comment", [extended]}, {"tab\there", "\\t", []},
      {"x.y", "\\.", []}, {"a+b", "\\Qa+b\\E", []}, {"word boundary", "\\bbound", []}, {"wordboundary", "\\Bbound", []},
      {"ab12", "[[:alpha:]]+", [{capture, first, list}]}, {"ab12", "[[:^alpha:]]+", [{capture, first, list}]},
      {"aaa", "(a*)*", []}, {"aaa", "(a*)+b", []}, {"abcd", "(?:a|b)+", []}, {"", "^$", []}, {"", "a*", [global]},
      {"a\r\nb", "\\R", []}, {"12-34", "(\\d+)-(?1)", []}, {"a", "(", []}, {"a", "a**", []}, {"a", "[a", []},
      {"aaa", "a", [global, {capture, all_but_first}]}, {"abc", "(?<x>b)", [{capture, [x], list}]},
      {"abc", "(?<x>b)", [{capture, ["x", 0, 5], index}]}, {"camelCaseString", "[A-Z]", [global, {capture, first, list}]}
    ],
    [io:format("~p ~p ~p -> ~p~n", [S, R, O, t(fun() -> re:run(S, R, O) end)]) || {S, R, O} <- Cases],
    io:format("~p~n", [[t(fun() -> re:replace("hello world", "o", "0", [global, {return, list}]) end),
        t(fun() -> re:split("a,b,,c", ",", [{return, list}]) end), t(fun() -> re:split("a1b22c", "\\d+") end),
        t(fun() -> re:replace("abc", "(b)", "[\\1&]", [{return, binary}]) end), t(fun() -> re:split("abc", "", [{return, list}]) end),
        t(fun() -> element(1, re:compile("a(b)")) end), t(fun() -> element(2, element(2, re:compile("a(b)(c)"))) end),
        t(fun() -> re:compile("(") end), t(fun() -> re:compile("a", [bogus]) end), t(fun() -> re:run("a", "(", [report_errors]) end),
        t(fun() -> re:inspect(element(2, re:compile("(?<zz>a)(?<b>c)")), namelist) end),
        t(fun() -> re:run(lists:duplicate(100000, $a) ++ "b", "a*b", [{capture, none}]) end),
        t(fun() -> re:run(lists:duplicate(30, $a), "(a*)*b", []) end),
        t(fun() -> re:run("abc", "b", [bad]) end), t(fun() -> re:run(x, "b") end),
        t(fun() -> string:replace("a.b.c", ".", "-", all) end), t(fun() -> string:split("a b  c", " ", all) end)]]).

part2() ->
    Cases = [
      {"(a(b)c)", "\\((?:[^()]|(?R))*\\)", []}, {"x(a(b(c))d)y", "\\(([^()]|(?R))*\\)", [{capture, first, list}]},
      {"abcabc", "(?<w>abc)(?&w)", []}, {"1-2", "(\\d)-(?-1)", []}, {"ab", "(?+1)(b)", []},
      {"foo=bar; baz=qux", "(\\w+)=(\\w+)", [global, {capture, all_but_first, list}]},
      {"2020-01-02", "^(\\d{4})-(\\d{2})-(\\d{2})$", [{capture, all_but_first, list}]},
      {"The Quick Brown", "\\b[A-Z]", [global, {capture, first, list}]},
      {"  trim  ", "^\\s+|\\s+$", [global]}, {"a1b2c3", "[a-z](?=\\d)", [global, {capture, first, list}]},
      {"aaa", "a*?", [global]}, {"abc", "x*", [global]}, {"日本語テキスト", "本.", [unicode, {capture, first, list}]},
      {"日本語", ".", [unicode, global, {capture, first, binary}]}, {<<"日本語"/utf8>>, <<"語">>, [unicode]},
      {"ab\r\ncd", "b$", [multiline]}, {"ab\r\ncd", "b$", [multiline, {newline, crlf}]}, {"ab\rcd", "^c", [multiline, {newline, cr}]},
      {"abc\n", "c$", []}, {"abc\n", "c$", [dollar_endonly]}, {"abc\n", "c\\Z", []}, {"abc\n", "c\\z", []},
      {"aaa", "a", [notempty, global]}, {"", "", [notempty]}, {"abc", "", [notempty_atstart, {offset, 1}]},
      {"AbC", "[a-c]+", [caseless, {capture, first, list}]}, {"ÀÉ", "[à-é]+", [caseless, {capture, first, list}]},
      {"hello", "(?x) h e l l o", []}, {"hello", "HELLO", [caseless, {capture, none}]},
      {"abc", "a(?#comment)bc", []}, {"x", "\\x78", []}, {"x", "\\x{78}", []}, {"\e", "\\e", []},
      {"a.b", "[.]", []}, {"a]b", "[]]", []}, {"a-b", "[a\\-z]+", [{capture, first, list}]}, {"^", "\\^", []},
      {"abcd", "(?<=ab)cd|(?<=x)y", []}, {"abcd", "(?<=a|ab)c", []}, {"abcd", "(?<=a+)c", []},
      {"abc", "a{,2}", []}, {"a{,2}", "a{,2}", []}, {"a{x", "a{x", []}
    ],
    [io:format("~p ~p ~p -> ~p~n", [S, R, O, t(fun() -> re:run(S, R, O) end)]) || {S, R, O} <- Cases],
    io:format("~p~n", [[t(fun() -> re:replace("a.b.c", "\\.", "-", [global, {return, list}]) end),
        t(fun() -> re:replace("aaa", "a*", "x", [global, {return, list}]) end),
        t(fun() -> re:split("one  two   three", "\\s+", [{return, list}, trim]) end),
        t(fun() -> re:split("a,b,c", ",", [{parts, 2}, {return, list}]) end),
        t(fun() -> re:split(<<"a1b2">>, "(\\d)", [group, {return, binary}]) end),
        t(fun() -> re:replace("John Smith", "(\\w+) (\\w+)", "\\2, \\1", [{return, list}]) end),
        t(fun() -> re:run("abc", {re_pattern, 0, 0, 0, <<"junk">>}) end)]]).
