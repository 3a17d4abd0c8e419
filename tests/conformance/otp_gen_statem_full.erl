%% OTP's gen_statem (unmodified) under the booted kernel: both callback modes, state enter
%% calls, event/state/generic timeouts, postpone, next_event, calls with replies, stop. The
%% module is its own callback module; init's argument picks the mode. Every event the machine
%% sees is sent to the owner as {seen, State, EventType, Content}, so the order is printed.
-module(otp_gen_statem_full).
-behaviour(gen_statem).
-export([main/0]).
-export([init/1, callback_mode/0, terminate/3, locked/3, open/3, handle_event/4]).

t(Label, F) -> io:format("~p: ~p~n", [Label, clean(try F() catch C:R -> {C, R} end)]).

clean(T) when is_pid(T) -> pid;
clean(T) when is_reference(T) -> ref;
clean([H | T]) -> [clean(H) | clean(T)];
clean(T) when is_tuple(T) -> list_to_tuple(clean(tuple_to_list(T)));
clean(T) -> T.

%% The next N events the machine saw, in order (a missing one shows as `missing`).
seen(0) -> [];
seen(N) -> receive {seen, S, T, C} -> [{S, T, C} | seen(N - 1)] after 3000 -> [missing] end.

flush() -> receive X -> [X | flush()] after 0 -> [] end.

%% callback_mode/0 is called once per start; the mode comes from the process dictionary that
%% init/1 set.
callback_mode() -> get(mode).

