%% Driven by tests/unit/runtime_namespaces.cpp, which reads the VM's process count and module
%% code at each checkpoint (a name this process registers, then waits for `continue`).
%% A round: a namespace with five of OTP's modules loaded and 100 processes running its own
%% copy of timer:sleep/1. The first round only warms the root (everything the rounds call is
%% loaded there once), so the baseline is taken after it.
-module(ns_memory_driver).
-export([main/0]).

-define(PROCS, 100).
-define(MODULES, [queue, orddict, sets, gb_trees, timer]).

main() ->
    ok = beamvm:namespace_destroy(round()),
    checkpoint(ns_before),
    Ns = round(),
    checkpoint(ns_during),
    ok = beamvm:namespace_destroy(Ns),
    checkpoint(ns_after).

round() ->
    Ns = beamvm:namespace_new(measured),
    [{module, M} = beamvm:namespace_load(Ns, M, element(2, code:get_object_code(M))) || M <- ?MODULES],
    [beamvm:namespace_spawn(Ns, timer, sleep, [infinity]) || _ <- lists:seq(1, ?PROCS)],
    Ns.

checkpoint(Name) ->
    register(Name, self()),
    receive continue -> unregister(Name) end.
