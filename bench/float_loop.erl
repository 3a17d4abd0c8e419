%% Mandelbrot set membership over a grid: float arithmetic in a tight loop.
-module(float_loop).
-export([main/0, quick/0]).

iter(_, _, _, _, Max, Max) -> Max;
iter(Zr, Zi, Cr, Ci, I, Max) ->
    Zr2 = Zr * Zr, Zi2 = Zi * Zi,
    if Zr2 + Zi2 > 4.0 -> I;
       true -> iter(Zr2 - Zi2 + Cr, 2.0 * Zr * Zi + Ci, Cr, Ci, I + 1, Max)
    end.

rows(Y, Size, Acc) when Y >= Size -> Acc;
rows(Y, Size, Acc) -> rows(Y + 1, Size, cols(0, Y, Size, Acc)).

cols(X, _, Size, Acc) when X >= Size -> Acc;
cols(X, Y, Size, Acc) ->
    Cr = 3.0 * X / Size - 2.0, Ci = 2.5 * Y / Size - 1.25,
    cols(X + 1, Y, Size, Acc + iter(0.0, 0.0, Cr, Ci, 0, 100)).

run(Size) -> erlang:display({mandelbrot, Size, rows(0, Size, 0)}).

main() -> run(1600).
quick() -> run(150).
