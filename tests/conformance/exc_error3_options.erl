%% erlang:error/3 options: {error_info, Map} is added to the raising frame only when every
%% option is {error_info, Map} and the list is proper; the last one wins.
-module(exc_error3_options).
-export([main/0]).

id(X) -> X.

top(Options) ->
    try erlang:error(oops, [a, b], id(Options))
    catch error:oops:S -> hd(S)
    end.

main() ->
    Cases = [[], [{error_info, #{}}], [{error_info, #{cause => whatever}}],
             [{error_info, not_map}], [{bad, tuple}], [bad],
             [{error_info, #{a => 1}}, {error_info, #{b => 2}}],
             [{error_info, #{a => 1}}, bad], [bad, {error_info, #{a => 1}}],
             [{error_info, #{a => 1}} | improper], not_a_list, [{error_info, #{}, extra}]],
    [erlang:display({O, catch top(O)}) || O <- Cases],
    ok.
