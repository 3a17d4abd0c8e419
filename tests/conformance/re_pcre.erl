%% OTP's re on beamvm's PCRE2 natives, compared with erl's PCRE 8.44: every compile and run
%% option, newline and \R conventions, capture forms with named and duplicated names,
%% re:inspect/2, match limits, compile errors with erl's texts and offsets, unicode subjects
%% and patterns, the Latin-1 character classes and case pairs of all 256 code units, compiled
%% patterns through term_to_binary, re:replace/split with each of their options, and a few
%% hundred random patterns and subjects (fixed seed), plus as many with unicode subjects
%% through run, replace and split. One line per case.
-module(re_pcre).
-export([main/0]).

t(F) -> try F() catch C:R -> {C, R} end.

show(Tag, F) -> io:format("~s -> ~w~n", [Tag, t(F)]).

main() ->
    options(),
    captures(),
    limits(),
    errors(),
    unicode(),
    latin1(),
    compiled(),
    replace_split(),
    random_cases(300),
    random_unicode(300).

run_cases(Cases) ->
    [show(io_lib:format("~w ~w ~w", [S, R, O]), fun() -> re:run(S, R, O) end) || {S, R, O} <- Cases].

options() ->
    run_cases([
      {"aBc", "abc", [caseless]}, {"a\nb", "^b", [multiline]}, {"a\nb", "a.b", [dotall]},
      {"ab", "a b # c", [extended]}, {"xab", "ab", [anchored]}, {"ab\n", "b$", [dollar_endonly]},
      {"aaa", "a+", [ungreedy]}, {"aaa", "a+?", [ungreedy]}, {"ab", "(a)(b)", [no_auto_capture]},
      {"ab", "(?<n>a)(b)", [no_auto_capture]}, {"ab", "(?<n>a)|(?<n>b)", [dupnames]},
      {"x\nab", "ab", [firstline]}, {"ab\nx", "ab", [firstline]}, {"\nb", "(?=^\\n)", [firstline]},
      {"ab\nb", "(?=\\n)", [firstline]}, {"a\nb", "^b", [firstline, multiline]}, {"é", "\\w", [unicode, ucp]},
      {"é", "\\w", [unicode]}, {<<"é"/utf8>>, "\\w", [unicode, ucp]}, {"ab", "a", [never_utf]},
      {"ab", "(*UTF8)a", [never_utf]}, {"ab", "b", [no_start_optimize]},
      {"a\rb", "^b", [multiline, {newline, cr}]}, {"a\r\nb", "^b", [multiline, {newline, crlf}]},
      {"a\nb", "^b", [multiline, {newline, lf}]}, {"a\rb", "^b", [multiline, {newline, anycrlf}]},
      {[$a, 16#85, $b], "^b", [multiline, {newline, any}]}, {"a\rb", "a.b", [{newline, cr}]},
      {"a\r\nb", "a$", [multiline, {newline, crlf}]}, {"a\rb", "a$", [{newline, cr}, {newline, lf}]},
      {"a\nb", "a.b", [{newline, any}, {newline, lf}]}, {"a\x0bb", "a\\Rb", []},
      {"a\x0bb", "a\\Rb", [bsr_anycrlf]}, {"a\x0bb", "a\\Rb", [bsr_unicode]},
      {"a\r\nb", "a\\Rb", [bsr_anycrlf]}, {"ab", "a", [bsr_anycrlf, bsr_unicode]},
      {"ab", "^b", [notbol, multiline]}, {"ab", "a$", [noteol]}, {"ab", "x*", [notempty]},
      {"ab", "x*", [notempty_atstart]}, {"ab", "b", [{offset, 2}]},
      {"ab", "b", [{offset, -1}]}, {"ab", "b", [{newline, bad}]}, {"ab", "b", [{capture, all, bad}]},
      {"ab", "b", [{capture, bad}]}, {"ab", "b", [bad]}, {"ab", "b", [global | x]},
      {"ab", "b", [{offset, 1, 2}]}, {"ab", "b", [{1, 2}]}, {"ab", "b", [report_errors]},
      {"ab", "(", [report_errors]}, {"ab", "(", [report_errors, global]},
      {["a", <<"b">>, [$c]], "bc", []}, {<<"abc">>, ["b", <<"c">>], []}, {abc, "b", []},
      {"ab", abc, []}, {"ab", {re_pattern, 0, 0, 0}, []}, {"ab", "(?i)A(?-i)b", []},
      {"aB", "(?i)A(?-i)b", []}, {"ab", "(?s).(?m)$", []}, {"a\nb\n", "^.$", [multiline, global]},
      {"a b", "(?x) a \\  b", []}, {"ab", "(?U)a+", []}, {"ab", "(?J)(?<n>a)(?<n>b)", []},
      {"aaa", "(*CR)a", []}, {"a\rb", "(*CR)(?m)^b", []}, {"a\r\nb", "(*ANYCRLF)(?m)^b", []},
      {"ab", "(*LIMIT_MATCH=10)a", []}, {"ab", "(*NO_START_OPT)b", []}, {"ab", "(*UCP)\\w", []},
      {"ab", "(*UTF)b", []}, {"ab", "(*BSR_ANYCRLF)\\R", []}, {"ab\0c", <<"b", 0, "x">>, []},
      {"a", <<0>>, []}, {"ab", <<"(", 0, ")">>, [report_errors]}, {"ab", "(*UTF8)a", []}, {"ab", "(?^)a", []},
      {"ab", "a(?^i:B)", [report_errors]}, {"ab", "[(?^)]", []}, {"ab", "\\Q(?^\\E|a", []},
      {"ab", "(*NOTEMPTY)a", [report_errors]}, {"ab", "(*CR)(*NOTEMPTY_ATSTART)a", [report_errors]},
      {"ab", "(*LIMIT_HEAP=10)a", [report_errors]}, {"ab", "(*NO_JIT)a", [report_errors]},
      {"ab", "(*NUL)a", [report_errors]}, {"ab", "(*LIMIT_RECURSION=5)a", []}, {"ab", "(*NO_AUTO_POSSESS)a+", []}
    ]),
    show("compile opts", fun() -> [element(1, re:compile("a", [O])) || O <- [caseless, multiline, dotall,
        extended, anchored, dollar_endonly, ungreedy, no_auto_capture, dupnames, firstline, ucp,
        never_utf, no_start_optimize, unicode, bsr_anycrlf, bsr_unicode, {newline, any}]] end),
    show("compile run opts", fun() -> [t(fun() -> re:compile("a", [O]) end) || O <- [global, notbol, noteol,
        notempty, notempty_atstart, report_errors, {offset, 0}, {capture, all}, {match_limit, 1},
        {match_limit_recursion, 1}, {capture, all, list}]] end),
    show("compile fields", fun() -> [erlang:delete_element(5, element(2, re:compile(R, O))) ||
        {R, O} <- [{"a", []}, {"(a)(b)", []}, {"a", [unicode]}, {"a", [{newline, crlf}]},
                   {"a", [{newline, any}]}, {"a", [{newline, anycrlf}]}, {"a", [{newline, cr}]},
                   {"(*CRLF)a", []}, {"(*UTF)a", []}, {"(?<x>a)(?:b)(c)", []}]] end),
    {ok, MP} = re:compile("^b", [multiline]),
    show("precompiled with newline", fun() -> [re:run("a\rb", MP, O) || O <- [[], [{newline, cr}],
        [{newline, anycrlf}], [anchored], [notbol]]] end),
    show("precompiled with compile option", fun() -> re:run("ab", MP, [caseless]) end),
    show("precompiled with unicode", fun() -> re:run("ab", MP, [unicode]) end),
    {ok, MR} = re:compile("a\\Rb"),
    show("precompiled with bsr", fun() -> [re:run("a\x0bb", MR, O) || O <- [[], [bsr_anycrlf], [bsr_unicode]]] end),
    show("global anchored", fun() -> re:run("aab", "a", [global, anchored]) end),
    show("global offset", fun() -> re:run("abab", "b", [global, {offset, 2}]) end),
    show("global notempty", fun() -> re:run("abc", "x*", [global, notempty]) end),
    show("global crlf", fun() -> re:run("a\r\nb", "", [global, {newline, crlf}]) end),
    show("global crlf any", fun() -> re:run("a\r\nb", "(?=b)|", [global, {newline, any}]) end),
    show("global lookahead", fun() -> re:run("ab", "(?=b)|b", [global]) end),
    show("internal_run", fun() -> [t(fun() -> re:internal_run("ab", "b", [], F) end) || F <- [true, false, x]] end).

captures() ->
    S = "abc-def",
    R = "(?<first>[a-z]+)-(?<second>[a-z]+)(?<third>x)?",
    [show(io_lib:format("capture ~w ~w", [V, T]), fun() -> re:run(S, R, [{capture, V, T}]) end)
     || V <- [all, all_but_first, first, none, all_names, [], [0], [1, 2, 3, 4, -1],
              [first, "second", <<"third">>, nope, "nope"], [second, 1], [{x}], [1 | 2], [1.5],
              [["fi", "rst"]], [<<"sec", 0, "x">>]],
        T <- [index, list, binary]],
    show("capture 2-tuple", fun() -> re:run(S, R, [{capture, [second, 1]}]) end),
    show("capture bad type", fun() -> re:run(S, R, [{capture, all, atom}]) end),
    show("capture unset middle", fun() -> re:run("ac", "(a)(b)?(c)", [{capture, all, binary}]) end),
    show("capture unset end", fun() -> re:run("a", "(a)(b)?", [{capture, all, list}]) end),
    show("capture unset end index", fun() -> re:run("a", "(a)(b)?(c)?", [{capture, [0, 1, 2, 3], index}]) end),
    Dup = "(?<n>a)|(?<n>b)|(?<m>c)",
    [show(io_lib:format("dupnames ~s ~w", [Subj, V]), fun() -> re:run(Subj, Dup, [dupnames, {capture, V, list}]) end)
     || Subj <- ["a", "b", "c"], V <- [all_names, [n], [m, n], all]],
    show("dupnames inspect", fun() -> re:inspect(element(2, re:compile(Dup, [dupnames])), namelist) end),
    show("inspect", fun() -> [re:inspect(element(2, re:compile(P)), namelist) || P <- ["a", "(?<zz>a)(?<aa>b)(?<mm>c)", "(?P<x>a)(?'y'b)"]] end),
    show("inspect bad", fun() -> [t(fun() -> re:inspect(A, B) end) || {A, B} <- [{x, namelist}, {element(2, re:compile("a")), names},
        {{re_pattern, 0, 0, 0, <<>>}, namelist}, {{re_pattern, a, 0, 0, <<"abcdefghij">>}, namelist}]] end),
    Big = list_to_binary(lists:duplicate(100, "ab") ++ "XYZ"),
    show("binary sub", fun() -> re:run(Big, "(X)(Y)(Z)", [{capture, all, binary}]) end),
    show("binary global", fun() -> re:run(Big, "b(a)?", [global, {capture, all, binary}, {offset, 190}]) end),
    show("list global", fun() -> re:run("a1b2", "[a-z](\\d)", [global, {capture, all_but_first, list}]) end),
    show("iodata subject", fun() -> re:run([<<"ab">>, [$c | <<"d">>]], "bc(d)", [{capture, all, binary}]) end).

limits() ->
    Evil = "(a+)+$",
    Subj = lists:duplicate(26, $a) ++ "b",
    show("match_limit nomatch", fun() -> re:run(Subj, Evil, [{match_limit, 1000}]) end),
    show("match_limit report", fun() -> re:run(Subj, Evil, [{match_limit, 1000}, report_errors]) end),
    show("match_limit global", fun() -> re:run(Subj, Evil, [{match_limit, 1000}, report_errors, global]) end),
    show("match_limit enough", fun() -> re:run("aab", "a+b", [{match_limit, 1000}, report_errors]) end),
    show("match_limit 0", fun() -> re:run("aab", "a+b", [{match_limit, 0}, report_errors]) end),
    show("recursion limit", fun() -> re:run(lists:duplicate(1000, $a), "(a)+$", [{match_limit_recursion, 5}, report_errors]) end),
    show("recursion limit plain", fun() -> re:run(lists:duplicate(1000, $a), "(?:a|b)*?c", [{match_limit_recursion, 5}]) end),
    show("default limit", fun() -> re:run(lists:duplicate(32, $a) ++ "b", Evil, [report_errors]) end),
    show("long subject", fun() -> re:run(lists:duplicate(200000, $a) ++ "b", "a*b", [{capture, none}]) end),
    show("long global", fun() -> length(element(2, re:run(binary:copy(<<"ab">>, 20000), "b", [global]))) end).

errors() ->
    Bad = ["(", ")", "a)", "[a", "[z-a]", "a{2,1}", "a{99999}", "*", "a**", "+a", "\\", "a\\",
           "\\c", "(?<n>a)(?<n>b)", "(?<1n>a)", "(?<n", "(?P<n>a)(?P=m)", "\\k", "\\k<zz>", "\\g",
           "\\g{9}", "(a)\\2", "(?<=a+)b", "(?<=a|bc)d", "(?<=a*)", "[[:foo:]]", "[[.a.]]", "[:alpha:]",
           "\\x{110000}", "\\x{zz}", "\\o{8}", "\\o", "(?", "(?z)", "(?P", "(?P>", "(?#", "(?C256)",
           "(?C", "(*FOO)", "(*MARK)", "(?(1)a|b|c)", "(?(?x)a)", "(?(", "(?R", "(?+a)", "(?-0)",
           "\\L", "\\u", "\\N{name}", "\\p{Foo}", "\\p", "\\pZ", "(?1)", "(?<a>x)(?&b)",
           "(?|(a)|(b))\\3", "a{1,65536}", "(?i", "x{2}{3}", "\\c\x80", "\\8", "[\\8]", "(*UTF)\xff",
           "(?(DEFINE)a|b)", "(?<n>a)(?<m>b)(?<n>c)", "[a-\\d]", "[\\d-z]", "[\\w-.]+@", "(a)(?<=\\1)", "(?<! \\1(\\s))", "(a)(?<=x\\g1)b",
           "(?<n>a)(?<=\\k<n>)", "(a)(?<=[\\1])", "(?<=(a)\\1)", "(?<=\\Q\\1\\E)", "(?<!((?=\\1)(\\B)))", "[\\y-\\d-a-\\w-]", "\\y(", "a(?=b)*", "\\Ca",
           lists:duplicate(300, $() ++ lists:duplicate(300, $)), lists:duplicate(40, $a) ++ "(?<" ++
           lists:duplicate(40, $n) ++ ">x)"],
    [show(io_lib:format("compile ~w", [P]), fun() -> ok_or_error(re:compile(P)) end) || P <- Bad],
    %% Recursions that may loop: refused by PCRE 8.44, found by beamvm before PCRE2 compiles.
    Loops = ["(\\w|(?1))", "((?1))", "x(\\b(?1))", "(?R)", "a|(?R)", "(a?(?1))", "(?<n>\\.|(?&n))",
             "((?:(?1)))", "(a|(?:b|(?1)))", "(?=(?1))(a)", "(x(?-1))", "((?2))((?1))", "(^(?1))",
             "((?i)(?1))", "((?=a)(?1))", "(a*(?1))", "(a+(?1))", "(a{0,2}(?1))", "(a{1,2}(?1))",
             "((?=(?1)))", "(a|b)(?1)", "(?:(?R)|x)", "((?#c)(?1))", "((*ACCEPT)(?1))", "(\\Qab\\E(?1))",
             "(\\Q\\E(?1))", "([a](?1))", "(\\K(?1))", "((?P<n>x)(?P>n))", "(?P<n>(?P>n))", "(a(?1)?b)",
             "(?i:(?R))", "((?>\\d)(?1)*?)", "((?>)(?1))", "(?|(a)|(?1))", "(?(1)(?1))"],
    [show(io_lib:format("compile loop ~w", [P]), fun() -> ok_or_error(re:compile(P)) end) || P <- Loops],
    [show(io_lib:format("compile unicode ~w", [P]), fun() -> ok_or_error(re:compile(P, [unicode])) end)
     || P <- [<<255>>, <<"a", 16#C3>>, <<16#ED, 16#A0, 16#80>>, "\\x{d800}", [16#D800], "é(", [256, $(]]],
    show("run errors", fun() -> [re:run("a", P, [report_errors]) || P <- ["(", "a{2,1}", "[a"]] end).

unicode() ->
    run_cases([
      {"日本語", "本", [unicode]}, {"日本語", "本", [unicode, {capture, all, list}]},
      {"日本語", "本", [unicode, {capture, all, binary}]}, {<<"日本語"/utf8>>, <<"本"/utf8>>, [unicode, {capture, all, list}]},
      {"日本語", ".", [unicode, global, {capture, all, list}]}, {"日本語", "", [unicode, global]},
      {"aé", "É", [unicode, caseless]}, {"aé", "[[:alpha:]]+", [unicode, {capture, all, list}]},
      {"aé", "[[:alpha:]]+", [unicode, ucp, {capture, all, list}]}, {"Ωω", "ω", [unicode, caseless, global]},
      {"a\x{2028}b", "a\\Rb", [unicode]}, {"a\x{2028}b", "^b", [unicode, multiline, {newline, any}]},
      {<<255>>, "a", [unicode]}, {<<"a", 255>>, "a", [unicode]}, {[256, $a], "a", []}, {[256], "a", [unicode]},
      {"é", <<"é"/utf8>>, [unicode]}, {<<"é"/utf8>>, "é", [unicode, {offset, 1}]},
      {<<"éa"/utf8>>, <<"a">>, [unicode, {offset, 1}]}, {<<"éa"/utf8>>, <<"a">>, [unicode, {offset, 2}]},
      {"é", "\\x{e9}", [unicode]}, {"é", "\\xe9", []}, {"\x{1F600}x", "\\X", [unicode, {capture, all, list}]},
      {"\x{1F600}x", "\\p{So}", [unicode]}, {"aB", "\\p{Lu}", [unicode]}, {"aB", "\\p{Ll}", []},
      {"Straße", "STRASSE", [unicode, caseless]}, {"ǅ", "ǆ", [unicode, caseless]},
      {"aéb", "a\\Cb", [unicode]}, {"ab", "(*UTF)a", []}, {"日本", "(*UTF)本", [{capture, all, list}]}
    ]),
    {ok, U} = re:compile("(.)(.)", [unicode]),
    show("unicode precompiled list", fun() -> re:run("日本語", U, [{capture, all, list}]) end),
    show("unicode precompiled global list", fun() -> re:run("日本語x", U, [global, {capture, all, list}]) end),
    show("unicode precompiled binary", fun() -> re:run(<<"日本語"/utf8>>, U, [{capture, all_but_first, binary}]) end),
    show("unicode precompiled bad", fun() -> re:run(<<255, 1>>, U) end),
    show("unicode compile list", fun() -> ok_or_error(re:compile([$(, 16#65E5, $)], [unicode])) end),
    show("unicode compile bad list", fun() -> re:compile([$a, -1], [unicode]) end).

%% The class bits and case partner of every code unit without `unicode`: OTP's PCRE uses
%% Latin-1 tables.
latin1() ->
    Classes = ["\\w", "\\d", "\\s", "\\h", "\\v", "[[:alpha:]]", "[[:upper:]]", "[[:lower:]]", "[[:xdigit:]]",
               "[[:graph:]]", "[[:print:]]", "[[:punct:]]", "[[:cntrl:]]", "[[:space:]]", "[[:alnum:]]",
               "[[:blank:]]", "[[:word:]]", "\\b", "[[:^alpha:]]", "(?i)[a-z]"],
    M = fun(C, R, O) -> case re:run([C], R, O) of {match, _} -> $1; nomatch -> $0 end end,
    [io:format("latin1 ~w ~s ~w~n", [C, [M(C, R, []) || R <- Classes],
        [D || D <- lists:seq(0, 255), D =/= C, M(D, [$\\, $x, ${ | integer_to_list(C, 16)] ++ "}", [caseless]) == $1]])
     || C <- lists:seq(0, 255)].

compiled() ->
    {ok, MP} = re:compile("(?<w>\\w+)@(\\w+)", [caseless]),
    MP2 = binary_to_term(term_to_binary(MP)),
    show("round trip equal", fun() -> MP2 =:= MP end),
    show("round trip run", fun() -> re:run("mail: Bob@Example", MP2, [{capture, all, list}]) end),
    show("round trip inspect", fun() -> re:inspect(MP2, namelist) end),
    Parent = self(),
    spawn(fun() -> Parent ! {ran, re:run("x@y", MP2, [{capture, [w], list}])} end),
    show("other process", fun() -> receive {ran, R} -> R end end),
    show("junk pattern", fun() -> re:run("a", {re_pattern, 0, 0, 0, <<"junk">>}) end),
    show("junk pattern short", fun() -> re:run("a", {re_pattern, 0, 0, 0, <<>>}) end),
    show("junk pattern global", fun() -> re:run("a", {re_pattern, 0, 0, 0, <<"junk">>}, [global]) end),
    show("pattern with bad fields", fun() -> re:run("a", setelement(2, MP, x)) end),
    show("pattern bits", fun() -> re:run("a", setelement(5, MP, <<1:7>>)) end).

replace_split() ->
    Rs = [[], [global], [{return, list}], [{return, binary}], [{return, iodata}], [global, {return, list}],
          [caseless, global, {return, list}], [{offset, 2}, global, {return, list}], [unicode, {return, list}],
          [anchored, {return, list}], [notempty, global, {return, list}], [{newline, crlf}, multiline, global, {return, list}],
          [{capture, all}], [bad]],
    [show(io_lib:format("replace ~w", [O]), fun() -> re:replace("Hello World hello", "(h)(e)llo", "<\\2&\\1\\\\>", O) end) || O <- Rs],
    show("replace empty global", fun() -> re:replace("abc", "", "-", [global, {return, list}]) end),
    show("replace unicode", fun() -> re:replace("日本語", "本", "x", [unicode, {return, list}]) end),
    show("replace unicode binary", fun() -> re:replace(<<"日本語"/utf8>>, "(.)", "[\\1]", [unicode, global, {return, binary}]) end),
    show("replace \\g", fun() -> re:replace("abc", "(b)", "\\g{1}\\g1x", [{return, list}]) end),
    show("replace fun", fun() -> re:replace("a1b22", "\\d+", fun(W, _) -> [$<, W, $>] end, [global, {return, list}]) end),
    show("replace precompiled", fun() -> re:replace("aaa", element(2, re:compile("a")), "b", [global, {return, list}]) end),
    Ss = [[], [{return, list}], [{return, binary}], [{return, iodata}], [trim, {return, list}], [{parts, 2}, {return, list}],
          [{parts, 0}, {return, list}], [{parts, infinity}, {return, list}], [group, {return, list}],
          [group, trim, {return, list}], [caseless, {return, list}], [{offset, 3}, {return, list}],
          [unicode, {return, list}], [{parts, -1}], [global], [{capture, none}], [notempty, {return, list}],
          [{newline, cr}, multiline, {return, list}], [bad]],
    [show(io_lib:format("split ~w", [O]), fun() -> re:split("a1B2c3 d44,,", "(\\d)|,", O) end) || O <- Ss],
    show("split empty", fun() -> re:split("abc", "", [{return, list}]) end),
    show("split empty subject", fun() -> re:split("", ",", [{return, list}]) end),
    show("split unicode", fun() -> re:split("日,本", ",", [unicode, {return, list}]) end),
    show("split unicode empty", fun() -> re:split(<<"日本"/utf8>>, "", [unicode, {return, binary}]) end).

%% Random patterns from common pieces, on random subjects; options drawn from a few sets.
random_cases(N) ->
    rand:seed(exsss, {7, 11, 13}),
    [random_case(I) || I <- lists:seq(1, N)].

random_case(I) ->
    P = lists:flatten(gen(rand:uniform(5))),
    S = [pick("abcAB1 _-\n.x") || _ <- lists:seq(1, rand:uniform(12))],
    O = pick([[], [global], [caseless], [multiline, global], [dotall], [ungreedy, global], [anchored],
              [{capture, all, list}], [global, {capture, all_but_first, binary}], [notempty, global],
              [extended], [dollar_endonly], [{offset, 1}], [notbol], [firstline], [no_auto_capture, global]]),
    io:format("random ~w ~w ~w ~w -> ~w~n", [I, P, S, O, t(fun() -> re:run(S, P, O) end)]).

gen(0) -> atom();
gen(D) ->
    case rand:uniform(7) of
        1 -> [gen(D - 1), gen(D - 1)];
        2 -> [gen(D - 1), $|, gen(D - 1)];
        3 -> [$(, gen(D - 1), $)];
        4 -> [pick(["(?:", "(?=", "(?!", "(?<=", "(?<!", "(?>", "(?i)(?:", "(?<n>"]), gen(D - 1), $)];
        5 -> [gen(D - 1), quant()];
        _ -> [atom(), gen(D - 1)]
    end.

atom() ->
    pick(["a", "b", "c", "A", "1", " ", ".", "\\d", "\\w", "\\s", "\\W", "[ab]", "[^a]", "[a-c]", "\\b",
          "\\B", "^", "$", "x", "\\1", "\\.", "[[:alpha:]]", "-", "_", "\\n", "\\Z", "\\z", "\\A", "\\G",
          "[\\d_]", "\\K", "(?1)", "\\R", "\\h", "(", ")", "[", "{2}"]).

quant() -> pick(["*", "+", "?", "*?", "+?", "??", "*+", "++", "{2}", "{1,2}", "{0,}", "{,2}", "{2,}?"]).

pick(L) when is_list(L) -> lists:nth(rand:uniform(length(L)), L).

%% Unicode: code points of one to four bytes, Latin-1 letters, newlines of every convention;
%% subjects as character lists or UTF-8 binaries; each case through run, replace and split.
random_unicode(N) ->
    rand:seed(exsss, {3, 5, 8}),
    [random_unicode_case(I) || I <- lists:seq(1, N)].

random_unicode_case(I) ->
    P = lists:flatten(ugen(rand:uniform(4))),
    S = [pick([$a, $b, $é, $É, 16#3A9, 16#3C9, 16#65E5, $\n, $\r, $\s, $1, $_, 16#2028, 16#1F600, 16#DF, 16#85])
         || _ <- lists:seq(1, rand:uniform(10))],
    O = pick([[unicode], [unicode, global], [unicode, caseless], [unicode, ucp], [unicode, ucp, caseless, global],
              [unicode, {capture, all, list}], [unicode, global, {capture, all, binary}],
              [unicode, multiline, {newline, any}, global], [unicode, {newline, anycrlf}, multiline],
              [unicode, bsr_anycrlf], [unicode, dotall, {newline, crlf}], [caseless], []]),
    Subj = case rand:uniform(2) of 1 -> S; 2 -> unicode:characters_to_binary(S) end,
    NoCapture = O -- [global, {capture, all, list}, {capture, all, binary}],
    io:format("unicode ~w ~w ~w ~w -> ~w ~w ~w~n", [I, P, Subj, O, t(fun() -> re:run(Subj, P, O) end),
        t(fun() -> re:replace(Subj, P, "<&>", NoCapture ++ [global, {return, binary}]) end),
        t(fun() -> re:split(Subj, P, NoCapture ++ [{return, list}]) end)]).

ugen(0) -> uatom();
ugen(D) ->
    case rand:uniform(6) of
        1 -> [ugen(D - 1), ugen(D - 1)];
        2 -> [ugen(D - 1), $|, ugen(D - 1)];
        3 -> [$(, ugen(D - 1), $)];
        4 -> [pick(["(?:", "(?=", "(?!", "(?<=", "(?i)(?:", "(?<n>", "(?>"]), ugen(D - 1), $)];
        5 -> [ugen(D - 1), pick(["*", "+", "?", "*?", "{2}", "++"])];
        _ -> [uatom(), ugen(D - 1)]
    end.

uatom() ->
    pick(["a", "é", "É", [16#3A9], [16#65E5], ".", "\\w", "\\W", "\\s", "\\d", "\\b", "^", "$", "\\R", "\\X",
          "\\p{L}", "\\p{Lu}", "\\P{Ll}", "[[:alpha:]]", "[[:upper:]]", "[é-ö]", "[^a]", "\\x{e9}", "\\N", "\\h",
          "\\v", "\\C", "(?u)", "ß", "\\K", "[\\w]", "\\xdf"]).

%% A compiled pattern's binary is the engine's own (erl's is PCRE's code): only the shape.
ok_or_error({ok, {re_pattern, N, U, C, B}}) when is_binary(B) -> {ok, N, U, C};
ok_or_error(Other) -> Other.
