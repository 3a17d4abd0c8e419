%% Not a benchmark: bench/run.sh starts every benchmark through this module,
%% `-s bench_harness run MODULE ENTRY`, so the time it reports covers the benchmark's own work
%% and leaves out the emulator's start-up (erl boots OTP in about 0.15 s, the interpreter
%% flavour and beamvm in their own times) and the loading of the benchmark module.
%% After the benchmark's checksum line it prints {bench_time_us, Microseconds} with
%% erlang:display/1 (a direct, synchronous write on every VM); run.sh reads that line and
%% strips it before comparing the outputs.
-module(bench_harness).
-export([run/1]).

run([Module, Entry]) ->
    {module, Module} = code:ensure_loaded(Module),
    T0 = erlang:monotonic_time(microsecond),
    Module:Entry(),
    T1 = erlang:monotonic_time(microsecond),
    erlang:display({bench_time_us, T1 - T0}).
