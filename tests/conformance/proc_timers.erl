%% Timers and time: erlang:send_after/3,4, start_timer/3,4, cancel_timer/1,2, read_timer/1,2
%% (printing only facts that do not depend on timing: types, bounds, false after expiry, message
%% shapes and order), monotonic/system time and their units, timer:sleep/1.
%% Every check runs in a fresh process so no timer message outlives it.
-module(proc_timers).
-export([main/0]).

t(Label, F) -> erlang:display({Label, try in_fresh(F) catch C:R -> {C, R} end}).

in_fresh(F) ->
    Me = self(),
    {P, Ref} = spawn_monitor(fun() -> Me ! {r, self(), try F() catch C:R -> {C, R} end} end),
    receive
        {r, P, X} -> receive {'DOWN', Ref, _, _, _} -> ok end, X;
        {'DOWN', Ref, process, P, Why} -> {died, Why}
    end.

mailbox() -> receive M -> [M | mailbox()] after 0 -> [] end.

%% Replaces refs by ref so messages can be printed.
clean(X) when is_reference(X) -> ref;
clean(X) when is_pid(X) -> pid;
clean(X) when is_tuple(X) -> list_to_tuple(clean(tuple_to_list(X)));
clean(X) when is_list(X) -> [clean(E) || E <- X];
clean(X) -> X.

remaining_ok(R, Max) -> is_integer(R) andalso R >= 0 andalso R =< Max.

main() ->
    send_after_checks(),
    start_timer_checks(),
    cancel_read_checks(),
    order_checks(),
    bad_args(),
    time_checks(),
    ok.

send_after_checks() ->
    t(send_after_delivers, fun() -> Ref = erlang:send_after(5, self(), ping),
                                    {is_reference(Ref), receive ping -> got end} end),
    t(send_after_zero, fun() -> erlang:send_after(0, self(), zero), receive zero -> got end end),
    t(send_after_to_name, fun() -> register(ptimers_me, self()),
                                   erlang:send_after(5, ptimers_me, by_name),
                                   receive by_name -> got end end),
    t(send_after_to_unregistered_name, fun() -> Ref = erlang:send_after(2, ptimers_nobody, lost),
                                                timer:sleep(10),
                                                {erlang:read_timer(Ref), mailbox()} end),
    t(send_after_other_process, fun() -> Me = self(),
                                         P = spawn(fun() -> receive {tick, N} -> Me ! {relayed, N} end end),
                                         erlang:send_after(3, P, {tick, 7}),
                                         receive {relayed, N} -> N end end),
    t(send_after_abs, fun() -> Now = erlang:monotonic_time(millisecond),
                               erlang:send_after(Now + 5, self(), abs_msg, [{abs, true}]),
                               receive abs_msg -> got end end),
    %% Only just past: an absolute time before the runtime started is badarg in erl.
    t(send_after_abs_past, fun() -> Past = erlang:monotonic_time(millisecond) - 1,
                                    erlang:send_after(Past, self(), past, [{abs, true}]),
                                    receive past -> got end end),
    t(send_after_4_relative, fun() -> erlang:send_after(2, self(), rel, [{abs, false}]), receive rel -> got end end),
    t(send_after_no_extra_messages, fun() -> erlang:send_after(1, self(), once), receive once -> ok end,
                                             timer:sleep(5), mailbox() end),
    t(send_after_dead_pid, fun() -> {P, Ref} = spawn_monitor(fun() -> ok end),
                                    receive {'DOWN', Ref, _, _, _} -> ok end,
                                    T = erlang:send_after(1000, P, x),
                                    {is_reference(T), erlang:read_timer(T), erlang:cancel_timer(T)} end),
    t(send_after_cancelled_when_target_exits, fun() ->
                                                      {P, Ref} = spawn_monitor(fun() -> receive go -> ok end end),
                                                      T = erlang:send_after(100000, P, x),
                                                      Before = remaining_ok(erlang:read_timer(T), 100000),
                                                      P ! go,
                                                      receive {'DOWN', Ref, _, _, _} -> ok end,
                                                      {Before, wait_timer_gone(T)}
                                              end),
    ok.

%% A timer whose receiver died is cancelled by the runtime; wait (yielding) until it is. The
%% bound only stops a VM that never cancels it (erl has cancelled it by the time the DOWN arrives).
wait_timer_gone(T) -> wait_timer_gone(T, 100000).

wait_timer_gone(_, 0) -> still_armed;
wait_timer_gone(T, N) ->
    case erlang:read_timer(T) of
        false -> gone;
        _ -> erlang:yield(), wait_timer_gone(T, N - 1)
    end.

