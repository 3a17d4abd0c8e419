%% Compiled with [report] by tools/compile_compare.sh: the warnings printed on beamvm must be
%% the ones erl prints. Not a conformance module (it is never run).
-module(compile_warnings).
-export([f/1, g/1]).

f(X) ->
    Unused = 1,
    case X of
        a -> 1;
        a -> 2;
        _ -> {X, 1.5e300 * 10.0}
    end.

g(L) -> [Y || Y <- L, is_atom(Y), is_integer(Y)].

h() -> ok.
