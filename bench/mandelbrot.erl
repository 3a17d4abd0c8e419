%% The Mandelbrot set on an N x N grid over [-1.5, 0.5] x [-1, 1], at most 50 iterations of
%% z := z^2 + c per point with escape at |z| > 2, eight points packed into each byte of a row as
%% in a PBM bitmap. Float arithmetic in a tail-recursive inner loop, integer bit-packing in the
%% outer ones. The checksum is the CRC-32 of the bitmap and its count of points in the set.
-module(mandelbrot).
-export([main/0, quick/0]).

-define(ITER, 50).
-define(LIMIT_SQ, 4.0).

main() -> run(1400).
quick() -> run(200).

run(N) ->
    Rows = [row(Y, N) || Y <- lists:seq(0, N - 1)],
    Bitmap = iolist_to_binary(Rows),
    Inside = lists:sum([popcount(B) || <<B>> <= Bitmap]),
    erlang:display({mandelbrot, N, erlang:crc32(Bitmap), Inside}).

row(Y, N) ->
    Ci = 2.0 * Y / N - 1.0,
    bytes(0, N, Ci, []).

%% Each byte holds eight points, the first in its high bit; a row's last byte is padded with
%% zero bits.
bytes(X, N, _Ci, Acc) when X >= N -> lists:reverse(Acc);
bytes(X, N, Ci, Acc) -> bytes(X + 8, N, Ci, [byte(X, 0, 0, N, Ci) | Acc]).

byte(_X, 8, Bits, _N, _Ci) -> Bits;
byte(X, K, Bits, N, Ci) when X + K >= N -> byte(X, K + 1, Bits bsl 1, N, Ci);
byte(X, K, Bits, N, Ci) ->
    Cr = 2.0 * (X + K) / N - 1.5,
    byte(X, K + 1, (Bits bsl 1) bor point(Cr, Ci), N, Ci).

%% 1 if c = Cr + Ci i stays bounded for ?ITER iterations.
point(Cr, Ci) -> iterate(0.0, 0.0, Cr, Ci, ?ITER).

iterate(_Zr, _Zi, _Cr, _Ci, 0) -> 1;
iterate(Zr, Zi, Cr, Ci, I) ->
    Zr2 = Zr * Zr,
    Zi2 = Zi * Zi,
    if
        Zr2 + Zi2 > ?LIMIT_SQ -> 0;
        true -> iterate(Zr2 - Zi2 + Cr, 2.0 * Zr * Zi + Ci, Cr, Ci, I - 1)
    end.

popcount(0) -> 0;
popcount(B) -> (B band 1) + popcount(B bsr 1).
