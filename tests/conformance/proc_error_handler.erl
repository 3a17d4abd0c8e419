%% The error_handler process flag: undefined calls (m:f(...), apply, a function missing from a
%% loaded module, a fun whose module is not loaded) go to Handler:undefined_function/3 or
%% undefined_lambda/3 and their value is the call's value. (A handler module that is not loaded
%% is left out: OTP 25's erl dies of SIGILL there; beamvm raises undef.) Also erlang:now/0,
%% which must never answer the same value twice.
-module(proc_error_handler).
-export([main/0, undefined_function/3, undefined_lambda/3]).

id(X) -> X.

t(Label, F) -> erlang:display({Label, try F() catch C:R:S -> {C, R, hd(S)} end}).

undefined_function(M, F, Args) -> {handled, M, F, Args}.
undefined_lambda(M, Fun, Args) when is_function(Fun) -> {lambda, M, erlang:fun_info(Fun, arity), Args}.

in_process(F) ->
    Self = self(),
    {Pid, Ref} = spawn_monitor(fun() -> Self ! {self(), try F() catch C:R:S -> {C, R, hd(S)} end} end),
    receive {Pid, V} -> receive {'DOWN', Ref, _, _, _} -> V end;
            {'DOWN', Ref, _, _, Why} -> {died, Why}
    end.

%% fun(A, B, C) -> {A, B, C, X} end of a module foobarblurf that does not exist (from OTP's
%% nofrag_SUITE).
foreign_fun() ->
    binary_to_term(<<131,112,0,0,0,84,3,109,96,69,208,5,175,207,75,36,93,112,218,232,222,22,251,0,
                     0,0,0,0,0,0,1,100,0,11,102,111,111,98,97,114,98,108,117,114,102,97,0,98,5,
                     244,197,144,103,100,0,13,110,111,110,111,100,101,64,110,111,104,111,115,116,
                     0,0,0,46,0,0,0,0,0,104,3,97,1,97,2,97,3>>).

collect(0) -> [];
collect(N) -> [fooblurf:x(a, id(N), [c]) | collect(N - 1)].

main() ->
    t(default_flag, fun() -> process_info(self(), error_handler) end),
    t(default_undef, fun() -> in_process(fun() -> fooblurf:x(1, 2) end) end),
    t(own_remote_call, fun() -> in_process(fun() ->
        error_handler = process_flag(error_handler, ?MODULE),
        fooblurf:x(a, id(b), [c]) end) end),
    t(own_apply, fun() -> in_process(fun() ->
        process_flag(error_handler, ?MODULE),
        apply(id(fooblurfbar), xyz, id([{a, 42}, b])) end) end),
    t(own_missing_in_loaded_module, fun() -> in_process(fun() ->
        process_flag(error_handler, ?MODULE),
        lists:no_such_function(id(1)) end) end),
    t(own_zero_arity, fun() -> in_process(fun() ->
        process_flag(error_handler, ?MODULE),
        (id(fooblurf)):y() end) end),
    t(own_many_calls_survive_gc, fun() -> in_process(fun() ->
        process_flag(error_handler, ?MODULE),
        L = collect(2000),
        {length(L), lists:usort([{M, F, length(A)} || {handled, M, F, A} <- L]), hd(L), lists:last(L)} end) end),
    t(own_lambda, fun() -> in_process(fun() ->
        process_flag(error_handler, ?MODULE),
        Fun = foreign_fun(),
        {Fun({foo, id(bar)}, {99, 1.0}, [e]), erlang:fun_info(Fun, env)} end) end),
    t(back_to_default, fun() -> in_process(fun() ->
        process_flag(error_handler, ?MODULE),
        Old = process_flag(error_handler, error_handler),
        {Old, catch fooblurf:x(1)} end) end),
    t(flag_not_inherited, fun() -> in_process(fun() ->
        process_flag(error_handler, ?MODULE),
        in_process(fun() -> process_info(self(), error_handler) end) end) end),
    t(defined_calls_unaffected, fun() -> in_process(fun() ->
        process_flag(error_handler, ?MODULE),
        lists:reverse(id([1, 2, 3])) end) end),
    t(now_strictly_increasing, fun() ->
        Ns = [erlang:now() || _ <- lists:seq(1, 20000)],
        {length(lists:usort(Ns)), lists:sort(Ns) =:= Ns} end),
    t(now_across_processes, fun() ->
        Self = self(),
        Pids = [spawn(fun() -> Self ! {self(), [erlang:now() || _ <- lists:seq(1, 2000)]} end)
                || _ <- lists:seq(1, 4)],
        All = lists:append([receive {P, L} -> L end || P <- Pids]),
        length(lists:usort(All)) end),
    ok.
