%% The module the embedding tests hot-load, compiled twice: -DVSN=1 into data/v1, -DVSN=2 into
%% data/v2 (tests/embed/CMakeLists.txt).
-module(hot).
-export([version/0, loop/0]).

version() -> ?VSN.

loop() ->
    receive
        {From, which} ->
            From ! {version, version()},
            loop()
    end.
