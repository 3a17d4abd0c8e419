%% The -eval command-line option: run with flags -eval Expr (tests/conformance/CMakeLists.txt,
%% conformance.cli_eval.flags), the expressions are evaluated in order before main/0 runs.
-module(cli_eval).
-export([main/0, value/0]).

value() -> {evaluated, ?MODULE}.

main() ->
    io:format("main after the evals~n").
