%% enif_select through a NIF library of our own (tests/nif/select_monitor_nif.c), on pipes and
%% AF_UNIX socketpairs: read and write readiness, one-shot messages, the pid and ref a select
%% names, custom messages (with and without a message environment), cancel and its answer,
%% stop (direct when nothing is selected, and after selects) and the order of the stop and
%% destructor callbacks, the resource kept alive while selected, ERL_NIF_SELECT_ERROR, and a
%% steal by another resource. Messages print with resources and references named, not shown.
-module(nif_select).
-export([main/0]).
-export([pipe/0, socketpair/0, set_owner/2, dup_resource/1, id/1, write/2, fill/1, read/2, drain/1, close/1,
         is_closed/1, select/5, select_plain/3, mon_new/0, nodown_new/0, monitor/2, demonitor/2,
         compare/2, monitor_term/1]).

-define(STUB, erlang:nif_error(not_loaded)).
pipe() -> ?STUB.
socketpair() -> ?STUB.
set_owner(_, _) -> ?STUB.
dup_resource(_) -> ?STUB.
id(_) -> ?STUB.
write(_, _) -> ?STUB.
fill(_) -> ?STUB.
read(_, _) -> ?STUB.
drain(_) -> ?STUB.
close(_) -> ?STUB.
is_closed(_) -> ?STUB.
select(_, _, _, _, _) -> ?STUB.
select_plain(_, _, _) -> ?STUB.
mon_new() -> ?STUB.
nodown_new() -> ?STUB.
monitor(_, _) -> ?STUB.
demonitor(_, _) -> ?STUB.
compare(_, _) -> ?STUB.
monitor_term(_) -> ?STUB.

-define(READ, 1).
-define(WRITE, 2).
-define(STOP, 4).
-define(CANCEL, 8).
-define(CUSTOM, 16).
-define(ERROR, 32).

lib() -> filename:join([filename:dirname(code:which(?MODULE)), "nif", atom_to_list(?MODULE)]).

main() ->
    show(load, fun() -> erlang:load_nif(lib(), []) end),
    read_ready(),
    write_ready(),
    cancel(),
    stop(),
    custom(),
    lifetime(),
    socketpair_both(),
    errors(),
    steal(),
    show(end_messages, fun() -> wait(100) end).

read_ready() ->
    show(read_ready, fun() ->
        {R, W} = pipe(),
        Ref = make_ref(),
        A = read(R, 3),
        S = select(R, ?READ, null, Ref, false),
        Early = wait(50),
        ok = write(W, <<"hej">>),
        Msg = next([{R, r}, {Ref, ref}]),
        Data = read(R, 3),
        stop_both(R, W),
        {A, S, Early, Msg, Data} end),
    show(one_shot, fun() ->
        {R, W} = pipe(),
        Ref = make_ref(),
        0 = select(R, ?READ, null, Ref, false),
        ok = write(W, <<"a">>),
        M1 = next([{R, r}, {Ref, ref}]),
        ok = write(W, <<"b">>),
        Again = wait(100),
        0 = select(R, ?READ, null, Ref, false),
        M2 = next([{R, r}, {Ref, ref}]),
        stop_both(R, W),
        {M1, Again, M2} end),
    show(other_pid, fun() ->
        {R, W} = pipe(),
        Ref = make_ref(),
        Self = self(),
        P = spawn(fun() -> receive M -> Self ! {got, M} end end),
        0 = select(R, ?READ, P, Ref, false),
        ok = write(W, <<"x">>),
        Got = receive {got, M} -> norm(M, [{R, r}, {Ref, ref}]) after 2000 -> timeout end,
        stop_both(R, W),
        Got end),
    show(new_ref_replaces, fun() ->
        {R, W} = pipe(),
        Ref1 = make_ref(),
        Ref2 = make_ref(),
        0 = select(R, ?READ, null, Ref1, false),
        0 = select(R, ?READ, self(), Ref2, false),
        ok = write(W, <<"x">>),
        M = next([{R, r}, {Ref1, ref1}, {Ref2, ref2}]),
        stop_both(R, W),
        {M, wait(50)} end),
    show(undefined_ref, fun() ->
        {R, W} = pipe(),
        0 = select_plain(R, ?READ, undefined),
        ok = write(W, <<"x">>),
        M = next([{R, r}]),
        stop_both(R, W),
        M end),
    show(eof_is_ready, fun() ->
        {R, W} = pipe(),
        Ref = make_ref(),
        0 = select(R, ?READ, null, Ref, false),
        Stop = select(W, ?STOP, null, Ref, false),
        Msgs = [next([{R, r}, {W, w}, {Ref, ref}]), next([{R, r}, {W, w}, {Ref, ref}])],
        Eof = read(R, 1),
        StopR = select(R, ?STOP, null, Ref, false),
        {Stop, lists:sort(Msgs), Eof, StopR, next([{R, r}])} end).

