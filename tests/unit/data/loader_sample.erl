%% Fixture for tests/unit/loader_*.cpp: one of each operand kind the loader decodes.
-module(loader_sample).
-export([ints/0, lits/0, adder/1, ext/0, strs/1, sel/1, fl/2]).

ints() -> id([-1, 1000, 123456789012345678901234567890, -576460752303423489]).
lits() -> {[1, 2, 3], <<"abc">>, 1.5, fun lists:map/2, #{a => 1}}.
adder(N) -> fun(X) -> X + N end.
ext() -> lists:reverse([a, b]).
strs(<<"hello", Rest/binary>>) -> Rest;
strs(_) -> none.
sel(a) -> 1;
sel(b) -> 2;
sel(c) -> 3;
sel(_) -> 0.
fl(X, Y) when is_float(X) -> X * Y + 1.0.

id(X) -> X.
