%% What the operating system sees of the VM: open file descriptors, child processes (zombies
%% included: a child not reaped is a leak too) and resident memory, read from /proc.
-module(soak_os).
-export([fds/0, children/0, rss_kb/0]).

fds() ->
    {ok, Names} = file:list_dir("/proc/self/fd"),
    length(Names).

children() ->
    Me = list_to_integer(os:getpid()),
    {ok, Names} = file:list_dir("/proc"),
    [Pid || Name <- Names, {Pid, ""} <- [string:to_integer(Name)], is_integer(Pid),
            parent(Pid) =:= Me].

%% Field 4 of /proc/PID/stat, after the command name in parentheses (which may hold spaces).
parent(Pid) ->
    case file:read_file("/proc/" ++ integer_to_list(Pid) ++ "/stat") of
        {ok, Stat} ->
            [_, AfterName] = string:split(Stat, ")", trailing),
            [_State, PPid | _] = string:lexemes(AfterName, " "),
            binary_to_integer(PPid);
        {error, _} -> gone
    end.

rss_kb() ->
    {ok, Status} = file:read_file("/proc/self/status"),
    [Line] = [L || L <- string:split(Status, "\n", all), string:prefix(L, "VmRSS:") =/= nomatch],
    [_, Kb, <<"kB">>] = string:lexemes(Line, " \t"),
    binary_to_integer(Kb).
