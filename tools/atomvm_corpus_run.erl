%% Runs one test of AtomVM's portable corpus (tools/atomvm_corpus.sh): calls Module:start()
%% and prints one line saying whether it returned Expected. The same .beam runs on erl and on
%% beamvm; AtomVM's own harness (tests/test.c, `-b`) does the same through `erl -eval`.
%%   erl -noshell -pa EBIN -s atomvm_corpus_run main Module vExpected
-module(atomvm_corpus_run).
-export([main/1]).

%% Expected comes as 'v17' or 'v-1': a bare "-1" on the command line would be read as a flag.
main([Module, ExpectedAtom]) ->
    "v" ++ Digits = atom_to_list(ExpectedAtom),
    Expected = list_to_integer(Digits),
    %% AtomVM's harness clears trap_exit first: the process running -s/-eval may trap exits.
    process_flag(trap_exit, false),
    Line = try Module:start() of
               Expected -> "PASS";
               Other -> io_lib:format("FAIL returned ~W", [Other, 12])
           catch
               Class:Reason:Stack ->
                   io_lib:format("FAIL ~p:~W at ~W", [Class, Reason, 12, Stack, 12])
           end,
    io:format("~natomvm_corpus ~s ~s~n", [Module, Line]),
    erlang:halt(0).
