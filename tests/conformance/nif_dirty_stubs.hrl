%% The functions of tests/nif/dirty_nif_test.c, loaded into the including module from
%% nif/<module>.so beside its .beam (built once per test module).
-export([thread_type/0, sleep_cpu/1, sleep_io/1, sleep_normal/1, seq_cpu/1, echo_io/1,
         raise_cpu/1, badarg_io/1, to_dirty/2, chain/2, chain_raise/1, timeslice/2,
         timeslice_cpu/1, bad_name/0, load_dirty_nif/0]).

-define(STUB, erlang:nif_error(not_loaded)).
thread_type() -> ?STUB.
sleep_cpu(_) -> ?STUB.
sleep_io(_) -> ?STUB.
sleep_normal(_) -> ?STUB.
seq_cpu(_) -> ?STUB.
echo_io(_) -> ?STUB.
raise_cpu(_) -> ?STUB.
badarg_io(_) -> ?STUB.
to_dirty(_, _) -> ?STUB.
chain(_, _) -> ?STUB.
chain_raise(_) -> ?STUB.
timeslice(_, _) -> ?STUB.
timeslice_cpu(_) -> ?STUB.
bad_name() -> ?STUB.

load_dirty_nif() ->
    Lib = filename:join([filename:dirname(code:which(?MODULE)), "nif", atom_to_list(?MODULE)]),
    ok = erlang:load_nif(Lib, 0).
