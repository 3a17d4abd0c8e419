%% What each node of the cluster tests runs (tests/dist/cluster.sh): a pg scope and, on request,
%% the failover supervisor (dist_gsup); otherwise it waits to be told to halt by the driver.
%% A node halts by itself (status 3) after LIFETIME_MS in any case, so a test that failed half-way
%% leaves no node behind even if the script's own clean-up did not run.
-module(dist_node).
-export([start/0]).

%% Times BEAMVM_TEST_TIME_SCALE, as cluster.sh's limit (tools/tsan.sh's slower beamvm).
-define(LIFETIME_MS, 300000).

start() ->
    {ok, _} = pg:start(dist_pg),
    Scale = case os:getenv("BEAMVM_TEST_TIME_SCALE") of false -> 1; S -> list_to_integer(S) end,
    spawn(fun() -> timer:sleep(?LIFETIME_MS * Scale), erlang:halt(3) end),
    ok.
