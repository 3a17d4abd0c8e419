%% Version 1 of the module the embedding tests hot-load (tests/embed/data/v2/hot.erl is 2).
-module(hot).
-export([version/0, loop/0]).

version() -> 1.

loop() ->
    receive
        {From, which} ->
            From ! {version, version()},
            loop()
    end.
