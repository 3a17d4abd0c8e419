%% Differences from erl that tools/bif_fuzz.sh found in erlang's (and a few other modules')
%% natives, one check per line, each fixed on the fuzz branch.
-module(bif_fuzz_findings).
-export([main/0, id/1]).

%% An opaque call: the compiler cannot answer it (or its guard tests) itself.
id(X) -> X.

t(Name, F) ->
    R = try F() of V -> {ok, V} catch C:E -> {C, E} end,
    io:format("~s: ~p~n", [Name, R]).

%% The outcome of F run in a process of its own, which may end without returning.
in_process(F) ->
    {Pid, Ref} = spawn_monitor(fun() -> exit({returned, catch F()}) end),
    receive {'DOWN', Ref, process, Pid, Why} -> Why end.

main() ->
    %% exit/2 to oneself ends the caller by its signal: no catch sees it.
    t("exit self kill", fun() -> in_process(fun() -> exit(self(), kill) end) end),
    t("exit self reason", fun() -> in_process(fun() -> exit(self(), -1) end) end),
    t("exit self normal", fun() -> in_process(fun() -> exit(self(), normal) end) end),
    t("exit self trapped", fun() -> in_process(fun() -> process_flag(trap_exit, true), exit(self(), x),
                                                        Self = self(),
                                                        receive {'EXIT', Self, R} -> R after 0 -> none end end) end),
    t("nif_error/1", fun() -> erlang:nif_error(reason) end),
    t("nif_error/2", fun() -> erlang:nif_error(reason, [1]) end),
    %% Time units of any positive integer, timer options and ranges.
    t("monotonic_time bignum unit", fun() -> is_integer(erlang:monotonic_time(1 bsl 64)) end),
    t("system_time bignum unit", fun() -> is_integer(erlang:system_time(1 bsl 70)) end),
    t("time_offset bignum unit", fun() -> is_integer(erlang:time_offset(1 bsl 64)) end),
    t("send_after too far", fun() -> erlang:send_after(1 bsl 50, self(), x) end),
    t("send_after abs not boolean", fun() -> erlang:send_after(10, self(), x, [{abs, yes}]) end),
    t("cancel_timer bad tail", fun() -> erlang:cancel_timer(make_ref(), [{async, true} | x]) end),
    t("cancel_timer not boolean", fun() -> erlang:cancel_timer(make_ref(), [{info, 1}]) end),
    t("read_timer not a list", fun() -> erlang:read_timer(make_ref(), 255) end),
    %% spawn of a fun of another arity starts a process that fails; spawn_monitor refuses it.
    t("spawn arity 1", fun() -> P = (?MODULE:id(erlang)):spawn(fun(_) -> ok end), ?MODULE:id(is_pid(P)) end),
    t("spawn_monitor arity 1", fun() -> spawn_monitor(fun(_) -> ok end) end),
    t("spawn arity 1 reason", fun() ->
        {P, R} = spawn_monitor(erlang, apply, [fun(_) -> ok end, []]),
        receive {'DOWN', R, process, P, {Why, _}} -> element(1, Why) end end),
    %% Through apply: as a guard test the compiler answers these itself.
    t("is_record negative size", fun() -> (?MODULE:id(erlang)):is_record([], a, -5) end),
    t("is_record bignum size", fun() -> (?MODULE:id(erlang)):is_record({a}, a, ?MODULE:id(1 bsl 64)) end),
    t("module_info native", fun() -> erlang:module_info(native) end),
    %% monitor of a port (none exist) or of the time offset.
    t("monitor port name", fun() -> R = monitor(port, no_such_port),
                                    receive {'DOWN', R, port, Who, Why} -> {Who, Why} after 1000 -> none end end),
    t("monitor port bad", fun() -> monitor(port, 1) end),
    t("monitor time_offset", fun() -> is_reference(monitor(time_offset, clock_service)) end),
    t("monitor time_offset bad", fun() -> monitor(time_offset, x) end),
    t("erts_internal:process_flag/3 not a pid", fun() -> erts_internal:process_flag(a, save_calls, 1) end),
    t("erts_internal:process_flag/3 self bad flag", fun() -> erts_internal:process_flag(self(), trap_exit, true) end),
    t("erts_internal:group_leader/2 not a pid", fun() -> erts_internal:group_leader(self(), a) end),
    t("erts_internal:scheduler_wall_time/1 any", fun() -> erts_internal:scheduler_wall_time(x) end),
    t("erts_internal:dirty_process_handle_signals/1", fun() -> erts_internal:dirty_process_handle_signals(self()) end),
    t("lcnt_collect", fun() -> erts_debug:lcnt_collect() end),
    t("lcnt_control", fun() -> erts_debug:lcnt_control(mask) end),
    %% binary and unicode.
    t("binary:match empty subject", fun() -> binary:match(<<>>, 1.0e300) end),
    t("binary:matches empty scope", fun() -> binary:matches(<<"abc">>, x, [{scope, {1, 0}}]) end),
    t("binary:split empty subject", fun() -> binary:split(<<>>, 1.5) end),
    t("binary:copy bitstring 0", fun() -> binary:copy(<<1:3>>, 0) end),
    t("binary:copy bitstring 1", fun() -> binary:copy(<<1:3>>, 1) end),
    [t(io_lib:format("characters_to_binary ~w ~w", [B, E]), fun() -> unicode:characters_to_binary(B, E) end)
     || E <- [{utf32, little}, {utf32, big}, {utf16, little}, {utf16, big}],
        B <- [<<"a">>, <<"ab">>, <<"abc">>, <<0, 0, 0>>, <<97, 0, 0>>, <<16#D8>>, <<16#DC>>, <<0, 16#D8, 16#DC>>,
              <<254, 255, 0>>, <<0, 0, 16#D9>>, <<0, 16, 16#D9>>]],
    %% os: deep character lists as names; an empty name names no variable.
    t("getenv deep", fun() -> os:getenv([[$H, [$O]], "ME"]) =:= os:getenv("HOME") end),
    t("getenv empty deep", fun() -> os:getenv([[]]) end),
    t("getenv binary part", fun() -> os:getenv([<<"HOME">>]) end),
    t("putenv empty name", fun() -> os:putenv([[]], "v") end),
    t("unsetenv empty name", fun() -> os:unsetenv([]) end),
    t("putenv = in name", fun() -> os:putenv("A=B", "v") end),
    ok.
