%% The supervisor each node of the failover case runs: one child, dist_gserver's server or
%% standby (see dist_gserver.erl), restarted when it exits.
-module(dist_gsup).
-behaviour(supervisor).
-export([start/0, init/1]).

%% Started from a short-lived erpc process: unlinked, so that process's end does not stop it,
%% and with this node's `user` as group leader, so its reports stay in this node's log.
start() ->
    group_leader(whereis(user), self()),
    {ok, Pid} = supervisor:start_link({local, ?MODULE}, ?MODULE, []),
    unlink(Pid),
    ok.

init([]) ->
    Child = #{id => dist_gserver, start => {dist_gserver, start_link, []},
              restart => permanent, shutdown => 1000, type => worker},
    {ok, {#{strategy => one_for_one, intensity => 20, period => 10}, [Child]}}.
