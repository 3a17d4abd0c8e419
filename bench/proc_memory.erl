%% Memory per waiting process (issue 11): spawns N processes that each block in a receive and
%% measures what they cost, two ways: the change of erlang:memory(processes) and the change of
%% the OS's resident set size (VmRSS in /proc/self/status), each divided by N.
%% bench/proc_memory.sh runs measure/0 on beamvm and on erl and prints both figures.
-module(proc_memory).
-export([main/0, quick/0, measure/0, measure/1]).

%% bench/run.sh compares output: main/0 and quick/0 print only the count of processes that
%% answered.
main() -> erlang:display({proc_memory, spawn_waiting(100000)}).
quick() -> erlang:display({proc_memory, spawn_waiting(10000)}).

measure() -> measure(100000).

measure(N) ->
    erlang:garbage_collect(),
    Mem0 = erlang:memory(processes),
    Rss0 = rss_bytes(),
    N = spawn_waiting(N),
    %% The spawner's own garbage (the acknowledgements) is not part of the cost.
    erlang:garbage_collect(),
    Mem1 = erlang:memory(processes),
    Rss1 = rss_bytes(),
    io:format("processes ~p memory_processes_bytes_per_process ~p rss_bytes_per_process ~p~n",
              [N, (Mem1 - Mem0) div N, (Rss1 - Rss0) div N]).

%% N processes, each waiting in `receive stop -> ok end` once it has said so; returns how many
%% answered. The spawner keeps no pid, so that its heap does not grow with N; the processes
%% wait until the VM halts.
spawn_waiting(N) ->
    Parent = self(),
    spawn_loop(N, Parent),
    await(N, 0).

spawn_loop(0, _) -> ok;
spawn_loop(N, Parent) ->
    spawn(fun() -> Parent ! ready, receive stop -> ok end end),
    spawn_loop(N - 1, Parent).

await(0, Got) -> Got;
await(N, Got) -> receive ready -> await(N - 1, Got + 1) end.

rss_bytes() ->
    {ok, Status} = file:read_file("/proc/self/status"),
    [_, Rest] = binary:split(Status, <<"VmRSS:">>),
    [Kb | _] = string:lexemes(binary_to_list(Rest), " \t\n"),
    list_to_integer(Kb) * 1024.
