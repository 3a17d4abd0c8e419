%% try/catch/after, nested try, throw/exit/error, catch expressions, erlang:raise/3, rethrow.
-module(exc_try).
-export([main/0, id/1]).

id(X) -> X.

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

log(X) -> put(log, [X | get_log()]).
get_log() -> case get(log) of undefined -> []; L -> L end.
take_log() -> L = lists:reverse(get_log()), erase(log), L.

with_after(F) ->
    try F() after log(after_ran) end.

classify(F) ->
    try F() of
        V -> {value, V}
    catch
        throw:T -> {thrown, T};
        exit:E -> {exited, E};
        error:R -> {error, R}
    end.

rethrow(F) ->
    try F() catch C:R:S -> log({rethrowing, C}), erlang:raise(C, R, S) end.

deep_throw(0) -> throw(bottom);
deep_throw(N) -> [deep_throw(N - 1)].

main() ->
    t(classify_value, fun() -> classify(fun() -> 42 end) end),
    t(classify_throw, fun() -> classify(fun() -> throw(ball) end) end),
    t(classify_exit, fun() -> classify(fun() -> exit(gone) end) end),
    t(classify_error, fun() -> classify(fun() -> error(oops) end) end),
    t(classify_vm_error, fun() -> classify(fun() -> 1 / id(0) end) end),
    t(after_normal, fun() -> R = with_after(fun() -> ok end), {R, take_log()} end),
    t(after_exception, fun() -> R = (catch with_after(fun() -> throw(t) end)), {R, take_log()} end),
    t(after_order, fun() ->
                           R = try try log(a), throw(x) after log(b) end catch throw:x -> log(c), done after log(d) end,
                           {R, take_log()} end),
    t(nested_inner_catches, fun() -> try try throw(inner) catch throw:inner -> caught_inner end catch _:_ -> outer end end),
    t(nested_outer_catches, fun() -> try try error(e) catch throw:_ -> wrong end catch error:e -> outer end end),
    t(catch_in_handler, fun() -> try throw(a) catch throw:a -> try throw(b) catch throw:b -> both end end end),
    t(exception_in_handler, fun() -> try try throw(a) catch throw:a -> error(from_handler) end catch error:W -> W end end),
    t(catch_expr_throw, fun() -> catch throw(val) end),
    t(catch_expr_error, fun() -> {'EXIT', {R, _Stack}} = catch error(bad), R end),
    t(catch_expr_exit, fun() -> catch exit(why) end),
    t(catch_expr_value, fun() -> catch id(7) end),
    t(catch_expr_badarith, fun() -> {'EXIT', {R, [_ | _]}} = catch id(1) + id(x), R end),
    t(raise_error, fun() -> erlang:raise(error, raised, []) end),
    t(raise_throw, fun() -> erlang:raise(throw, raised, []) end),
    t(raise_exit, fun() -> erlang:raise(exit, raised, []) end),
    t(raise_bad_class, fun() -> erlang:raise(id(bad), r, []) end),
    t(rethrow, fun() -> R = (catch rethrow(fun() -> throw(again) end)), {R, take_log()} end),
    t(rethrow_error, fun() -> R = try rethrow(fun() -> error(e2) end) catch error:X -> {got, X} end, {R, take_log()} end),
    t(error2, fun() -> try error(reason, id([a, b])) catch error:R:S -> {R, element(3, hd(S))} end end),
    t(error3, fun() -> try error(reason, none, [{error_info, #{}}]) catch error:R -> R end end),
    t(stack_has_frames, fun() -> try id(x) + 1 catch error:badarith:S -> is_list(S) andalso length(S) > 0 end end),
    t(deep_throw, fun() -> catch deep_throw(id(10000)) end),
    t(throw_in_after, fun() -> try try ok after throw(from_after) end catch throw:X -> X end end),
    t(class_var, fun() -> [try F() catch C:_ -> C end || F <- [fun() -> throw(1) end, fun() -> exit(1) end, fun() -> error(1) end]] end),
    t(catch_all_pattern, fun() -> try exit({shutdown, x}) catch exit:{shutdown, W} -> W end end),
    t(uncaught_class_mismatch, fun() -> try throw(x) catch error:_ -> no end end),
    t(loop_of_tries, fun() -> lists:sum([try if N rem 3 =:= 0 -> throw(N); true -> 0 end catch throw:V -> V end || N <- lists:seq(1, 300)]) end),
    ok.
