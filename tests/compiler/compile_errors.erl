%% Compiled with [report] by tools/compile_compare.sh: the errors printed on beamvm must be the
%% ones erl prints. Not a conformance module (it cannot compile).
-module(compile_errors).
-export([f/1, missing/0]).
-record(r, {a = 1}).

f(X) -> Unbound + X.

k() -> #s{}.

m(<<A:B/binary, _/binary>>) -> A.

n() -> "unterminated
