%% Resources through a NIF library (tests/nif/nif_resources.c). The library counts objects
%% created and destroyed, so the number alive after a garbage collection shows whether the
%% destructor ran when the last reference went: a term, a reference kept by C code, a binary
%% made over the object. Also: two terms of one object are =:=, another type is refused,
%% monitors' down callback, 20,000 resources made and dropped.
-module(nif_resources).
-export([main/0]).
-export([new/1, new_twice/1, new_other/0, value/1, keep/1, release/1, release_kept/0, counts/0,
         many/1, resource_binary/1, monitor_process/2, demonitor_process/1, monitor_term/1]).

-define(STUB, erlang:nif_error(not_loaded)).
new(_) -> ?STUB.
new_twice(_) -> ?STUB.
new_other() -> ?STUB.
value(_) -> ?STUB.
keep(_) -> ?STUB.
release(_) -> ?STUB.
release_kept() -> ?STUB.
counts() -> ?STUB.
many(_) -> ?STUB.
resource_binary(_) -> ?STUB.
monitor_process(_, _) -> ?STUB.
demonitor_process(_) -> ?STUB.
monitor_term(_) -> ?STUB.

lib() -> filename:join([filename:dirname(code:which(?MODULE)), "nif", "nif_resources"]).

main() ->
    show(load, fun() -> erlang:load_nif(lib(), []) end),
    terms(),
    lifetimes(),
    monitors().

terms() ->
    show(value, fun() -> R = new(5), {is_reference(R), value(R)} end),
    show(twice, fun() -> {A, B} = new_twice(6), {A =:= B, A == B, value(A), value(B)} end),
    show(distinct, fun() -> new(1) =:= new(1) end),
    show(other_type, fun() -> value(new_other()) end),
    show(plain_ref, fun() -> value(make_ref()) end),
    show(not_ref, fun() -> value(atom) end),
    show(in_message, fun() ->
        R = new(8),
        self() ! {r, R},
        receive {r, R2} -> {R2 =:= R, value(R2)} end end),
    show(through_ets, fun() ->
        T = ets:new(t, []),
        ets:insert(T, {k, new(10)}),
        [{k, R}] = ets:lookup(T, k),
        V = value(R),
        ets:delete(T),
        V end),
    show(ext_format_roundtrip, fun() ->
        R = new(11),
        R2 = binary_to_term(term_to_binary(R)),
        {R2 =:= R, catch value(R2)} end),
    settle().

