%% Dirty NIFs (tests/nif/dirty_nif_test.c): what dirty CPU and dirty I/O calls return and
%% which thread runs them, NIFs that move between normal and dirty schedulers with
%% enif_schedule_nif, the exceptions dirty NIFs raise (class, reason, the NIF's frame), and
%% the dirty scheduler counts erlang:system_info reports.
-module(nif_dirty).
-export([main/0]).
-include("nif_dirty_stubs.hrl").

main() ->
    load_dirty_nif(),
    show(thread_type, thread_type()),
    show(sleep_cpu, sleep_cpu(20)),
    show(sleep_io, sleep_io(20)),
    show(sleep_normal, sleep_normal(5)),
    show(seq_cpu_small, seq_cpu(10)),
    L = seq_cpu(200000),
    show(seq_cpu_big, {length(L), lists:sum(L), lists:last(L)}),
    show(echo_io, echo_io({a, "string", <<"bin">>, 1.5, self() =:= self(), #{k => [1, 2]}})),
    show(big_echo, element(1, echo_io(lists:seq(1, 50000))) =:= lists:seq(1, 50000)),
    [show({to_dirty, K}, to_dirty(K, {K, make_ref() =/= undefined})) || K <- [cpu, io, none]],
    show(bad_flags, catch_it(fun() -> to_dirty(bad_flags, x) end)),
    show(bad_name, catch_it(fun() -> bad_name() end)),
    show(sleep_badarg, catch_it(fun() -> sleep_cpu(-1) end)),
    show(raise_cpu, catch_it(fun() -> raise_cpu({my_reason, [1, 2, 3]}) end)),
    show(badarg_io, catch_it(fun() -> badarg_io(<<"x">>) end)),
    show(chain_raise, catch_it(fun() -> chain_raise(5) end)),
    show(chain_raise_dirty, catch_it(fun() -> chain_raise(4) end)),
    %% After an exception the process goes on normally, dirty calls included.
    show(after_raise, sleep_io(1)),
    %% Dirty calls from many processes at once: more than there are dirty schedulers.
    Self = self(),
    Pids = [spawn(fun() -> Self ! {done, I, sleep_io(10), seq_cpu(I)} end) || I <- lists:seq(1, 30)],
    Results = [receive {done, I, R, S} -> {R, length(S)} end || {I, _} <- lists:zip(lists:seq(1, 30), Pids)],
    show(parallel, lists:usort([R || {R, _} <- Results])),
    show(parallel_lengths, [N || {_, N} <- Results]),
    show(counts, [erlang:system_info(I) =:= erlang:system_info(schedulers) || I <- [dirty_cpu_schedulers, dirty_cpu_schedulers_online]]),
    show(dirty_io_schedulers, erlang:system_info(dirty_io_schedulers)),
    ok.

%% The exception with the frame that names the NIF (the rest of the trace is this module's).
catch_it(F) ->
    try F() of
        V -> {returned, V}
    catch
        C:R:St -> {C, R, hd(St)}
    end.

show(Tag, V) -> io:format("~p: ~p~n", [Tag, V]).