write_ready() ->
    show(write_ready, fun() ->
        {R, W} = pipe(),
        Ref = make_ref(),
        Filled = fill(W) > 0,
        S = select(W, ?WRITE, self(), Ref, false),
        Early = wait(50),
        Drained = drain(R) > 0,
        Msg = next([{W, w}, {Ref, ref}]),
        stop_both(R, W),
        {Filled, S, Early, Drained, Msg} end),
    show(write_ready_at_once, fun() ->
        {R, W} = pipe(),
        Ref = make_ref(),
        S = select(W, ?WRITE, null, Ref, false),
        Msg = next([{W, w}, {Ref, ref}]),
        stop_both(R, W),
        {S, Msg} end).

cancel() ->
    show(cancel_read, fun() ->
        {R, W} = pipe(),
        Ref = make_ref(),
        0 = select(R, ?READ, null, Ref, false),
        C1 = select(R, ?READ bor ?CANCEL, null, Ref, false),
        C2 = select(R, ?READ bor ?CANCEL, null, Ref, false),
        ok = write(W, <<"x">>),
        Quiet = wait(100),
        stop_both(R, W),
        {C1, C2, Quiet} end),
    show(cancel_write, fun() ->
        {R, W} = pipe(),
        Ref = make_ref(),
        _ = fill(W),
        0 = select(W, ?WRITE, null, Ref, false),
        C1 = select(W, ?WRITE bor ?CANCEL, null, Ref, false),
        _ = drain(R),
        Quiet = wait(100),
        stop_both(R, W),
        {C1, Quiet} end),
    show(cancel_after_message, fun() ->
        {R, W} = pipe(),
        Ref = make_ref(),
        0 = select(R, ?READ, null, Ref, false),
        ok = write(W, <<"x">>),
        M = next([{R, r}, {Ref, ref}]),
        C = select(R, ?READ bor ?CANCEL, null, Ref, false),
        stop_both(R, W),
        {M, C} end),
    show(cancel_one_of_two, fun() ->
        {A, B} = socketpair(),
        Ref = make_ref(),
        _ = fill(A),
        0 = select(A, ?READ bor ?WRITE, null, Ref, false),
        C = select(A, ?WRITE bor ?CANCEL, null, Ref, false),
        _ = drain(B),
        ok = write(B, <<"in">>),
        M = next([{A, a}, {Ref, ref}]),
        stop_both(A, B),
        {C, M, wait(50)} end),
    show(cancel_never_selected, fun() ->
        {R, W} = pipe(),
        C = select(R, ?READ bor ?CANCEL, null, make_ref(), false),
        stop_both(R, W),
        C end).

stop() ->
    show(stop_unselected, fun() ->
        {R, W} = pipe(),
        S = select(R, ?STOP, null, make_ref(), false),
        Msgs = [next([{R, r}])],
        Closed = is_closed(R),
        stop_both(none, W),
        {S, Msgs, Closed} end),
    show(stop_with_read, fun() ->
        {R, W} = pipe(),
        Ref = make_ref(),
        0 = select(R, ?READ, null, Ref, false),
        S = select(R, ?STOP, null, Ref, false),
        M = next([{R, r}]),
        stop_both(none, W),
        {S, M, wait(50)} end),
    show(stop_with_both, fun() ->
        {A, B} = socketpair(),
        Ref = make_ref(),
        _ = fill(A),
        0 = select(A, ?READ bor ?WRITE, null, Ref, false),
        S = select(A, ?STOP, null, Ref, false),
        M = next([{A, a}]),
        stop_both(none, B),
        {S, M, wait(50)} end),
    show(stop_after_message, fun() ->
        {R, W} = pipe(),
        Ref = make_ref(),
        0 = select(R, ?READ, null, Ref, false),
        ok = write(W, <<"x">>),
        M = next([{R, r}, {Ref, ref}]),
        S = select(R, ?STOP, null, Ref, false),
        {M, S, next([{R, r}]), stop_both(none, W)} end),
    show(stop_twice, fun() ->
        {R, W} = pipe(),
        Ref = make_ref(),
        0 = select(R, ?READ, null, Ref, false),
        S1 = select(R, ?STOP, null, Ref, false),
        M1 = next([{R, r}]),
        S2 = select(R, ?STOP, null, Ref, false),
        M2 = next([{R, r}]),
        stop_both(none, W),
        {S1, M1, S2, M2} end),
    show(reselect_after_stop, fun() ->
        %% a new pipe may reuse the stopped descriptor's number
        {R, W} = pipe(),
        stop_both(R, W),
        {R2, W2} = pipe(),
        Ref = make_ref(),
        S = select(R2, ?READ, null, Ref, false),
        ok = write(W2, <<"x">>),
        M = next([{R2, r2}, {Ref, ref}]),
        stop_both(R2, W2),
        {S, M} end).

