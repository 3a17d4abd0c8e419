#!/usr/bin/env escript
%% -*- erlang -*-
%%! +sbtu +A1 +P 5000 +hms 1000 +fnu -kernel emu_flags_key 42 -env ESCRIPT_CHECK_VAR set
%% The %%! line with erl's emulator flags in their joined and separate forms (rebar3's is
%% `+sbtu +A1`): what they set, the flag passed to init, the environment, script_name.
main(Args) ->
    io:format("args: ~p~n", [Args]),
    io:format("script: ~p~n", [filename:basename(escript:script_name())]),
    io:format("info: ~p~n", [[erlang:system_info(I) || I <- [scheduler_bind_type, thread_pool_size,
                                                             process_limit, min_heap_size]]]),
    io:format("env: ~p ~p~n", [application:get_env(kernel, emu_flags_key), os:getenv("ESCRIPT_CHECK_VAR")]),
    io:format("encoding: ~p~n", [file:native_name_encoding()]),
    case Args of
        [N] -> halt(list_to_integer(N));
        _ -> ok
    end.
