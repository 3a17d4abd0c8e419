%% Version 2 of the module the embedding tests hot-load (tests/embed/data/v1/hot.erl is 1).
-module(hot).
-export([version/0, loop/0]).

version() -> 2.

loop() ->
    receive
        {From, which} ->
            From ! {version, version()},
            loop()
    end.