custom() ->
    show(custom_copied, fun() ->
        {R, W} = pipe(),
        Msg = {my, message, [1, 2, 3], <<"text">>, lists:duplicate(80, $b)},
        S = select(R, ?READ bor ?CUSTOM, null, Msg, false),
        ok = write(W, <<"x">>),
        Got = next_raw(),
        stop_both(R, W),
        {S, Got =:= Msg} end),
    show(custom_msg_env, fun() ->
        {R, W} = pipe(),
        Msg = {env_message, make_ref(), list_to_binary(lists:duplicate(100, $x))},
        S = select(R, ?READ bor ?CUSTOM, null, Msg, true),
        ok = write(W, <<"x">>),
        Got = next_raw(),
        stop_both(R, W),
        {S, Got =:= Msg} end),
    show(custom_write, fun() ->
        {R, W} = pipe(),
        S = select(W, ?WRITE bor ?CUSTOM, self(), writable, true),
        Got = next([]),
        stop_both(R, W),
        {S, Got} end),
    show(custom_both_directions, fun() ->
        {A, B} = socketpair(),
        S = select(A, ?READ bor ?WRITE bor ?CUSTOM, null, either, false),
        First = next([]),
        ok = write(B, <<"x">>),
        Second = next([]),
        stop_both(A, B),
        {S, First, Second} end).

lifetime() ->
    %% A selected resource lives on without any term of it: the poller's tie keeps it.
    show(kept_while_selected, fun() ->
        Self = self(),
        Ref = make_ref(),
        {Id, W} = in_process(fun() ->
            {R0, W0} = pipe(),
            ok = set_owner(R0, Self),
            ok = set_owner(W0, Self),
            0 = select(R0, ?READ, Self, Ref, false),
            {id(R0), W0} end),
        erlang:garbage_collect(),
        Kept = await_dtor(Id, 100),
        ok = write(W, <<"x">>),
        R = receive {select, R1, Ref, ready_input} -> R1 after 2000 -> timeout end,
        SameId = id(R) =:= Id,
        S = select(R, ?STOP, null, Ref, false),
        Stop = next([{R, r}]),
        stop_both(none, W),
        {Kept, SameId, S, Stop} end),
    show(dtor_after_stop, fun() ->
        {Rid, Wid, Stops} = select_stop_and_forget(),
        erlang:garbage_collect(),
        {Stops, await_dtor(Rid, 2000), await_dtor(Wid, 2000)} end).

%% Makes a pipe, selects its read end, stops both ends and forgets the resources.
select_stop_and_forget() ->
    {R, W} = pipe(),
    0 = select(R, ?READ, null, make_ref(), false),
    Stops = stop_both(R, W),
    {id(R), id(W), Stops}.

await_dtor(Id, Ms) ->
    receive {dtor, Id} -> freed after Ms -> kept end.

