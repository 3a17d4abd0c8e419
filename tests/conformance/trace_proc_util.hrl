%% Shared by the trace_proc_*.erl conformance modules (process trace events, issue 12).
%% The test process is the tracer. An agent is a traced process that runs funs on request, so
%% each step is one action whose trace messages are then collected and printed with every pid,
%% reference, port and fun replaced by a stable name: pid numbers differ between erl and beamvm.
%% Collecting waits for no timer: the tracees are pinged (their signals handled in order), then
%% erlang:trace_delivered(all) guarantees every trace message made so far is in our queue.

-compile([nowarn_unused_function]).

agent() ->
    receive
        {do, F, From} ->
            R = (catch F()),
            From ! {done, self(), R},
            agent();
        {ping, From} ->
            From ! {pong, self()},
            agent();
        stop ->
            ok
    end.

start_agent() -> spawn(fun agent/0).

%% Runs F in agent A and returns what it returned.
do(A, F) ->
    A ! {do, F, self()},
    receive {done, A, R} -> R end.

ping(A) ->
    A ! {ping, self()},
    receive {pong, A} -> ok end.

%% Every trace message made so far, after pinging the live ones of Tracees.
collect(Tracees) ->
    [ping(T) || T <- Tracees, is_process_alive(T)],
    Ref = erlang:trace_delivered(all),
    receive {trace_delivered, all, Ref} -> ok end,
    flush().

flush() ->
    receive M -> [M | flush()] after 0 -> [] end.

%% Names: the pids the test knows, [{Pid, Name}]; other pids are named pid1, pid2... in the
%% order they first appear (kept in the process dictionary).
name(Names) -> put(trace_names, Names).

norm(T) when is_pid(T) ->
    Names = get(trace_names),
    case lists:keyfind(T, 1, Names) of
        {_, N} -> N;
        false ->
            N = list_to_atom("pid" ++ integer_to_list(length(Names) + 1)),
            put(trace_names, Names ++ [{T, N}]),
            N
    end;
norm(T) when is_reference(T) -> ref;
norm(T) when is_port(T) -> port;
norm(T) when is_function(T) -> 'fun';
norm(T) when is_list(T) -> norm_list(T);
norm(T) when is_tuple(T) -> list_to_tuple([norm(E) || E <- tuple_to_list(T)]);
norm(T) -> T.

norm_list([H | T]) -> [norm(H) | norm_list(T)];
norm_list([]) -> [];
norm_list(T) -> norm(T).

%% Prints the step's label, then its trace messages one a line.
show(Label, Msgs) ->
    io:format("~s:~n", [Label]),
    [io:format("  ~p~n", [norm(M)]) || M <- Msgs],
    ok.

%% One step: run F in A, then print what A and Others traced.
step(Label, A, F, Others) ->
    do(A, F),
    show(Label, collect([A | Others])).
