%% What the BIF fuzzer does not call, and why. Everything else in bif_fuzz_functions is called
%% with every vector: a call that hurts only its own process is harmless, since each call runs
%% in a fresh one.
-module(bif_fuzz_skips).
-export([skip/3, tame/3]).

%% Functions never called.
skip(erlang, halt, _) -> {skip, "stops the VM that runs the fuzzer"};
skip(erlang, hibernate, 3) -> {skip, "never returns by design: the process sleeps until a message comes"};
skip(erlang, setnode, _) -> {skip, "turns the node into a distributed one for the rest of the run"};
skip(erts_internal, erase_persistent_terms, 0) -> {skip, "erases the persistent terms OTP's own modules keep"};
skip(erts_debug, set_internal_state, 2) -> {skip, "changes VM internals (erts' test hooks) for the rest of the run"};
skip(erts_internal, spawn_system_process, 3) -> {skip, "aborts erl itself on a bad argument (erl_crash.dump)"};
skip(_, _, _) -> call.

%% Argument vectors not called: erl itself runs out of memory (and aborts) or takes minutes on
%% them, or sleeps for as long as they say.
tame(binary, copy, [_, N]) when is_integer(N) -> N < 100000;
tame(M, F, [N | _]) when is_integer(N), (M =:= atomics orelse M =:= counters) andalso F =:= new;
                         is_integer(N), M =:= erts_internal, F =:= counters_new;
                         is_integer(N), M =:= erts_internal, F =:= atomics_new -> N < 100000;
tame(erlang, process_flag, [F, N]) when F =:= min_heap_size; F =:= min_bin_vheap_size;
                                        F =:= max_heap_size ->
    not (is_integer(N) andalso N > 1 bsl 40);  % erl aborts: "no next heap size found"
tame(erlang, delay_trap, [_, T]) -> not (T =:= infinity orelse is_integer(T) andalso T > 100);
tame(_, _, _) -> true.