socketpair_both() ->
    show(socketpair_read_write, fun() ->
        {A, B} = socketpair(),
        Ref = make_ref(),
        S = select(A, ?READ bor ?WRITE, null, Ref, false),
        M1 = next([{A, a}, {Ref, ref}]),
        Quiet = wait(50),
        ok = write(B, <<"ping">>),
        M2 = next([{A, a}, {Ref, ref}]),
        Data = read(A, 10),
        stop_both(A, B),
        {S, M1, Quiet, M2, Data} end),
    show(peer_closed, fun() ->
        {A, B} = socketpair(),
        Ref = make_ref(),
        0 = select(A, ?READ, null, Ref, false),
        SB = select(B, ?STOP, null, Ref, false),
        %% the stop callback closes B: A's message may come before the callback's own
        Msgs = lists:sort([next([{A, a}, {B, b}, {Ref, ref}]), next([{A, a}, {B, b}, {Ref, ref}])]),
        E = read(A, 1),
        stop_both(A, none),
        {SB, Msgs, E} end).

errors() ->
    show(error_on_write_end, fun() ->
        {R, W} = pipe(),
        Ref = make_ref(),
        S = select(W, ?ERROR, null, Ref, false),
        Early = wait(50),
        0 = close(R),
        M = next([{W, w}, {Ref, ref}]),
        stop_both(none, W),
        {S, Early, M} end),
    show(error_cancelled, fun() ->
        {R, W} = pipe(),
        Ref = make_ref(),
        0 = select(W, ?ERROR, null, Ref, false),
        C = select(W, ?ERROR bor ?CANCEL, null, Ref, false),
        0 = close(R),
        Quiet = wait(100),
        stop_both(none, W),
        {C, Quiet} end),
    show(write_select_sees_error, fun() ->
        {R, W} = pipe(),
        Ref = make_ref(),
        _ = fill(W),
        0 = select(W, ?WRITE, null, Ref, false),
        0 = close(R),
        M = next([{W, w}, {Ref, ref}]),
        E = write(W, <<"x">>),
        stop_both(none, W),
        {M, E} end).

%% Another resource over the same descriptor takes it over: the old one's selects are gone.
%% erts sends logger an error report about it (timestamped): it is kept out of the output.
steal() ->
    #{level := Level} = logger:get_primary_config(),
    ok = logger:set_primary_config(level, none),
    show(steal, fun() ->
        {R, W} = pipe(),
        Ref = make_ref(),
        0 = select(R, ?READ, null, Ref, false),
        R2 = dup_resource(R),
        Ref2 = make_ref(),
        S = select(R2, ?READ, null, Ref2, false),
        ok = write(W, <<"x">>),
        M = next([{R, r}, {R2, r2}, {Ref, ref}, {Ref2, ref2}]),
        Quiet = wait(50),
        S2 = select(R2, ?STOP, null, Ref2, false),
        M2 = next([{R2, r2}]),
        stop_both(R, W),
        {S, M, Quiet, S2, M2} end),
    _ = sys:get_state(logger),
    ok = logger:set_primary_config(level, Level).

%% Stops both ends (either may be none) and returns the stop callbacks' messages, in order.
stop_both(A, B) ->
    [begin
         S = select(X, ?STOP, null, make_ref(), false),
         {S, next([{X, x}])}
     end || X <- [A, B], X =/= none].

in_process(Fun) ->
    Self = self(),
    {Pid, Ref} = spawn_monitor(fun() -> Self ! {result, self(), Fun()} end),
    receive {result, Pid, Result} -> ok end,
    receive {'DOWN', Ref, process, Pid, _} -> Result end.

%% The next message, resources and references replaced by the names in Names; callbacks'
%% ids relative to nothing (they carry a resource id, printed as is only through Names).
%% Destructors run when a collection finds a resource unreferenced, which differs between VMs:
%% their messages are only looked for where a case expects one (await_dtor).
next(Names) -> norm(next_raw(), Names).

next_raw() ->
    receive M when not is_tuple(M); element(1, M) =/= dtor -> M after 2000 -> timeout end.

norm(T, Names) ->
    case lists:keyfind(T, 1, Names) of
        {_, Name} -> Name;
        false when is_tuple(T) -> list_to_tuple([norm(E, Names) || E <- tuple_to_list(T)]);
        false when is_list(T) -> [norm(E, Names) || E <- T];
        false when is_reference(T) -> a_ref;
        false -> T
    end.


%% Messages that arrive within Ms milliseconds (none expected when checking quiet).
wait(Ms) ->
    receive M when not is_tuple(M); element(1, M) =/= dtor -> [M | wait(Ms)] after Ms -> [] end.

show(Label, Fun) ->
    Result = try Fun() catch Class:Reason:St -> {Class, Reason, hd(St)} end,
    io:format("~p: ~p~n", [Label, Result]).