start_timer_checks() ->
    t(start_timer_message_shape, fun() -> Ref = erlang:start_timer(5, self(), hello),
                                          receive {timeout, R, Msg} -> {R =:= Ref, Msg} end end),
    t(start_timer_abs, fun() -> Now = erlang:monotonic_time(millisecond),
                                Ref = erlang:start_timer(Now + 3, self(), abs_t, [{abs, true}]),
                                receive {timeout, R, M} -> {R =:= Ref, M} end end),
    t(start_timer_to_name, fun() -> register(ptimers_st, self()),
                                    Ref = erlang:start_timer(2, ptimers_st, named),
                                    receive {timeout, R, M} -> {R =:= Ref, M} end end),
    t(start_timer_complex_message, fun() -> Ref = erlang:start_timer(1, self(), {a, [1, 2], <<"b">>, #{k => v}}),
                                            receive {timeout, Ref, M} -> M end end),
    ok.

cancel_read_checks() ->
    t(cancel_before_expiry, fun() -> Ref = erlang:send_after(60000, self(), never),
                                     R = erlang:cancel_timer(Ref),
                                     {remaining_ok(R, 60000), R > 50000, erlang:cancel_timer(Ref), mailbox()} end),
    t(read_before_expiry, fun() -> Ref = erlang:start_timer(60000, self(), never),
                                   R = erlang:read_timer(Ref),
                                   erlang:cancel_timer(Ref),
                                   {remaining_ok(R, 60000), R > 50000, erlang:read_timer(Ref)} end),
    t(read_after_expiry, fun() -> Ref = erlang:send_after(1, self(), done),
                                  receive done -> ok end,
                                  {erlang:read_timer(Ref), erlang:cancel_timer(Ref)} end),
    t(cancel_after_expiry_keeps_message, fun() -> Ref = erlang:send_after(1, self(), fired),
                                                  timer:sleep(10),
                                                  {erlang:cancel_timer(Ref), mailbox()} end),
    t(cancel_not_a_timer, fun() -> {erlang:cancel_timer(make_ref()), erlang:read_timer(make_ref())} end),
    t(cancel_async, fun() -> Ref = erlang:send_after(60000, self(), never),
                             ok = erlang:cancel_timer(Ref, [{async, true}]),
                             receive {cancel_timer, R, Left} -> {R =:= Ref, remaining_ok(Left, 60000)} end end),
    t(cancel_async_no_info, fun() -> Ref = erlang:send_after(60000, self(), never),
                                     A = erlang:cancel_timer(Ref, [{async, true}, {info, false}]),
                                     {A, erlang:read_timer(Ref), mailbox()} end),
    t(cancel_sync_no_info, fun() -> Ref = erlang:send_after(60000, self(), never),
                                    A = erlang:cancel_timer(Ref, [{info, false}]),
                                    {A, erlang:read_timer(Ref), mailbox()} end),
    t(cancel_async_expired, fun() -> Ref = erlang:send_after(1, self(), x), receive x -> ok end,
                                     ok = erlang:cancel_timer(Ref, [{async, true}]),
                                     clean(receive M -> M end) end),
    t(cancel_2_empty_options, fun() -> Ref = erlang:send_after(60000, self(), never),
                                       remaining_ok(erlang:cancel_timer(Ref, []), 60000) end),
    t(read_async, fun() -> Ref = erlang:send_after(60000, self(), never),
                           ok = erlang:read_timer(Ref, [{async, true}]),
                           R = receive {read_timer, R0, Left} -> {R0 =:= Ref, remaining_ok(Left, 60000)} end,
                           erlang:cancel_timer(Ref), R end),
    t(read_async_unknown, fun() -> ok = erlang:read_timer(make_ref(), [{async, true}]),
                                   clean(receive M -> M end) end),
    t(read_2_sync, fun() -> Ref = erlang:send_after(60000, self(), never),
                            R = remaining_ok(erlang:read_timer(Ref, [{async, false}]), 60000),
                            erlang:cancel_timer(Ref), R end),
    t(cancel_from_other_process, fun() -> Ref = erlang:send_after(60000, self(), never),
                                          Me = self(),
                                          spawn(fun() -> Me ! {c, remaining_ok(erlang:cancel_timer(Ref), 60000)} end),
                                          receive {c, X} -> {X, erlang:read_timer(Ref)} end end),
    ok.

order_checks() ->
    t(order_by_expiry_abs, fun() -> Base = erlang:monotonic_time(millisecond) + 20,
                                    [erlang:send_after(Base + 2 * D, self(), D, [{abs, true}])
                                     || D <- [9, 3, 7, 1, 5, 8, 2, 6, 4, 0]],
                                    [receive D -> D end || _ <- lists:seq(1, 10)] end),
    t(order_many_timers, fun() -> Base = erlang:monotonic_time(millisecond) + 10,
                                  Ts = [{I, erlang:start_timer(Base + (I rem 17) * 3 + I div 17 * 60, self(), I,
                                                               [{abs, true}])}
                                        || I <- lists:seq(1, 50)],
                                  Got = [receive {timeout, _, I} -> I end || _ <- Ts],
                                  Expected = [I || {_, I} <- lists:sort([{(I rem 17) * 3 + I div 17 * 60, I}
                                                                         || {I, _} <- Ts])],
                                  {length(Got), Got =:= Expected} end),
    t(timer_vs_after, fun() -> erlang:send_after(5, self(), soon),
                               receive soon -> timer_first after 2000 -> after_first end end),
    t(cancelled_timers_never_arrive, fun() -> Base = erlang:monotonic_time(millisecond) + 5,
                                              Refs = [erlang:send_after(Base + I, self(), {c, I}, [{abs, true}])
                                                      || I <- lists:seq(1, 20)],
                                              [erlang:cancel_timer(R) || {I, R} <- lists:zip(lists:seq(1, 20), Refs),
                                                                         I rem 2 =:= 0],
                                              timer:sleep(40),
                                              mailbox() end),
    ok.

bad_args() ->
    t(send_after_negative, fun() -> erlang:send_after(-1, self(), x) end),
    t(send_after_not_integer, fun() -> erlang:send_after(1.5, self(), x) end),
    t(send_after_bad_dest, fun() -> erlang:send_after(10, 42, x) end),
    t(send_after_bad_option, fun() -> erlang:send_after(10, self(), x, [bogus]) end),
    t(start_timer_negative, fun() -> erlang:start_timer(-5, self(), x) end),
    t(start_timer_bad_dest, fun() -> erlang:start_timer(10, "name", x) end),
    t(cancel_timer_badarg, fun() -> erlang:cancel_timer(not_a_ref) end),
    t(cancel_timer_bad_option, fun() -> erlang:cancel_timer(make_ref(), [bogus]) end),
    t(read_timer_badarg, fun() -> erlang:read_timer(42) end),
    t(sleep_negative, fun() -> timer:sleep(-1) end),
    t(sleep_atom, fun() -> timer:sleep(soon) end),
    ok.

time_checks() ->
    t(monotonic_nondecreasing, fun() -> Ts = [erlang:monotonic_time() || _ <- lists:seq(1, 1000)],
                                        Ts =:= lists:sort(Ts) end),
    t(monotonic_advances_over_sleep, fun() -> T1 = erlang:monotonic_time(millisecond),
                                              ok = timer:sleep(20),
                                              T2 = erlang:monotonic_time(millisecond),
                                              T2 - T1 >= 19 end),
    t(receive_after_waits_at_least, fun() -> T1 = erlang:monotonic_time(microsecond),
                                             receive never -> x after 15 -> ok end,
                                             T2 = erlang:monotonic_time(microsecond),
                                             T2 - T1 >= 14000 end),
    t(monotonic_units, fun() -> [is_integer(erlang:monotonic_time(U))
                                 || U <- [second, millisecond, microsecond, nanosecond, native, perf_counter,
                                          1000, 1]] end),
    t(monotonic_unit_consistency, fun() -> A = erlang:monotonic_time(millisecond),
                                           N = erlang:monotonic_time(nanosecond),
                                           B = erlang:monotonic_time(millisecond),
                                           NMs = erlang:convert_time_unit(N, nanosecond, millisecond),
                                           A =< NMs andalso NMs =< B end),
    t(monotonic_bad_unit, fun() -> erlang:monotonic_time(fortnight) end),
    t(system_time_plausible, fun() -> S = erlang:system_time(second), S > 1600000000 andalso S < 4000000000 end),
    t(system_time_units, fun() -> [is_integer(erlang:system_time(U)) || U <- [second, millisecond, microsecond,
                                                                             nanosecond, native]] end),
    t(system_time_0_native, fun() -> A = erlang:system_time(), B = erlang:system_time(native),
                                     is_integer(A) andalso B >= A end),
    t(os_system_time_close, fun() -> A = erlang:system_time(millisecond),
                                     B = os:system_time(millisecond),
                                     C = erlang:system_time(millisecond),
                                     {abs(B - A) < 1000, abs(C - B) < 1000, is_integer(os:system_time())} end),
    t(time_offset_relation, fun() -> M = erlang:monotonic_time(microsecond),
                                     O = erlang:time_offset(microsecond),
                                     S = erlang:system_time(microsecond),
                                     {is_integer(erlang:time_offset()), abs(S - (M + O)) < 100000} end),
    t(time_offset_bad_unit, fun() -> erlang:time_offset(fortnight) end),
    t(convert_time_unit, fun() -> [erlang:convert_time_unit(1, second, millisecond),
                                   erlang:convert_time_unit(1500, millisecond, second),
                                   erlang:convert_time_unit(-1500, millisecond, second),
                                   erlang:convert_time_unit(3, second, nanosecond),
                                   erlang:convert_time_unit(1, second, native) > 0] end),
    t(timer_sleep_returns_ok, fun() -> {timer:sleep(0), timer:sleep(1)} end),
    t(timer_sleep_keeps_messages, fun() -> self() ! kept, timer:sleep(2), mailbox() end),
    ok.
