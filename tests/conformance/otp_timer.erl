%% OTP's timer module (the timer server under the booted kernel) and the erlang timer BIFs:
%% sleep, apply_after, send_after, send_interval, cancel, tc, exit_after, kill_after, and the
%% results of erlang:start_timer/read_timer/cancel_timer. Times are printed only as
%% comparisons with bounds that hold on any machine; refs as atoms.
-module(otp_timer).
-export([main/0, note/2]).

t(Label, F) -> io:format("~p: ~p~n", [Label, clean(try F() catch C:R -> {C, R} end)]).

clean(T) when is_pid(T) -> pid;
clean(T) when is_reference(T) -> ref;
clean([H | T]) -> [clean(H) | clean(T)];
clean(T) when is_tuple(T) -> list_to_tuple(clean(tuple_to_list(T)));
clean(T) -> T.

flush() -> receive X -> [X | flush()] after 0 -> [] end.

note(To, What) -> To ! {note, What}.

now_ms() -> erlang:monotonic_time(millisecond).

main() ->
    Self = self(),
    t(sleep, fun() ->
        T0 = now_ms(), ok = timer:sleep(30), (now_ms() - T0) >= 30 end),
    t(sleep_zero_and_bad, fun() ->
        {timer:sleep(0), try timer:sleep(-1) catch C:R -> {C, R} end,
         try timer:sleep(foo) catch C2:R2 -> {C2, R2} end} end),
    t(apply_after, fun() ->
        {ok, TRef} = timer:apply_after(20, ?MODULE, note, [Self, applied]),
        R = receive {note, W} -> W after 3000 -> none end,
        {element(1, TRef), R} end),
    t(apply_after_cancelled, fun() ->
        {ok, TRef} = timer:apply_after(200, ?MODULE, note, [Self, should_not_come]),
        A = timer:cancel(TRef),
        B = timer:cancel(TRef),
        receive after 300 -> ok end,
        {A, B, flush()} end),
    t(send_after, fun() ->
        {ok, _} = timer:send_after(10, hello),
        {ok, _} = timer:send_after(20, Self, there),
        A = receive hello -> hello after 3000 -> none end,
        B = receive there -> there after 3000 -> none end,
        {A, B} end),
    t(send_interval, fun() ->
        {ok, TRef} = timer:send_interval(10, tick),
        Ticks = [receive tick -> tick after 3000 -> none end || _ <- lists:seq(1, 3)],
        C = timer:cancel(TRef),
        %% Ticks the server sent before it took the cancel are already queued (its reply
        %% comes after them); under load there may be some, on erl too. None may come after.
        _Before = flush(),
        receive after 50 -> ok end,
        {Ticks, C, flush()} end),
    t(send_interval_other_pid, fun() ->
        P = spawn(fun() -> Got = [receive X -> X end || _ <- [1, 2]], Self ! {got, Got} end),
        {ok, TRef} = timer:send_interval(10, P, beat),
        R = receive {got, G} -> G after 3000 -> none end,
        {R, timer:cancel(TRef)} end),
    t(bad_args, fun() ->
        [timer:send_after(-1, x), timer:apply_after(foo, m, f, []),
         timer:send_interval(-5, x), timer:cancel(not_a_tref)] end),
    t(tc, fun() ->
        {T, V} = timer:tc(lists, seq, [1, 5]),
        {T2, V2} = timer:tc(fun() -> timer:sleep(5), done end),
        {T3, V3} = timer:tc(fun(X) -> X * 2 end, [21]),
        {is_integer(T), T >= 0, V, T2 >= 5000, V2, is_integer(T3), V3} end),
    t(exit_after, fun() ->
        process_flag(trap_exit, true),
        P = spawn_link(fun() -> receive never -> ok end end),
        {ok, _} = timer:exit_after(10, P, my_reason),
        A = receive {'EXIT', P, R} -> R after 3000 -> none end,
        Q = spawn_link(fun() -> receive never -> ok end end),
        {ok, _} = timer:kill_after(10, Q),
        B = receive {'EXIT', Q, R2} -> R2 after 3000 -> none end,
        process_flag(trap_exit, false),
        {A, B} end),
    t(exit_after_self, fun() ->
        {P, M} = spawn_monitor(fun() -> {ok, _} = timer:exit_after(10, self_gone), receive never -> ok end end),
        receive {'DOWN', M, process, P, R} -> R end end),
    t(start_timer, fun() ->
        Ref = erlang:start_timer(500, Self, payload),
        A = erlang:read_timer(Ref),
        B = erlang:cancel_timer(Ref),
        C = erlang:read_timer(Ref),
        D = erlang:cancel_timer(Ref),
        {is_integer(A), A =< 500, A > 0, is_integer(B), B =< 500, C, D} end),
    t(start_timer_fires, fun() ->
        Ref = erlang:start_timer(10, Self, payload),
        R = receive {timeout, Ref, P} -> {timeout, P} after 3000 -> none end,
        {R, erlang:read_timer(Ref), erlang:cancel_timer(Ref)} end),
    t(timer_options, fun() ->
        Ref = erlang:send_after(400, Self, later),
        A = erlang:read_timer(Ref, [{async, false}]),
        ok = erlang:read_timer(Ref, [{async, true}]),
        B = receive {read_timer, Ref, V} -> is_integer(V) andalso V =< 400 after 3000 -> none end,
        ok = erlang:cancel_timer(Ref, [{async, true}, {info, true}]),
        C = receive {cancel_timer, Ref, W} -> is_integer(W) after 3000 -> none end,
        D = erlang:cancel_timer(Ref, [{info, false}]),
        Abs = erlang:monotonic_time(millisecond) + 10,
        Ref2 = erlang:start_timer(Abs, Self, abs, [{abs, true}]),
        E = receive {timeout, Ref2, abs} -> abs_fired after 3000 -> none end,
        {is_integer(A), B, C, D, E, flush()} end),
    t(timer_badargs, fun() ->
        [try erlang:start_timer(-1, Self, x) catch C:R -> {C, R} end,
         try erlang:send_after(10, "not a pid", x) catch C:R -> {C, R} end,
         try erlang:read_timer(make_ref()) catch C:R -> {C, R} end,
         try erlang:cancel_timer(not_a_ref) catch C:R -> {C, R} end,
         try erlang:start_timer(1 bsl 40, Self, x) catch C:R -> {C, R} end] end),
    t(timer_to_name, fun() ->
        register(otp_timer_main, Self),
        Ref = erlang:send_after(5, otp_timer_main, by_name),
        R = receive by_name -> by_name after 3000 -> none end,
        unregister(otp_timer_main),
        {R, erlang:read_timer(Ref)} end),
    t(conversions, fun() ->
        [timer:seconds(2), timer:minutes(2), timer:hours(1), timer:hms(1, 2, 3)] end),
    ok.
