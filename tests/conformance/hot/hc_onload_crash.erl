-module(hc_onload_crash).
-on_load(init/0).
-export([f/0]).
init() -> erlang:error(on_load_crashed).
f() -> crash_f.
