%% Every process_info/2 item erl answers, for the caller itself and for another process:
%% exact values where they are deterministic, else the value's shape (sizes, addresses,
%% reductions and backtraces differ between emulators in value, not in type).
-module(proc_info_all_items).
-export([main/0, subject/1]).

items() ->
    [backtrace, binary, catchlevel, current_function, current_location, current_stacktrace,
     dictionary, error_handler, garbage_collection, garbage_collection_info, group_leader,
     heap_size, initial_call, links, last_calls, memory, message_queue_len, messages,
     min_heap_size, min_bin_vheap_size, max_heap_size, monitored_by, monitors,
     message_queue_data, parent, priority, reductions, registered_name,
     sequential_trace_token, stack_size, status, suspending, total_heap_size, trace, trap_exit,
     fullsweep_after, magic_ref].

subject(Main) ->
    put(key, {value, [1, 2, 3]}),
    put(other, <<"bin">>),
    Main ! {ready, self()},
    receive stop -> ok end.

main() ->
    Main = self(),
    Big = binary:copy(<<"x">>, 1000),
    P = spawn(?MODULE, subject, [Main]),
    receive {ready, P} -> ok end,
    P ! {hello, [a, b]},
    P ! {big, Big},
    until_waiting(P),
    [show(other, I, catch process_info(P, I), P) || I <- items()],
    [show(self, I, catch process_info(self(), I), P) || I <- items()],
    show(other, list, catch process_info(P, [messages, dictionary, parent, catchlevel]), P),
    show(other, bad_item, catch process_info(P, bogus), P),
    P ! stop.

until_waiting(P) ->
    case process_info(P, status) of
        {status, waiting} -> ok;
        _ -> erlang:yield(), until_waiting(P)
    end.

show(Who, Item, Value, P) ->
    io:format("~p ~p: ~p~n", [Who, Item, shape(Who, Item, Value, P)]).

shape(_, _, {'EXIT', {Reason, _}}, _) -> {raised, Reason};
shape(_, list, L, P) -> [shape(other, I, {I, V}, P) || {I, V} <- L];
shape(Who, _, {Item, V}, P) -> {Item, value(Who, Item, V, P)};
shape(_, _, V, _) -> V.

value(_, backtrace, V, _) -> is_binary(V);
value(self, binary, V, _) -> is_list(V);  % erl's start process holds its boot arguments
value(_, binary, V, _) -> [{is_integer(A), S, is_integer(R)} || {A, S, R} <- V];
value(self, catchlevel, V, _) -> is_integer(V);
value(self, current_function, {M, F, A}, _) -> {M, is_atom(F), A};
value(self, current_location, {M, F, A, L}, _) -> {M, is_atom(F), A, is_list(L)};
value(self, current_stacktrace, V, _) -> is_list(V);
value(_, dictionary, V, _) -> lists:sort(V);  % erl's order is its hash table's (atom indices)
value(_, garbage_collection, V, _) -> [K || {K, _} <- V];
value(_, garbage_collection_info, V, _) -> [{K, is_integer(X)} || {K, X} <- V];
value(_, group_leader, V, _) -> V =:= group_leader();
value(self, initial_call, V, _) -> is_tuple(V);
value(self, links, V, _) -> is_list(V);
value(other, parent, V, _) -> V =:= self();
value(self, parent, V, _) -> is_pid(V) orelse V =:= undefined;  % erl: init; beamvm: none
value(_, monitored_by, V, _) -> is_list(V);
value(_, Item, V, _) when Item =:= heap_size; Item =:= total_heap_size; Item =:= stack_size;
                         Item =:= memory; Item =:= reductions; Item =:= min_bin_vheap_size ->
    is_integer(V);
value(_, _, V, _) -> V.
