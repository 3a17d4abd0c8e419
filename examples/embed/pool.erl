%% A worker pool for examples/embed/worker_pool.cpp: pool:start(N, Host) starts N workers;
%% each job {job, Id, N} sent to the pool goes to the next worker, which answers the host
%% with {done, Id, WorkerIndex, Result} (Result: the sum of the squares of 1..N, worked out by
%% the host function host:square/1 and lists:sum/1).
-module(pool).
-export([start/2, init/2]).

start(N, Host) ->
    Pid = spawn(?MODULE, init, [N, Host]),
    register(pool, Pid),
    Pid.

init(N, Host) ->
    Workers = [spawn_link(fun() -> worker(I, Host) end) || I <- lists:seq(1, N)],
    loop(Workers, Host).

loop(Workers = [W | Rest], Host) ->
    receive
        {job, _Id, _N} = Job ->
            W ! Job,
            loop(Rest ++ [W], Host);
        stop ->
            Host ! {stopped, length(Workers)}
    end.

worker(I, Host) ->
    receive
        {job, Id, N} ->
            Sum = lists:sum([host:square(K) || K <- lists:seq(1, N)]),
            Host ! {done, Id, I, Sum},
            worker(I, Host)
    end.
