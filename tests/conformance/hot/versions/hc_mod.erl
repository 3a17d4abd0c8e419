%% One module in several versions: compiled with -DVSN=1, 2 and 3 into hot_v1/, hot_v2/ and
%% hot_v3/ beside the conformance modules (tests/conformance/CMakeLists.txt).
-module(hc_mod).
-export([version/0, literal/0, loop/1, make_fun/0, holder/1]).
%% Exported by version 1 only: once version 2 is current, calls to it are undef.
-if(?VSN =:= 1).
-export([only_in_v1/0]).
-endif.

version() -> ?VSN.

%% A literal of this version (its tuple, list and binary live in the module's literal area).
literal() -> {literal_of, ?VSN, [a, b, c], <<"a binary literal long enough to be off-heap in OTP: 0123456789012345678901234567890123456789">>}.

%% A server: local calls stay in the version it runs; a fully qualified call switches.
loop(N) ->
    receive
        {From, local} -> From ! {version, version()}, loop(N + 1);
        {From, remote} -> From ! {version, ?MODULE:version()}, loop(N + 1);
        {From, upgrade} -> From ! upgrading, ?MODULE:loop(N + 1);
        {From, count} -> From ! {count, N}, loop(N);
        stop -> ok
    end.

make_fun() -> fun() -> {fun_of, version()} end.

%% Holds a term (a fun or a literal of some version) until asked for it.
holder(T) ->
    receive
        {From, get} -> From ! {held, T}, holder(T);
        stop -> ok
    end.

-if(?VSN =:= 1).
only_in_v1() -> only_v1.
-endif.
