%% Full {Class, Reason, Stacktrace} triples, so the line-number table and the function table are
%% exercised. Frames outside this module (the -s caller) are dropped: they depend on how the VM
%% was started, not on this module.
-module(exc_stacktrace).
-export([main/0, id/1, exported_crash/1]).

id(X) -> X.

show(Label, F) ->
    R = try F() of
            V -> {value, V}
        catch
            C:Reason:S -> {C, Reason, own_frames(S)}
        end,
    erlang:display({Label, R}).

own_frames([{?MODULE, main, 0, _} = Fr | _]) -> [Fr];
own_frames([Fr | Rest]) -> [Fr | own_frames(Rest)];
own_frames([]) -> [].

level3(X) -> X + 1.
level2(X) -> Y = level3(X), Y * 2.
level1(X) -> Z = level2(X), [Z].

clause(1) -> one;
clause(2) -> two.

tail_a(X) -> tail_b(X).
tail_b(X) -> tail_c(X).
tail_c(X) -> error({tail, X}).

body_a(X) -> [body_b(X)].
body_b(X) -> {body_c(X)}.
body_c(X) -> throw({body, X}).

exported_crash(X) -> atom_to_list(X).

guarded(X) when is_integer(X), X > 0 -> X.

in_case(X) ->
    case X of
        a -> 1
    end.

main() ->
    show(nested_badarith, fun() -> level1(id(foo)) end),
    show(function_clause_args, fun() -> clause(id(3)) end),
    show(guard_function_clause, fun() -> guarded(id(-5)) end),
    show(tail_calls_elided, fun() -> tail_a(id(7)) end),
    show(body_calls_kept, fun() -> body_a(id(8)) end),
    show(bif_error, fun() -> exported_crash(id(123)) end),
    show(remote_call_frame, fun() -> ?MODULE:exported_crash(id("str")) end),
    show(case_clause_line, fun() -> in_case(id(b)) end),
    show(error_with_args, fun() -> erlang:error(explicit, [id(1), two]) end),
    show(badmatch_line, fun() -> {ok, _} = id(error) end),
    show(element_badarg, fun() -> element(id(5), {a}) end),
    show(catch_exit_stack, fun() -> {'EXIT', {R, S}} = (catch level1(id(bar))), {R, own_frames(S)} end),
    show(get_stacktrace_in_catch, fun() -> try throw(x) catch throw:x:S -> own_frames(S) end end),
    show(raise_custom_stack, fun() -> erlang:raise(error, custom, [{?MODULE, fake, 2, [{file, "fake.erl"}, {line, 99}]}]) end),
    show(no_error, fun() -> level1(id(1)) end),
    ok.
