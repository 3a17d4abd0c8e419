-module(hc_onload_ok).
-on_load(init/0).
-export([f/0]).
init() -> io:format("on_load of ~p runs in a process of its own: ~p~n", [?MODULE, get(hc_marker) =:= undefined]), ok.
f() -> ok_f.
