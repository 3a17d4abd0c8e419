%% Not a benchmark: bench/run.sh and bench/real_run.sh start every benchmark through this
%% module, `-s bench_harness run MODULE ENTRY`, so the time it reports covers the benchmark's own
%% work and leaves out the emulator's start-up (erl boots OTP in about 0.15 s, the interpreter
%% flavour and beamvm in their own times) and the loading of the benchmark module.
%% After the benchmark's checksum line it prints {bench_time_us, Microseconds}, and, where
%% /proc/self/stat
%% exists (Linux), {bench_rusage, MinorFaults, MajorFaults, UserTicks, SystemTicks}: what the
%% benchmark's work cost the OS process (all its threads), in clock ticks (getconf CLK_TCK).
%% Reading them inside the VM leaves out the faults and kernel time of booting, which would
%% otherwise dominate a short run. The scripts read both lines and strip every `{bench_` line
%% before comparing the outputs. Both go through io:format, the benchmark's own path to the
%% terminal, so they follow its output: erlang:display/1 writes to the descriptor at once, and
%% on erl at +S 2 its bytes landed inside a checksum line still on its way through the user
%% I/O server (seen once in 48 real_pmap runs).
-module(bench_harness).
-export([run/1]).

run([Module, Entry]) ->
    {module, Module} = code:ensure_loaded(Module),
    R0 = rusage(),
    T0 = erlang:monotonic_time(microsecond),
    Module:Entry(),
    T1 = erlang:monotonic_time(microsecond),
    R1 = rusage(),
    io:format("~w~n", [{bench_time_us, T1 - T0}]),
    case {R0, R1} of
        {{F0, J0, U0, S0}, {F1, J1, U1, S1}} ->
            io:format("~w~n", [{bench_rusage, F1 - F0, J1 - J0, U1 - U0, S1 - S0}]);
        _ ->
            ok
    end.

%% Fields 10, 12, 14 and 15 of proc(5)'s /proc/[pid]/stat: minflt, majflt, utime, stime.
%% The command name (field 2) may hold spaces, so fields are counted after its closing paren.
rusage() ->
    case file:read_file("/proc/self/stat") of
        {ok, Stat} ->
            [_, After] = string:split(Stat, ") ", trailing),
            Fields = string:lexemes(After, " "),
            [Min, Maj, U, S] = [binary_to_integer(lists:nth(N - 2, Fields)) || N <- [10, 12, 14, 15]],
            {Min, Maj, U, S};
        {error, _} ->
            none
    end.
