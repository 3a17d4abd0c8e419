%% A call of an erlang function beamvm has no native for loads OTP's erlang.beam; its exports
%% must not replace beamvm's instructions (call_on_load_function/1, hibernate/3): once they
%% did, every on_load function that ran afterwards failed (found by tools/bif_fuzz.sh: crypto
%% would no longer load after a call of erlang:port_close/1).
-module(on_load_after_erlang_beam).
-export([main/0, woken/1]).

main() ->
    %% Outcomes differ (no ports in beamvm): only the side effect matters here.
    _ = (catch erlang:port_close(not_a_port)),
    _ = (catch erlang:port_info(not_a_port)),
    _ = code:ensure_loaded(erlang),
    io:format("~p~n", [hc_onload_ok:f()]),
    io:format("~p~n", [crypto:hash(sha256, "abc")]),
    Pid = spawn(fun() -> erlang:hibernate(?MODULE, woken, [self()]) end),
    Ref = monitor(process, Pid),
    Pid ! wake,
    receive {'DOWN', Ref, process, Pid, Why} -> io:format("hibernated process ended: ~p~n", [Why]) end.

woken(_) -> receive wake -> ok after 0 -> ok end.
