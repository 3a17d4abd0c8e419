%% erlang:system_info/1 items AtomVM's corpus asks for (test_system_info): port_count is a
%% non-negative integer (erl counts its own ports, beamvm has none yet), system_architecture a
%% string, and an unknown item is badarg.
-module(sys_info_ports).
-export([main/0]).

main() ->
    N = erlang:system_info(port_count),
    io:format("port_count integer: ~p~n", [is_integer(N) andalso N >= 0]),
    A = erlang:system_info(system_architecture),
    io:format("system_architecture string: ~p~n", [io_lib:printable_latin1_list(A) andalso A =/= []]),
    io:format("unknown: ~p~n", [catch erlang:system_info(some_wierd_unused_key)]),
    ok.