lifetimes() ->
    show(alive_after_terms, fun settle/0),
    show(drop_and_gc, fun() -> Before = settle(), V = make_and_forget(3), {V, settle() - Before} end),
    show(list_of_resources, fun() ->
        Before = settle(),
        N = length([value(new(I)) || I <- lists:seq(1, 1000)]),
        {N, settle() - Before} end),
    show(dying_process, fun() ->
        Before = settle(),
        in_process(fun() -> Rs = [new(I) || I <- lists:seq(1, 100)], length(Rs) end),
        settle() - Before end),
    show(many_in_c, fun() -> Before = settle(), ok = many(20000), settle() - Before end),
    show(kept_by_c, fun() ->
        Before = settle(),
        ok = in_process(fun() -> keep(new(12)) end),
        Kept = settle() - Before,
        Released = release_kept(),
        {Kept, Released, settle() - Before} end),
    show(keep_release_balanced, fun() ->
        Before = settle(),
        in_process(fun() -> R = new(13), ok = keep(R), ok = release(R), value(R) end),
        settle() - Before end),
    show(release_not_kept, fun() -> release(new(14)) end),
    % The binary keeps its resource alive, and enif_get_resource finds the resource through it
    % (beamvm's binary holds a copy of the bytes: docs/nif.md, "Where beamvm differs from erts").
    show(resource_binary_lifetime, fun() ->
        Before = settle(),
        Held = in_process(fun() -> Bin = resource_binary(new(17)), {settle() - Before, byte_size(Bin)} end),
        {Held, settle() - Before} end),
    show(resource_binary_get_resource, fun() ->
        in_process(fun() ->
            Bin = resource_binary(new(18)),
            <<_:8, Sub/binary>> = Bin,
            {value(Bin), catch value(Sub), catch value(binary:copy(Bin))} end) end),
    show(resource_binary, fun() ->
        Bin = in_process(fun() -> resource_binary(new(15)) end),
        % Its bytes, not the binary: the io server would hold the resource until it collects.
        {binary_to_list(Bin), Bin =:= binary:copy(Bin)} end),
    show(resource_binary_dropped, fun settle/0),
    show(sub_of_resource_binary, fun() ->
        Before = settle(),
        Part = in_process(fun() -> <<_:3/binary, P:4/binary, _/binary>> = resource_binary(new(16)), P end),
        {binary_to_list(Part), settle() - Before} end),
    show(all_dropped, fun settle/0).

monitors() ->
    show(down, fun() ->
        P = spawn(fun() -> receive stop -> ok end end),
        R = new(20),
        M = monitor_process(R, P),
        P ! stop,
        {M, receive {res_down, _, _} = D -> D after 5000 -> timeout end} end),
    show(down_on_kill, fun() ->
        P = spawn(fun() -> receive stop -> ok end end),
        R = new(21),
        M = monitor_process(R, P),
        exit(P, kill),
        {M, receive {res_down, _, _} = D -> D after 5000 -> timeout end, value(R)} end),
    show(monitor_dead, fun() ->
        P = spawn(fun() -> ok end),
        wait_down(P),
        monitor_process(new(22), P) end),
    show(demonitor, fun() ->
        P = spawn(fun() -> receive stop -> ok end end),
        R = new(23),
        M = monitor_process(R, P),
        D1 = demonitor_process(R),
        D2 = demonitor_process(R),
        P ! stop,
        wait_down(P),
        {M, D1, D2, flush()} end),
    show(monitor_term, fun() ->
        P = spawn(fun() -> receive stop -> ok end end),
        R = new(24),
        0 = monitor_process(R, P),
        T1 = monitor_term(R),
        T2 = monitor_term(R),
        P ! stop,
        receive {res_down, _, _} -> ok after 5000 -> timeout end,
        {is_reference(T1), T1 =:= T2} end),
    %% The object dies while it monitors: no down callback afterwards.
    show(monitor_of_dead_object, fun() ->
        P = spawn(fun() -> receive stop -> ok end end),
        Before = settle(),
        in_process(fun() -> monitor_process(new(25), P) end),
        Dropped = settle() - Before,
        P ! stop,
        wait_down(P),
        receive after 50 -> ok end,
        {Dropped, flush()} end),
    show(end_alive, fun settle/0).

make_and_forget(V) ->
    R = new(V),
    {V2, _} = value(R),
    V2.

%% Runs Fun in a process of its own; what it created dies with it unless it is returned.
%% Its result, sent before it exits, is in the mailbox once its 'DOWN' has arrived.
in_process(Fun) ->
    Self = self(),
    {Pid, Ref} = spawn_monitor(fun() -> Self ! {result, self(), Fun()} end),
    receive
        {'DOWN', Ref, process, Pid, normal} -> receive {result, Pid, Result} -> Result end;
        {'DOWN', Ref, process, Pid, Reason} -> exit({in_process, Reason})
    end.

live() ->
    {Created, Destroyed} = counts(),
    Created - Destroyed.

%% The number of live objects once garbage collection has run and destructors have had up to
%% two seconds to run (a VM may run them on another thread after the collection).
settle() ->
    erlang:garbage_collect(),
    settle(live(), 200).

settle(Live, 0) -> Live;
settle(Live, Tries) ->
    receive after 10 -> ok end,
    erlang:garbage_collect(),
    case live() of
        Live -> Live;
        Fewer -> settle(Fewer, Tries - 1)
    end.

wait_down(Pid) ->
    Ref = erlang:monitor(process, Pid),
    receive {'DOWN', Ref, process, Pid, _} -> ok end.

flush() ->
    receive M -> [M | flush()] after 0 -> [] end.

show(Label, Fun) ->
    Result = try Fun() catch Class:Reason -> {Class, Reason} end,
    io:format("~p: ~p~n", [Label, Result]).
