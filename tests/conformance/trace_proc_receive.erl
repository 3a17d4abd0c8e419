%% erlang:trace/3 `'receive'`: every message that enters the queue is traced, whatever its
%% kind (from another process, from itself, EXIT, DOWN, timers, port data) and the timeout of a
%% receive ... after.
-module(trace_proc_receive).
-export([main/0]).
-include("trace_proc_util.hrl").

main() ->
    A = start_agent(),
    B = start_agent(),
    Dead = spawn(fun() -> ok end),
    Mon = monitor(process, Dead),
    receive {'DOWN', Mon, _, _, _} -> ok end,
    name([{self(), main}, {A, a}, {B, b}, {Dead, dead}]),
    1 = erlang:trace(A, true, ['receive']),
    step("from another process", A, fun() -> do(B, fun() -> A ! hello end), receive hello -> ok end end, [B]),
    step("from itself", A, fun() -> self() ! hello, receive hello -> ok end end, []),
    step("after 0", A, fun() -> receive nothing -> ok after 0 -> timeout end end, []),
    step("after 1", A, fun() -> receive nothing -> ok after 1 -> timeout end end, []),
    step("EXIT through a link, trapping exits", A,
         fun() ->
                 process_flag(trap_exit, true),
                 P = spawn_link(fun() -> exit(bye) end),
                 receive {'EXIT', P, _} -> ok end,
                 process_flag(trap_exit, false)
         end, []),
    step("exit(self(), R) while trapping exits", A,
         fun() ->
                 process_flag(trap_exit, true),
                 exit(self(), bye),
                 receive {'EXIT', _, bye} -> ok end,
                 process_flag(trap_exit, false)
         end, []),
    step("link to a process that is gone, trapping exits", A,
         fun() ->
                 process_flag(trap_exit, true),
                 link(Dead),
                 receive {'EXIT', Dead, noproc} -> ok end,
                 process_flag(trap_exit, false)
         end, []),
    step("DOWN", A,
         fun() ->
                 {P, M} = spawn_monitor(fun() -> ok end),
                 receive {'DOWN', M, process, P, normal} -> ok end
         end, []),
    step("DOWN of a process that is gone", A,
         fun() ->
                 M = monitor(process, Dead),
                 receive {'DOWN', M, process, Dead, noproc} -> ok end
         end, []),
    step("erlang:send_after/3", A,
         fun() -> erlang:send_after(0, self(), tick), receive tick -> ok end end, []),
    step("erlang:start_timer/3", A,
         fun() -> erlang:start_timer(0, self(), tick), receive {timeout, _, tick} -> ok end end, []),
    step("port data", A,
         fun() ->
                 P = open_port({spawn, "cat"}, []),
                 P ! {self(), {command, "x"}},
                 receive {P, {data, _}} -> ok end,
                 port_close(P)
         end, []),
    1 = erlang:trace(A, false, ['receive']),
    step("after trace(A, false, ['receive'])", A, fun() -> self() ! hello, receive hello -> ok end end, []),
    ok.
