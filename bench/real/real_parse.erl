%% Real workload (issue 29): scanning and parsing Erlang source, erl_scan:string/2 and
%% erl_parse:parse_form/1 over stdlib's erl_lint.erl (176 kB, hand-written), many times, as
%% epp, the shell and every tool that reads code do. Forms that use macros do not parse
%% without epp; they count as errors, the same on every VM.
-module(real_parse).
-export([main/0, quick/0]).

main() -> run("erl_lint.erl", 8).

quick() -> run("queue.erl", 2).

run(Name, Times) ->
    {ok, Bin} = file:read_file(filename:join(real_compile:src_dir(), Name)),
    Text = unicode:characters_to_list(Bin),
    Results = [parse(Text) || _ <- lists:seq(1, Times)],
    [{Tokens, Ok, Errors, Hash} | _] = Results,
    true = lists:all(fun(R) -> R =:= hd(Results) end, Results),
    io:format("real_parse: ~s x~p: ~p tokens, ~p forms parsed, ~p not, hash ~p~n",
              [Name, Times, Tokens, Ok, Errors, Hash]).

parse(Text) ->
    {ok, Tokens, _End} = erl_scan:string(Text, {1, 1}, [text]),
    Forms = forms(Tokens, [], []),
    Parsed = [erl_parse:parse_form(F) || F <- Forms],
    Ok = length([ok || {ok, _} <- Parsed]),
    {length(Tokens), Ok, length(Parsed) - Ok, erlang:phash2(Parsed)}.

%% Splits the token list at each full stop, as erl_scan:tokens/3 would.
forms([{dot, _} = Dot | Rest], Acc, Forms) -> forms(Rest, [], [lists:reverse(Acc, [Dot]) | Forms]);
forms([T | Rest], Acc, Forms) -> forms(Rest, [T | Acc], Forms);
forms([], _, Forms) -> lists:reverse(Forms).
