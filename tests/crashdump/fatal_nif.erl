%% Loads fatal_nif.so (tests/crashdump/fatal_nif.c) and calls it: beamvm's internal
%% fatal-error path, which writes erl_crash.dump before it aborts.
-module(fatal_nif).
-export([main/0, bad_term_type/0]).
-nifs([bad_term_type/0]).
-on_load(init/0).

init() -> erlang:load_nif(filename:join(filename:dirname(code:which(?MODULE)), "fatal_nif"), 0).

bad_term_type() -> erlang:nif_error(not_loaded).

main() ->
    register(bystander, spawn(fun() -> receive stop -> ok end end)),
    timer:sleep(100),
    bad_term_type().
