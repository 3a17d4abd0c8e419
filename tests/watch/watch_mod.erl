%% The module that tests/watch/watch_reload.sh recompiles (-DVSN=1..3) while watch_demo runs.
-module(watch_mod).
-export([version/0, stuck/0]).

version() -> ?VSN.

%% Waits in this version's code until told to stop: its old code cannot be soft-purged.
stuck() ->
    receive stop -> ok end.
