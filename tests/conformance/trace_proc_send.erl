%% erlang:trace/3 `send`: what erl gives as the destination of each kind of send, and
%% send_to_non_existing_process for a pid that is gone.
-module(trace_proc_send).
-export([main/0]).
-include("trace_proc_util.hrl").

main() ->
    A = start_agent(),
    B = start_agent(),
    true = register(trace_proc_send_b, B),
    Dead = spawn(fun() -> ok end),
    Mon = monitor(process, Dead),
    receive {'DOWN', Mon, _, _, _} -> ok end,
    name([{self(), main}, {A, a}, {B, b}, {Dead, dead}]),
    1 = erlang:trace(A, true, [send]),
    step("to a pid", A, fun() -> B ! hello end, []),
    step("to a registered name", A, fun() -> trace_proc_send_b ! hello end, []),
    step("to {Name, node()}", A, fun() -> {trace_proc_send_b, node()} ! hello end, []),
    step("to {Name, node()} not registered", A, fun() -> {trace_proc_send_none, node()} ! hello end, []),
    step("to a name not registered (badarg)", A,
         fun() -> reason(catch trace_proc_send_none ! hello) end, []),
    step("to a pid that is gone", A, fun() -> Dead ! hello end, []),
    step("to itself", A, fun() -> self() ! hello, receive hello -> ok end end, []),
    step("to an alias", A,
         fun() -> Al = alias(), Al ! hello, receive hello -> unalias(Al) end end, []),
    step("with erlang:send/2", A, fun() -> erlang:send(B, hello) end, []),
    step("with erlang:send/3", A, fun() -> erlang:send(B, hello, [noconnect]) end, []),
    step("to a port", A,
         fun() ->
                 P = open_port({spawn, "cat"}, []),
                 P ! {self(), {command, "x"}},
                 receive {P, {data, _}} -> ok end,
                 port_close(P)
         end, []),
    step("not a destination (badarg)", A, fun() -> reason(catch 42 ! hello) end, []),
    1 = erlang:trace(A, false, [send]),
    step("after trace(A, false, [send])", A, fun() -> B ! hello end, []),
    ok.

reason({'EXIT', {Reason, _Stack}}) -> Reason;
reason(Other) -> Other.
