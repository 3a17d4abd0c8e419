%% Natives of erts_internal, erts_debug, os, erl_ddll, error_logger and file that OTP's own
%% Erlang code calls: term_type/1 over every kind of term, cmp_term/2, erts_debug's size/1,
%% size_shared/1 (literals excluded, sharing counted once) and same/2, os:env/0 against
%% os:getenv/1, os:perf_counter/0,1, os:set_signal/2 argument checks, and erl_ddll's answers
%% for drivers that are not loaded.
-module(internal_natives).
-export([main/0]).

show(Label, F) ->
    R = try F() of V -> {ok, V} catch C:E -> {C, E} end,
    io:format("~s: ~p~n", [Label, R]).

main() ->
    term_types(),
    compare(),
    sizes(),
    os_natives(),
    ddll(),
    misc(),
    ok.

term_types() ->
    Big = maps:from_list([{I, I} || I <- lists:seq(1, 40)]),
    Terms = [0, 1 bsl 59 - 1, 1 bsl 59, -(1 bsl 59), -(1 bsl 59) - 1, 1.5, a, "s", [], {}, {1},
             #{}, #{a => 1}, Big, <<>>, <<1:3>>, binary:copy(<<1>>, 64), binary:copy(<<1>>, 65),
             self(), make_ref(), atomics:new(1, []), fun() -> ok end, fun lists:map/2],
    io:format("types ~p~n", [[erts_internal:term_type(T) || T <- Terms]]),
    show("tuple keys", fun() -> erts_internal:map_to_tuple_keys(#{b => 1, a => 2}) end),
    show("tuple keys of big", fun() -> erts_internal:map_to_tuple_keys(Big) end),
    show("tuple keys of list", fun() -> erts_internal:map_to_tuple_keys([]) end),
    show("children", fun() -> is_list(erts_internal:map_hashmap_children(Big)) end),
    show("children of flat", fun() -> erts_internal:map_hashmap_children(#{}) end).

compare() ->
    Pairs = [{1, 1.0}, {1.0, 1}, {1, 1}, {a, 1}, {[], {}}, {<<>>, []}, {#{1 => a}, #{1.0 => a}},
             {{1, 2}, {1, 2.0}}, {1 bsl 70, 1.0e21}],
    io:format("cmp_term ~p~n", [[erts_internal:cmp_term(A, B) || {A, B} <- Pairs]]).

sizes() ->
    L = lists:seq(1, 3),
    T = {L, L, L},
    B = binary:copy(<<1>>, 100),
    Sub = binary:part(B, 1, 10),
    F = fun() -> {L, T} end,
    %% #{a => L}: the keys tuple is one literal shared by every map the expression builds.
    Terms = [L, T, {T, T, [B, B], #{a => L}, #{L => a}}, {a, b}, [1, 2, 3], {B, B, B}, Sub, F, <<1:3>>,
             1 bsl 100, 1.5, [L | L]],
    io:format("size ~p~n", [[erts_debug:size(X) || X <- Terms]]),
    io:format("size_shared ~p~n", [[erts_debug:size_shared(X) || X <- Terms]]),
    io:format("flat_size ~p~n", [[erts_debug:flat_size(X) || X <- Terms]]),
    io:format("same ~p~n", [[erts_debug:same(a, a), erts_debug:same(L, L), erts_debug:same(L, lists:seq(1, 3)),
                              erts_debug:same(1, 1), erts_debug:same(T, {L, L, L})]]).

os_natives() ->
    Env = os:env(),
    io:format("env agrees with getenv ~p~n",
              [Env =/= [] andalso lists:all(fun({K, V}) -> os:getenv(K) =:= V end, Env)]),
    io:format("env names ~p~n", [lists:all(fun({K, _}) -> K =/= "" andalso not lists:member($=, K) end, Env)]),
    A = os:perf_counter(), B = os:perf_counter(),
    io:format("perf_counter ~p ~p~n", [is_integer(A) andalso B >= A, os:perf_counter(1) =< os:perf_counter(nanosecond)]),
    io:format("perf unit ~p~n", [erts_internal:perf_counter_unit() =:= erlang:convert_time_unit(1, second, perf_counter)]),
    io:format("set_signal ~p~n",
              [[try os:set_signal(S, D) catch error:E -> E end
                || S <- [sigusr2, sigalrm, sigint, sigkill, foo, "sigusr2"], D <- [default, ignore, bad]]]).

ddll() ->
    show("try_load bad path", fun() -> erl_ddll:try_load(1, foo, []) end),
    show("try_load bad opts", fun() -> erl_ddll:try_load("/nonexistent", foo, [bad]) end),
    show("try_load bad opts 2", fun() -> erl_ddll:try_load("/nonexistent", foo, [{monitor, x}]) end),
    show("try_unload", fun() -> erl_ddll:try_unload(foo, []) end),
    show("try_unload opts", fun() -> erl_ddll:try_unload("foo", [kill_ports, {monitor, pending}]) end),
    show("try_unload bad opts", fun() -> erl_ddll:try_unload(foo, [bad]) end),
    show("info", fun() -> erl_ddll:info(foo, port_count) end),
    show("monitor bad", fun() -> erl_ddll:monitor(pending_driver, {foo, loaded}) end),
    show("monitor", fun() -> is_reference(erl_ddll:monitor(driver, {foo, unloaded})) end),
    show("demonitor", fun() -> erl_ddll:demonitor(make_ref()) end),
    show("demonitor bad", fun() -> erl_ddll:demonitor(x) end),
    show("loaded_drivers", fun() -> element(1, erl_ddll:loaded_drivers()) end),
    show("format_error", fun() -> io_lib:printable_list(erl_ddll:format_error(not_loaded)) end).

misc() ->
    show("warning_map", fun() -> error_logger:warning_map() end),
    show("native_name_encoding", fun() -> file:native_name_encoding() end),
    show("time_unit", fun() -> erts_internal:time_unit() end),
    show("is_system_process", fun() -> erts_internal:is_system_process(self()) end),
    show("is_system_process bad", fun() -> erts_internal:is_system_process(a) end),
    show("system_check", fun() -> erts_internal:system_check(schedulers) end),
    show("dirty", fun() -> erts_internal:is_process_executing_dirty(self()) end),
    show("dflags", fun() -> erts_internal:get_dflags() end),
    show("creation", fun() -> erts_internal:get_creation() end).
