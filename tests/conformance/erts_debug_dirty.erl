%% erts_debug:dirty_cpu/2, dirty_io/2 and dirty/3 (OTP's test functions for dirty schedulers):
%% where each runs, rescheduling between scheduler types, the errors they raise with their
%% stack frame, copies made on a dirty scheduler, messages sent from one, and a process that
%% other processes look at (process_info, suspend) while it runs dirty.
-module(erts_debug_dirty).
-export([main/0]).

main() ->
    io:format("where: ~p~n", [[erts_debug:dirty_cpu(scheduler, type), erts_debug:dirty_io(scheduler, type),
                               erts_debug:dirty(normal, scheduler, type),
                               erts_debug:dirty(dirty_cpu, scheduler, type),
                               erts_debug:dirty(dirty_io, scheduler, type)]]),
    io:format("reschedule: ~p~n", [[erts_debug:dirty_cpu(reschedule, 1000), erts_debug:dirty_io(reschedule, 1000),
                                     erts_debug:dirty(normal, reschedule, 1000)]]),
    [io:format("~p~n", [catch_frame(F)])
     || F <- [fun() -> erts_debug:dirty_cpu(error, notsup) end,
              fun() -> erts_debug:dirty_io(error, system_limit) end,
              fun() -> apply(erts_debug, dirty_cpu, [error, undef]) end,
              fun() -> erts_debug:dirty(dirty_io, error, badarith) end,
              fun() -> erts_debug:dirty(normal, error, whatever) end,
              fun() -> erts_debug:dirty_cpu(reschedule, 1001) end,
              fun() -> erts_debug:dirty_io(wait, not_a_time) end,
              fun() -> erts_debug:dirty(sideways, scheduler, type) end,
              fun() -> erts_debug:dirty_cpu(nonsense, 1) end]],
    Ref = make_ref(),
    Copies = erts_debug:dirty_cpu(copy, {Ref, <<"bin">>, [1, 2.0, "three"]}),
    io:format("copies: ~p, all equal: ~p~n",
              [length(Copies), lists:all(fun(C) -> C =:= {Ref, <<"bin">>, [1, 2.0, "three"]} end, Copies)]),
    ok = erts_debug:dirty_io(send, self()),
    Self = self(),
    receive {ok, Self} -> io:format("sent from dirty: ok~n") end,
    See = spawn(fun() -> erts_debug:dirty_io(wait, 500), exit(back) end),
    Mon = monitor(process, See),
    wait_until(fun() -> process_info(See, [current_function, status]) ==
                            [{current_function, {erts_debug, dirty_io, 2}}, {status, running}] end),
    io:format("while dirty: ~p~n", [process_info(See, [current_function, status])]),
    erlang:suspend_process(See, [asynchronous]),
    wait_until(fun() -> process_info(See, status) == {status, suspended} end),
    io:format("suspended after the dirty call~n"),
    erlang:resume_process(See),
    receive {'DOWN', Mon, process, See, R} -> io:format("ended: ~p~n", [R]) end,
    ok.

catch_frame(F) ->
    try F() of V -> {returned, V}
    catch C:E:S -> {C, E, hd(S)}
    end.

wait_until(F) ->
    case F() of
        true -> ok;
        false -> receive after 10 -> wait_until(F) end
    end.
