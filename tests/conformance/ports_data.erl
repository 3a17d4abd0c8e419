%% erlang:port_set_data/2 and port_get_data/1 (a term kept with the port), and the type checks
%% of erts_internal:port_info/2 and open_port/2 that OTP's erlang.erl relies on.
-module(ports_data).
-export([main/0]).

t(F) -> try F() catch C:R:St -> {C, R, length(St) > 0} end.

main() ->
    P = open_port({spawn, "cat"}, []),
    io:format("~p~n", [[t(fun() -> erlang:port_get_data(P) end),
                        t(fun() -> erlang:port_set_data(P, {a, [1, 2], <<"bin">>, binary:copy(<<"x">>, 100)}) end),
                        t(fun() -> erlang:port_get_data(P) end),
                        t(fun() -> erlang:port_set_data(P, lists:seq(1, 100)) end),
                        t(fun() -> length(erlang:port_get_data(P)) end),
                        t(fun() -> erlang:port_get_data(x) end),
                        t(fun() -> erlang:port_set_data(self(), 1) end)]]),
    Self = self(),
    spawn(fun() -> Self ! {other, erlang:port_get_data(P)} end),
    receive {other, D} -> io:format("from another process: ~p~n", [length(D)]) end,
    port_close(P),
    io:format("~p~n", [[t(fun() -> erlang:port_get_data(P) end), t(fun() -> erlang:port_set_data(P, 1) end)]]),
    io:format("~p~n", [[t(fun() -> erts_internal:port_info(2, false) end), t(fun() -> erts_internal:port_info(ok, make_ref()) end),
                        t(fun() -> erts_internal:port_info(2, name) end), t(fun() -> erlang:port_info(ok, make_ref()) end),
                        t(fun() -> erlang:port_info(2, false) end), t(fun() -> erts_internal:open_port({1, 2, 3, 4, 5}, -1) end),
                        t(fun() -> erts_internal:open_port({1, 2, 3, 4, 5}, []) end), t(fun() -> erlang:open_port('', []) end),
                        t(fun() -> erts_internal:open_port({spawn, "true"}, [bad]) end),
                        t(fun() -> erts_internal:open_port(x, [{packet, 3}]) end)]]),
    %% A port of a command that ends at once may close itself before port_close/1: ignore that.
    Name = fun(N, O) -> try open_port(N, O) of Q -> catch port_close(Q), port catch C:R -> {C, R} end end,
    io:format("~p~n", [[Name('', [[]]), Name([960, 8364], []), Name('', []), Name("", []), Name({spawn, ""}, []),
                        Name({spawn_executable, ""}, []), Name("true", [])]]).
