%% The termination policy for ports' OS processes (docs/ports.md), beamvm's own: erl does not
%% have it. After a port closes or its owner dies: stdin closed, a grace period ({kill_timeout,
%% Ms}), SIGTERM, the grace period again, SIGKILL; always reaped. Each check waits until the
%% child is reaped (beamvm:port_children/0 no longer lists it), then compares what the policy
%% had to send (beamvm:port_policy_counts/0: {TermSent, KillSent, Reaped}) and checks that no
%% zombie and no descriptor is left behind.
-module(port_policy).
-export([main/0]).

main() ->
    process_flag(trap_exit, true),
    Fds = fd_count(),
    ns_check:run([
        {"child exiting on stdin close", fun stdin_close/0},
        {"child ignoring SIGTERM is killed", fun ignores_term/0},
        {"flooding child: bounded queue, schedulers free", fun flood/0},
        {"owner death closes the port and the child goes", fun owner_death/0},
        {"commands pending at close are still written", fun drain/0},
        {"child held by a pidfd, or by its pid under BEAMVM_PORT_NO_PIDFD", fun held_by/0},
        {"no zombie", fun() -> ns_check:equal(0, zombies()) end},
        {"no leaked descriptor", fun() -> ns_check:equal(Fds, fd_count()) end}
    ]).

counts() -> beamvm:port_policy_counts().

os_pid(P) -> {os_pid, Pid} = erlang:port_info(P, os_pid), Pid.

%% Waits until the OS process is reaped (a bounded number of short waits).
wait_reaped(OsPid) -> wait_reaped(OsPid, 1000).
wait_reaped(OsPid, 0) -> {still_there, OsPid, beamvm:port_children()};
wait_reaped(OsPid, N) ->
    case lists:keymember(OsPid, 1, beamvm:port_children()) of
        false -> ok;
        true -> receive after 20 -> wait_reaped(OsPid, N - 1) end
    end.

delta({T0, K0, R0}, {T1, K1, R1}) -> {T1 - T0, K1 - K0, R1 - R0}.

flush_exit(P) -> receive {'EXIT', P, _} -> ok after 1000 -> ok end.

stdin_close() ->
    C0 = counts(),
    P = open_port({spawn, "cat"}, [{kill_timeout, 200}]),
    OsPid = os_pid(P),
    port_close(P),
    flush_exit(P),
    ok = wait_reaped(OsPid),
    ns_check:equal({0, 0, 1}, delta(C0, counts())).

ignores_term() ->
    C0 = counts(),
    P = open_port({spawn, "sh -c 'trap \"\" TERM; echo ready; exec sleep 100'"}, [{kill_timeout, 100}]),
    receive {P, {data, "ready\n"}} -> ok end,
    OsPid = os_pid(P),
    port_close(P),
    flush_exit(P),
    ok = wait_reaped(OsPid),
    ns_check:equal({1, 1, 1}, delta(C0, counts())).

%% `yes` writes as fast as the pipe takes it; this process reads nothing for a while. The
%% port stops reading once 64 messages (64 KiB at most each) wait in the owner's mailbox or
%% 1 MiB more is on its way to it, so the queue stays bounded, and
%% another process runs its work to the end meanwhile.
flood() ->
    C0 = counts(),
    P = open_port({spawn, "yes"}, [binary, {kill_timeout, 2000}]),
    OsPid = os_pid(P),
    Self = self(),
    spawn(fun() -> Self ! {worker, lists:sum(lists:seq(1, 2000000))} end),
    receive {worker, Sum} -> ok end,
    receive after 300 -> ok end,
    {messages, Msgs} = process_info(self(), messages),
    Bytes = lists:sum([byte_size(D) || {_, {data, D}} <- Msgs]),
    port_close(P),
    flush_data(P),
    ok = wait_reaped(OsPid),
    case {Sum, Bytes =< 6 * 1024 * 1024, Bytes > 0, delta(C0, counts())} of
        {2000001000000, true, true, {0, 0, 1}} -> ok;
        Other -> {unexpected, Other, Bytes}
    end.

flush_data(P) ->
    receive {P, _} -> flush_data(P); {'EXIT', P, _} -> flush_data(P) after 0 -> ok end.

owner_death() ->
    C0 = counts(),
    Self = self(),
    Owner = spawn(fun() ->
                          P = open_port({spawn, "cat"}, [{kill_timeout, 200}]),
                          Self ! {port, P, os_pid(P)},
                          receive die -> exit(bye) end
                  end),
    {P, OsPid} = receive {port, Port, Os} -> {Port, Os} end,
    Ref = erlang:monitor(port, P),
    Owner ! die,
    receive {'DOWN', Ref, port, P, bye} -> ok end,
    ok = wait_reaped(OsPid),
    ns_check:equal({0, 0, 1}, delta(C0, counts())).

%% 4 MiB is far more than a pipe holds: most of it is still queued when the port closes, and
%% is written before the child's stdin closes (cat then exits: no signal).
drain() ->
    C0 = counts(),
    File = "/tmp/beamvm_port_drain_" ++ os:getpid(),
    P = open_port({spawn, "cat > " ++ File}, [eof, {kill_timeout, 5000}]),
    OsPid = os_pid(P),
    true = port_command(P, binary:copy(<<"0123456789abcdef">>, 262144)),
    port_close(P),
    flush_exit(P),
    ok = wait_reaped(OsPid),
    Delta = delta(C0, counts()),
    Size = string:trim(os:cmd("wc -c < " ++ File ++ "; rm -f " ++ File)),
    ns_check:equal({"4194304", {0, 0, 1}}, {Size, Delta}).

%% While a child runs, beamvm holds a pidfd for it unless BEAMVM_PORT_NO_PIDFD is set (then
%% its pid alone: scheduler/port_spawn.cpp).
held_by() ->
    P = open_port({spawn, "sleep 30"}, []),
    Links = [file:read_link("/proc/self/fd/" ++ F) || F <- element(2, file:list_dir("/proc/self/fd"))],
    Pidfds = length([L || {ok, L} <- Links, L =:= "anon_inode:[pidfd]"]),
    OsPid = os_pid(P),
    port_close(P),
    wait_reaped(OsPid),
    case os:getenv("BEAMVM_PORT_NO_PIDFD") of
        false -> ns_check:equal(true, Pidfds >= 1);
        _ -> ns_check:equal(0, Pidfds)
    end.

%% Children of this VM in state Z (a shell run by os:cmd is this VM's child: $PPID).
zombies() ->
    settle(),
    list_to_integer(string:trim(os:cmd("ps -o stat= --ppid $PPID | grep -c '^Z' || true"))).

%% Counted while os:cmd's own shell runs, before and after alike, once every earlier child
%% (os:cmd's included) has been reaped.
fd_count() ->
    settle(),
    N = list_to_integer(string:trim(os:cmd("ls /proc/$PPID/fd | wc -l"))),
    settle(),
    N.

settle() -> settle(1000).
settle(0) -> ok;
settle(N) ->
    case beamvm:port_children() of
        [] -> ok;
        _ -> receive after 20 -> settle(N - 1) end
    end.
