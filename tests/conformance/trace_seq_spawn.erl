%% seq_trace and spawning: a child spawned by a token holder inherits the token, and the
%% spawn request and its reply are reported as messages (pids by role, references, funs and
%% the group leader masked). Each child only speaks when spoken to, so the order is fixed.
-module(trace_seq_spawn).
-export([main/0]).

main() ->
    Tracer = spawn(fun() -> collect([]) end),
    seq_trace:set_system_tracer(Tracer),
    [run(Tracer, How) || How <- [spawn, spawn_link, spawn_monitor, spawn_opt, spawn_request]],
    seq_trace:set_system_tracer(false),
    ok.

run(Tracer, How) ->
    Self = self(),
    seq_trace:set_token([]),
    seq_trace:set_token(label, How),
    [seq_trace:set_token(F, true) || F <- [send, 'receive']],
    Fun = fun() ->
              Inherited = seq_trace:get_token(),
              receive {report, From} -> From ! {token, Inherited} end,
              receive stop -> ok end
          end,
    Child = case How of
                spawn -> spawn(Fun);
                spawn_link -> spawn_link(Fun);
                spawn_monitor -> element(1, spawn_monitor(Fun));
                spawn_opt -> spawn_opt(Fun, [link]);
                spawn_request ->
                    Tag = make_ref(),
                    Req = spawn_request(Fun, [link, {reply_tag, Tag}]),
                    receive {Tag, Req, ok, P} -> P end
            end,
    After = seq_trace:get_token(),
    Child ! {report, self()},
    Inherited = receive {token, T} -> T end,
    seq_trace:set_token([]),
    unlink(Child),
    exit(Child, kill),
    Names = [{Self, main}, {Child, child}, {Tracer, tracer}],
    show({How, parent_after_spawn}, norm(After, Names)),
    show({How, child_inherited}, norm(Inherited, Names)),
    [show({How, event}, norm(E, Names)) || E <- events(Tracer)].

collect(Acc) ->
    receive
        {dump, P} -> P ! {events, lists:reverse(Acc)}, collect([]);
        M -> collect([M | Acc])
    end.

events(Tracer) ->
    Tracer ! {dump, self()},
    receive {events, L} -> L end.

norm(T, Names) when is_pid(T) ->
    case lists:keyfind(T, 1, Names) of {_, N} -> N; false -> other_pid end;
norm(T, _) when is_reference(T) -> ref;
norm(T, _) when is_function(T) -> 'fun';
norm(T, Names) when is_tuple(T) -> list_to_tuple(norm(tuple_to_list(T), Names));
norm([H | T], Names) -> [norm(H, Names) | norm(T, Names)];
norm(T, _) -> T.

show(Tag, V) -> io:format("~p: ~p~n", [Tag, V]).
