%% The erlang functions of the families beamvm does not have yet (call tracing;
%% bifs/not_yet_families.cpp) raise
%% {not_implemented, 'erlang:F/A'} naming themselves, never undef. erl implements them, so
%% there is nothing to compare with: each check says what beamvm must raise.
-module(bif_not_yet_families).
-export([main/0]).

functions() ->
    [{trace_pattern, 2}, {trace_pattern, 3}].

main() ->
    Exports = erlang:module_info(exports),
    Checks =
        [{"all are erlang exports", fun() -> ns_check:equal([], functions() -- Exports) end}] ++
        [{lists:flatten(io_lib:format("~p/~p", [F, A])),
          fun() ->
              Name = list_to_atom(lists:flatten(io_lib:format("erlang:~p/~p", [F, A]))),
              ns_check:raises({not_implemented, Name},
                              fun() -> apply(erlang, F, lists:duplicate(A, x)) end)
          end} || {F, A} <- functions()],
    ns_check:run(Checks).
