#!/usr/bin/env escript
%% -*- erlang -*-
%%! -kernel escript_check_key value +S 1
%% A source escript: main/1 with its arguments, the %%! line's emulator flags, standard input,
%% and the exit status of halt/1, of main returning, and of a crash (run with "crash").
-mode(compile).

main(Args) ->
    io:format("args: ~p~n", [Args]),
    io:format("env: ~p~n", [application:get_env(kernel, escript_check_key)]),
    io:format("script: ~p~n", [filename:basename(escript:script_name())]),
    io:format("plain: ~p~n", [init:get_plain_arguments()]),
    io:format("stdin: ~p~n", [io:get_line("")]),
    Fib = fun F(0) -> 0; F(1) -> 1; F(N) -> F(N - 1) + F(N - 2) end,
    io:format("fib: ~p~n", [Fib(20)]),
    case Args of
        ["halt", N] -> halt(list_to_integer(N));
        ["crash"] -> error({boom, Args});
        ["throw"] -> throw(oops);
        ["exit"] -> exit(bye);
        _ -> ok
    end.
