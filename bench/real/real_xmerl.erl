%% Real workload (issue 29): xmerl_scan:string/1 over a large XML document generated in-process
%% (a catalogue of items with attributes, text, entities and nested lists), then a walk of the
%% resulting #xmlElement{} tree. xmerl is OTP's XML parser (Debian's erlang-xmerl).
-module(real_xmerl).
-export([main/0, quick/0]).

-include_lib("xmerl/include/xmerl.hrl").

main() -> run(3000, 2).

quick() -> run(300, 1).

run(Items, Times) ->
    Doc = document(Items),
    Sums = [begin {Root, _Rest} = xmerl_scan:string(Doc), walk(Root, {0, 0, 0}) end
            || _ <- lists:seq(1, Times)],
    [{Elements, Attrs, TextHash} | _] = Sums,
    true = lists:all(fun(S) -> S =:= hd(Sums) end, Sums),
    io:format("real_xmerl: ~p items (~p chars) x~p: ~p elements, attribute sum ~p, text hash ~p~n",
              [Items, length(Doc), Times, Elements, Attrs, TextHash]).

document(N) ->
    lists:flatten(["<?xml version=\"1.0\"?>\n<catalog name=\"bench\">\n",
                   [item(I) || I <- lists:seq(1, N)], "</catalog>\n"]).

item(I) ->
    Kind = element(I rem 4 + 1, {"book", "disc", "tool", "food"}),
    ["  <item id=\"", integer_to_list(I), "\" kind=\"", Kind, "\">\n",
     "    <name>Item &amp; thing number ", integer_to_list(I * 7919 rem 100003), "</name>\n",
     "    <price currency=\"EUR\">", integer_to_list(I rem 997), ".", integer_to_list(I rem 100),
     "</price>\n    <tags>", [["<tag n=\"", integer_to_list(T), "\">t", integer_to_list(I + T),
                               "</tag>"] || T <- lists:seq(1, I rem 5 + 1)],
     "</tags>\n    <note><![CDATA[a < b && c > d]]> seen &lt;", Kind, "&gt;</note>\n  </item>\n"].

%% Counts elements, sums the integer attribute values, hashes the text in document order.
walk(#xmlElement{attributes = As, content = Cs}, {E, A, H}) ->
    A1 = lists:foldl(fun(#xmlAttribute{value = V}, Acc) -> Acc + attr_value(V) end, A, As),
    lists:foldl(fun walk/2, {E + 1, A1, H}, Cs);
walk(#xmlText{value = V}, {E, A, H}) ->
    {E, A, erlang:phash2({H, V})};
walk(_, Acc) ->
    Acc.

attr_value(V) ->
    case string:to_integer(V) of
        {N, ""} -> N;
        _ -> length(V)
    end.
