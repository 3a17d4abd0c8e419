%% Appending nothing to a binary (<<B/binary, Empty/binary>>) gives the binary itself (the same
%% object, erts_debug:same/2), for literal and writable binaries, as erts' append does.
-module(bits_append_empty).
-export([main/0]).

id(X) -> X.
append(A, B) -> <<A/binary, B/binary>>.

main() ->
    Literal = <<"123">>,
    Writable = <<(id(<<>>))/binary, 0, 1, 2, 3, 4, 5, 6, 7>>,
    Big = <<(id(<<>>))/binary, (binary:copy(<<"ab">>, 100))/binary>>,
    io:format("literal: ~p~n", [erts_debug:same(Literal, append(Literal, id(<<>>)))]),
    io:format("writable: ~p~n", [erts_debug:same(Writable, append(Writable, id(<<>>)))]),
    io:format("big: ~p~n", [erts_debug:same(Big, append(Big, id(<<>>)))]),
    io:format("non-empty: ~p~n", [append(Literal, id(<<"4">>))]),
    io:format("bits: ~p~n", [catch append(id(<<1:3>>), id(<<>>))]),
    ok.
