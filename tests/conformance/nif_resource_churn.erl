%% 1,000,000 NIF resources made and dropped, in chunks of 10,000 with garbage collections
%% between them (issue 24: "resources are freed when the last reference goes, no leak in a loop
%% of 1M resource allocations"). The library (tests/nif/nif_resources.c, built as
%% nif_resource_churn) counts objects created and destroyed, so after each kind of churn the
%% number alive must be back to 0; and erlang:memory(binary), where erts counts resources (they
%% are magic binaries of binary_alloc), must not have grown. Each kind of chunk drops its
%% resources another way: garbage collection of the heap that held them, exit of the process
%% that held them, a message received and dropped, an ETS table deleted, a NIF environment
%% cleared in C.
-module(nif_resource_churn).
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

-define(CHUNK, 10000).
-define(CHUNKS_PER_KIND, 20).
-define(KINDS, [heap_gc, process_exit, message, ets_delete, c_env]).

lib() -> filename:join([filename:dirname(code:which(?MODULE)), "nif", "nif_resource_churn"]).

main() ->
    show(load, fun() -> erlang:load_nif(lib(), []) end),
    %% A first chunk lets both VMs reach their steady state (allocator pools, heap sizes)
    %% before the memory figure is taken.
    show(warm_up, fun() -> {chunk(heap_gc), settle()} end),
    BinaryBefore = erlang:memory(binary),
    show(memory_counts_live_resources, fun() -> memory_counts_live_resources(BinaryBefore) end),
    show(churn, fun() -> [{Kind, churn(Kind)} || Kind <- ?KINDS] end),
    show(total, fun() -> {Created, Destroyed} = counts(), {Created, Created - Destroyed} end),
    show(binary_memory_grew_over_1mb, fun() -> erlang:memory(binary) - BinaryBefore > 1 bsl 20 end).

%% While a chunk is alive, erlang:memory(binary) holds at least its objects' data: the figure
%% this test watches does see resources.
memory_counts_live_resources(Before) ->
    Rs = [new(I) || I <- lists:seq(1, ?CHUNK)],
    {_, Size} = value(hd(Rs)),
    During = erlang:memory(binary),
    Counted = During - Before >= ?CHUNK * Size,
    {Counted, length(Rs), drop(Rs)}.

drop(_) -> settle().

%% CHUNKS_PER_KIND chunks of one kind; the sum of the values read back, and the number alive
%% once they are dropped and collected.
churn(Kind) ->
    Sum = lists:sum([chunk(Kind) || _ <- lists:seq(1, ?CHUNKS_PER_KIND)]),
    {Sum, settle()}.

%% One chunk: CHUNK resources made, read, dropped the Kind way; a garbage collection after.
chunk(heap_gc) ->
    S = sum_values(make_chunk()),
    erlang:garbage_collect(),
    S;
chunk(process_exit) ->
    in_process(fun() -> sum_values(make_chunk()) end);
chunk(message) ->
    self() ! {chunk, make_chunk()},
    S = receive {chunk, Rs} -> sum_values(Rs) end,
    erlang:garbage_collect(),
    S;
chunk(ets_delete) ->
    T = ets:new(churn, [set]),
    ets:insert(T, [{I, new(I)} || I <- lists:seq(1, ?CHUNK)]),
    erlang:garbage_collect(),
    S = lists:sum([element(1, value(R)) || {_, R} <- ets:tab2list(T)]),
    ets:delete(T),
    erlang:garbage_collect(),
    S;
chunk(c_env) ->
    ok = many(?CHUNK),
    ?CHUNK.

make_chunk() -> [new(I) || I <- lists:seq(1, ?CHUNK)].

sum_values(Rs) -> lists:sum([element(1, value(R)) || R <- Rs]).

%% Runs Fun in a process of its own; what it created dies with it. Its result, sent before it
%% exits, is in the mailbox once its 'DOWN' has arrived.
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

settle(0, _) -> 0;
settle(Live, 0) -> Live;
settle(Live, Tries) ->
    receive after 10 -> ok end,
    erlang:garbage_collect(),
    case live() of
        Live -> Live;
        Fewer -> settle(Fewer, Tries - 1)
    end.

show(Label, Fun) ->
    Result = try Fun() catch Class:Reason -> {Class, Reason} end,
    io:format("~p: ~p~n", [Label, Result]).
