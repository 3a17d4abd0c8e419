%% erlang:trace_pattern/3 and the call messages it makes: global (calls through the export
%% only) against local (every call), the arity flag, match specifications with guards over
%% the arguments and the actions message/1, caller/0, silent/1, enable_trace, disable_trace,
%% trace/2, get_tcw/set_tcw, '$_', self(); BIFs traced. Pids are masked.
-module(trace_call_patterns).
-export([main/0, api/1, inner/1, pair/2, quiet/1]).

api(X) -> inner(X) + inner(X + 1).
inner(X) -> X * 10.
pair(A, B) -> {A, B}.
quiet(X) -> X.

run(Flags, Fun) ->
    Self = self(),
    P = spawn(fun() -> wait(), Fun(), Self ! {done, self()} end),
    erlang:trace(P, true, Flags),
    P ! go,
    Ref = monitor(process, P),
    receive {'DOWN', Ref, _, _, _} -> ok end,
    collect(P).

wait() -> receive go -> ok end.

collect(P) ->
    receive
        {done, P} -> collect(P);
        M when element(1, M) =:= trace -> [mask(M) | collect(P)]
    after 0 -> []
    end.

mask(M) -> list_to_tuple([mask_pid(E) || E <- tuple_to_list(M)]).
mask_pid(P) when is_pid(P) -> pid;
mask_pid(L) when is_list(L) -> [mask_pid(E) || E <- L];
mask_pid(T) when is_tuple(T) -> list_to_tuple(mask_pid(tuple_to_list(T)));
mask_pid(X) -> X.

case_(Name, Flags, Fun) ->
    io:format("~s:~n", [Name]),
    [io:format("  ~p~n", [M]) || M <- run(Flags, Fun)].

tp(MFA, MS, Flags) -> io:format("trace_pattern(~p, ~p, ~p) -> ~p~n", [MFA, MS, Flags, erlang:trace_pattern(MFA, MS, Flags)]).

off() ->
    erlang:trace_pattern({?MODULE, '_', '_'}, false, [local]),
    erlang:trace_pattern({?MODULE, '_', '_'}, false, [global]).

main() ->
    tp({?MODULE, '_', '_'}, true, [global]),
    case_("global", [call], fun() -> ?MODULE:api(1) end),
    %% (not '_': the traced process runs this module's code before it is traced)
    tp({?MODULE, api, 1}, true, [local]),
    tp({?MODULE, inner, 1}, true, [local]),
    case_("local", [call], fun() -> ?MODULE:api(1) end),
    case_("arity", [call, arity], fun() -> ?MODULE:api(1) end),
    io:format("~p~n", [erlang:trace_info({?MODULE, api, 1}, traced)]),
    tp({?MODULE, '_', '_'}, true, [global]),
    io:format("~p~n", [erlang:trace_info({?MODULE, api, 1}, traced)]),
    io:format("~p~n", [erlang:trace_info({?MODULE, inner, 1}, traced)]),
    off(),
    %% guards over the arguments
    tp({?MODULE, pair, 2}, [{['$1', '$2'], [{'>', '$1', '$2'}], []}], [local]),
    case_("guard", [call], fun() -> ?MODULE:pair(1, 2), ?MODULE:pair(3, 2) end),
    tp({?MODULE, pair, 2}, [{[a, '_'], [], [{message, first_a}]}, {['_', b], [], [{message, {{second, '$_'}}}]}], [local]),
    case_("message", [call], fun() -> ?MODULE:pair(a, 1), ?MODULE:pair(1, b), ?MODULE:pair(c, c) end),
    tp({?MODULE, pair, 2}, [{'_', [], [{message, false}, {return_trace}]}], [local]),
    case_("message false keeps return_trace", [call], fun() -> ?MODULE:pair(x, y) end),
    tp({?MODULE, pair, 2}, [{'_', [], [{message, {caller}}]}], [local]),
    case_("caller", [call], fun() -> ?MODULE:pair(x, y) end),
    tp({?MODULE, pair, 2}, [{'_', [{'==', {self}, {self}}], [{message, {is_pid, {self}}}]}], [local]),
    case_("self", [call], fun() -> ?MODULE:pair(x, y) end),
    tp({?MODULE, pair, 2}, [{'_', [], [{message, '$_'}]}], [global]),
    case_("whole", [call], fun() -> ?MODULE:pair(x, [y]) end),
    off(),
    %% silent: actions run, messages stop
    tp({?MODULE, quiet, 1}, [{[on], [], [{silent, true}]}, {[off], [], [{silent, false}]}], [local]),
    tp({?MODULE, pair, 2}, true, [local]),
    case_("silent", [call], fun() ->
                                    ?MODULE:pair(1, 1), ?MODULE:quiet(on), ?MODULE:pair(2, 2),
                                    ?MODULE:quiet(off), ?MODULE:pair(3, 3)
                            end),
    case_("silent flag", [call, silent], fun() -> ?MODULE:pair(1, 1) end),
    off(),
    %% enable_trace, disable_trace, trace/2
    tp({?MODULE, quiet, 1}, [{[arity_on], [], [{enable_trace, arity}]},
                             {[arity_off], [], [{disable_trace, arity}]},
                             {[stop], [], [{trace, [call], []}]}], [local]),
    tp({?MODULE, pair, 2}, true, [local]),
    case_("enable/disable", [call], fun() ->
                                            ?MODULE:pair(1, 1), ?MODULE:quiet(arity_on),
                                            ?MODULE:pair(2, 2), ?MODULE:quiet(arity_off),
                                            ?MODULE:pair(3, 3), ?MODULE:quiet(stop),
                                            ?MODULE:pair(4, 4)
                                    end),
    off(),
    %% get_tcw / set_tcw
    Old = erlang:system_flag(trace_control_word, 0),
    tp({?MODULE, quiet, 1}, [{'_', [], [{message, {get_tcw}}, {set_tcw, 7}]}], [local]),
    case_("tcw", [call], fun() -> ?MODULE:quiet(1), ?MODULE:quiet(2) end),
    io:format("~p~n", [erlang:system_flag(trace_control_word, Old)]),
    off(),
    %% BIFs: global and local, called and applied
    tp({erlang, atom_to_list, 1}, true, [global]),
    tp({lists, member, 2}, [{'_', [], [{return_trace}]}], [local]),
    case_("bifs", [call], fun() ->
                                  _ = atom_to_list(id(abc)), _ = lists:member(b, id([a, b])),
                                  _ = apply(erlang, atom_to_list, [def])
                          end),
    tp({erlang, atom_to_list, 1}, false, [global]),
    tp({lists, member, 2}, false, [local]),
    case_("bifs off", [call], fun() -> _ = atom_to_list(id(abc)), lists:member(b, id([a, b])) end),
    ok.

id(X) -> X.
