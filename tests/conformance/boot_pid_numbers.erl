%% Pid numbers of the processes made while OTP boots, before the kernel application starts:
%% init, erts_code_purger, erl_prim_loader and the process running `-s` have erl's pids. (Pids
%% made once kernel runs may differ on some hosts: docs/boot.md, "Pids".)
-module(boot_pid_numbers).
-export([main/0]).

main() ->
    [io:format("~p: ~p~n", [Name, whereis(Name)]) || Name <- [init, erts_code_purger, erl_prim_loader]],
    io:format("self: ~p~n", [self()]),
    io:format("<0.0.0> is init: ~p~n", [list_to_pid("<0.0.0>") =:= whereis(init)]),
    ok.