init({Mode, Owner}) ->
    put(mode, Mode), put(owner, Owner),
    case Mode of
        state_functions -> {ok, locked, #{code => [1, 2, 3], input => []}};
        [handle_event_function, state_enter] -> {ok, idle, 0};
        handle_event_function -> {ok, idle, 0, [{next_event, internal, booted}]}
    end.

terminate(Reason, State, Data) -> get(owner) ! {terminate, Reason, State, Data}.

note(S, T, C) -> get(owner) ! {seen, S, T, C}.

%% state_functions: a code lock. Digits are cast; the right code opens it for a state timeout.
locked(T = cast, {digit, D}, #{code := Code, input := In} = Data) ->
    note(locked, T, D),
    case In ++ [D] of
        Code -> {next_state, open, Data#{input := []}, [{state_timeout, 100, lock}]};
        In2 when length(In2) < length(Code) -> {keep_state, Data#{input := In2}, [{timeout, 300, reset}]};
        _ -> {keep_state, Data#{input := []}}
    end;
locked(T = timeout, reset, Data) -> note(locked, T, reset), {keep_state, Data#{input := []}};
locked({call, From}, status, Data) -> {keep_state, Data, [{reply, From, {locked, Data}}]};
locked(T = {call, _}, open_door, _) -> note(locked, T, open_door), {keep_state_and_data, [postpone]};
locked(info, stop_now, _) -> {stop, {shutdown, asked}};
locked(T, C, _) -> note(locked, T, C), keep_state_and_data.

open(T = state_timeout, lock, Data) -> note(open, T, lock), {next_state, locked, Data};
open({call, From}, open_door, Data) ->
    note(open, call, open_door), {keep_state, Data, [{reply, From, opened}]};
open({call, From}, status, Data) -> {keep_state, Data, [{reply, From, {open, Data}}]};
open(T = cast, {digit, D}, _) -> note(open, T, D), {keep_state_and_data, [postpone]}.

%% handle_event_function, with or without state enter calls.
handle_event(enter, Old, S, N) ->
    note(S, enter, Old),
    case S of
        counting -> {keep_state, N, [{state_timeout, 20, from_enter}]};
        _ -> keep_state_and_data
    end;
handle_event(internal, booted, S, N) -> note(S, internal, booted), {keep_state, N + 100};
handle_event({call, From}, get, S, N) -> {keep_state_and_data, [{reply, From, {S, N}}]};
handle_event({call, From}, {go, To}, _S, N) -> {next_state, To, N, [{reply, From, {went, To}}]};
handle_event({call, From}, repeat, S, _N) -> {repeat_state_and_data, [{reply, From, {repeated, S}}]};
handle_event({call, From}, chain, _S, N) ->
    {keep_state, N, [{reply, From, chained},
                     {next_event, internal, one}, {next_event, cast, two}, {next_event, info, three}]};
handle_event({call, From}, {generic, Ms}, S, N) ->
    note(S, call, generic),
    {keep_state, N, [{reply, From, armed}, {{timeout, g1}, Ms, first}, {{timeout, g2}, Ms * 2, second}]};
handle_event({call, From}, {cancel, Name}, _S, N) ->
    {keep_state, N, [{reply, From, cancelled}, {{timeout, Name}, cancel}]};
handle_event({call, From}, {update, Name}, _S, N) ->
    {keep_state, N, [{reply, From, updated}, {{timeout, Name}, update, new_content}]};
handle_event({call, From}, event_timeout, _S, N) ->
    {keep_state, N, [{reply, From, ok}, {timeout, 20, idle_too_long}]};
handle_event({call, From}, {stop, R}, _S, N) -> {stop_and_reply, R, [{reply, From, stopping}], N};
handle_event({call, From}, crash, _S, _N) -> {keep_state_and_data, [{reply, From, 1 / zero()}]};
handle_event({call, From}, bad_action, _S, _N) -> {keep_state_and_data, [{bogus, From}]};
handle_event({call, From}, hibernate, _S, _N) -> {keep_state_and_data, [{reply, From, ok}, hibernate]};
handle_event(T, C, S, N) -> note(S, T, C), {keep_state, N + 1}.

zero() -> 0.

start(Mode) ->
    {ok, P} = gen_statem:start(?MODULE, {Mode, self()}, []), P.

stop(P) ->
    ok = gen_statem:stop(P),
    receive {terminate, R, S, D} -> {R, S, D} after 1000 -> no_terminate end.

main() ->
    case whereis(logger) of undefined -> ok; _ -> logger:set_primary_config(level, none) end,
    t(state_functions_lock, fun() ->
        P = start(state_functions),
        A = gen_statem:call(P, status),
        [gen_statem:cast(P, {digit, D}) || D <- [1, 2, 3]],
        B = gen_statem:call(P, status),
        %% The open state's state_timeout relocks it.
        Seen = seen(4),
        C = gen_statem:call(P, status),
        {A, B, Seen, C, stop(P)} end),
    t(event_timeout_fires, fun() ->
        P = start(state_functions),
        gen_statem:cast(P, {digit, 9}),
        S = seen(2),
        {S, gen_statem:call(P, status), stop(P)} end),
    t(event_timeout_cancelled_by_event, fun() ->
        P = start(state_functions),
        gen_statem:cast(P, {digit, 9}),
        P ! noise,
        S = seen(2),
        receive after 400 -> ok end,
        {S, gen_statem:call(P, status), stop(P), flush()} end),
    t(postpone_call_until_open, fun() ->
        P = start(state_functions),
        Self = self(),
        spawn(fun() -> Self ! {door, gen_statem:call(P, open_door)} end),
        S1 = seen(1),
        [gen_statem:cast(P, {digit, D}) || D <- [1, 2, 3]],
        R = receive {door, X} -> X after 2000 -> none end,
        {R, S1, seen(5), stop(P)} end),
    t(postpone_cast_in_open, fun() ->
        P = start(state_functions),
        [gen_statem:cast(P, {digit, D}) || D <- [1, 2, 3]],
        gen_statem:cast(P, {digit, 7}),
        %% Postponed while open; retried after the state timeout relocks.
        {seen(6), stop(P)} end),
    t(stop_from_state_function, fun() ->
        P = start(state_functions),
        M = monitor(process, P),
        P ! stop_now,
        D = receive {'DOWN', M, process, P, R} -> R end,
        T = receive {terminate, TR, TS, _} -> {TR, TS} end,
        {D, T} end),
    t(handle_event_next_event, fun() ->
        P = start(handle_event_function),
        A = gen_statem:call(P, get),
        B = gen_statem:call(P, chain),
        C = gen_statem:call(P, get),
        {A, B, C, seen(4), stop(P)} end),
    t(state_enter, fun() ->
        P = start([handle_event_function, state_enter]),
        S0 = seen(1),
        A = gen_statem:call(P, {go, busy}),
        B = gen_statem:call(P, {go, busy}),
        C = gen_statem:call(P, repeat),
        D = gen_statem:call(P, {go, counting}),
        {S0, A, B, C, D, seen(4), gen_statem:call(P, get), stop(P)} end),
    t(generic_timeouts, fun() ->
        P = start(handle_event_function),
        _ = seen(1),
        A = gen_statem:call(P, {generic, 10}),
        B = seen(3),
        C = gen_statem:call(P, {generic, 20}),
        D = gen_statem:call(P, {cancel, g1}),
        E = gen_statem:call(P, {update, g2}),
        {A, B, C, D, E, seen(2), stop(P)} end),
    t(event_timeout, fun() ->
        P = start(handle_event_function),
        _ = seen(1),
        ok = gen_statem:call(P, event_timeout),
        {seen(1), stop(P)} end),
    t(stop_and_reply, fun() ->
        P = start(handle_event_function),
        _ = seen(1),
        A = gen_statem:call(P, {stop, {shutdown, done}}),
        {A, receive {terminate, R, S, _} -> {R, S} end} end),
    t(crash_in_call, fun() ->
        P = start(handle_event_function),
        _ = seen(1),
        R = try gen_statem:call(P, crash) catch exit:{{E, [Top | _]}, {gen_statem, call, [_, crash, infinity]}} -> {E, Top} end,
        {R, receive {terminate, TR, S, _} -> {TR, S} end} end),
    t(bad_action, fun() ->
        P = start(handle_event_function),
        _ = seen(1),
        R = try gen_statem:call(P, bad_action) catch exit:{E, {gen_statem, call, _}} -> E end,
        {R, receive {terminate, TR, S, _} -> {TR, S} end} end),
    t(hibernate, fun() ->
        P = start(handle_event_function),
        _ = seen(1),
        ok = gen_statem:call(P, hibernate),
        wait_hibernated(P, 100),
        A = process_info(P, current_function),
        {A, gen_statem:call(P, get), stop(P)} end),
    t(call_timeout_and_dead, fun() ->
        P = start(state_functions),
        A = try gen_statem:call(P, open_door, 20) catch exit:{R1, _} -> R1 end,
        S = seen(1),
        stop(P),
        B = try gen_statem:call(P, status) catch exit:{R2, _} -> R2 end,
        C = try gen_statem:call(P, status, {dirty_timeout, 100}) catch exit:{R3, _} -> R3 end,
        {A, S, B, C, flush()} end),
    t(send_request, fun() ->
        P = start(handle_event_function),
        _ = seen(1),
        R = gen_statem:send_request(P, get),
        A = gen_statem:wait_response(R, 1000),
        R2 = gen_statem:send_request(P, get),
        B = gen_statem:receive_response(R2, 1000),
        {A, B, stop(P)} end),
    t(sys_state, fun() ->
        P = start(state_functions),
        A = sys:get_state(P),
        B = sys:replace_state(P, fun({S, D}) -> {S, D#{input := [1]}} end),
        {A, B, stop(P)} end),
    ok.

wait_hibernated(_P, 0) -> ok;
wait_hibernated(P, N) ->
    case process_info(P, current_function) of
        {current_function, {erlang, hibernate, 3}} -> ok;
        _ -> receive after 5 -> wait_hibernated(P, N - 1) end
    end.
