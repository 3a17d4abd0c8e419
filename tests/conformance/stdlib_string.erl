%% OTP's string module (both the old list API and the unicode:chardata API).
-module(stdlib_string).
-export([main/0, id/1]).

id(X) -> X.

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

main() ->
    S = id("  Hello, World  "),
    t(tokens, fun() -> string:tokens(id("a,b,,c d"), ", ") end),
    t(split, fun() -> string:split(id("a=b=c"), "=") end),
    t(split_all, fun() -> string:split(id("a=b=c"), "=", all) end),
    t(split_trailing, fun() -> string:split(id("a=b=c"), "=", trailing) end),
    t(lexemes, fun() -> string:lexemes(id("  x  y z "), " ") end),
    t(to_upper, fun() -> string:to_upper(id("abc XyZ 1")) end),
    t(to_lower, fun() -> string:to_lower(id("ABC xYz")) end),
    t(uppercase, fun() -> string:uppercase(id("mixed Case")) end),
    t(casefold, fun() -> string:casefold(id("ÄBC")) end),
    t(find, fun() -> string:find(id("hello world"), "o") end),
    t(find_trailing, fun() -> string:find(id("hello world"), "o", trailing) end),
    t(find_none, fun() -> string:find(id("hello"), "z") end),
    t(trim, fun() -> string:trim(S) end),
    t(trim_leading, fun() -> string:trim(S, leading) end),
    t(trim_chars, fun() -> string:trim(id("xxhixx"), both, "x") end),
    t(strip_old, fun() -> string:strip(id("..a.."), both, $.) end),
    t(length, fun() -> {string:length(S), string:length(id(<<"héllo"/utf8>>))} end),
    t(slice, fun() -> string:slice(id("abcdef"), 2, 3) end),
    t(reverse, fun() -> string:reverse(id("abc")) end),
    t(pad, fun() -> {string:pad(id("ab"), 5), string:pad(id("ab"), 5, leading, $*)} end),
    t(equal, fun() -> {string:equal("abc", "abc"), string:equal("abc", "ABC", true)} end),
    t(prefix, fun() -> {string:prefix(id("foobar"), "foo"), string:prefix(id("foobar"), "bar")} end),
    t(replace, fun() -> string:replace(id("a-b-c"), "-", "+", all) end),
    t(is_empty, fun() -> {string:is_empty(""), string:is_empty(" ")} end),
    t(join_old, fun() -> string:join(["x", "y", "z"], "::") end),
    t(substr_old, fun() -> {string:substr("hello", 2), string:substr("hello", 2, 2)} end),
    t(str_old, fun() -> {string:str("hello", "ll"), string:rstr("hello", "l")} end),
    t(chr, fun() -> {string:chr("hello", $l), string:rchr("hello", $l)} end),
    t(to_integer, fun() -> {string:to_integer("42abc"), string:to_integer("x")} end),
    t(to_float, fun() -> string:to_float("3.5e2 rest") end),
    t(binary_input, fun() -> string:uppercase(id(<<"bin">>)) end),
    t(next_grapheme, fun() -> string:next_grapheme(id("abc")) end),
    t(copies, fun() -> string:copies("ab", 3) end),
    t(span, fun() -> {string:span("aabbc", "ab"), string:cspan("aabbc", "c")} end),
    ok.
