%% Generates bif_cases.txt: each BIF call below run on real erl, with its result or error.
%% Regenerate with:
%%   erlc gen_bif_cases.erl && erl -noshell -s gen_bif_cases main -s erlang halt > bif_cases.txt
%% Line format (hex = term_to_binary, args as a list):
%%   Module Function Arity ArgsHex ok ResultHex
%%   Module Function Arity ArgsHex Class ReasonHex
-module(gen_bif_cases).
-export([main/0]).

cases() ->
    Big = 1 bsl 100,
    [
     %% arithmetic
     {erlang, '+', [1, 2]}, {erlang, '+', [(1 bsl 59) - 1, 1]}, {erlang, '+', [1, 2.5]},
     {erlang, '+', [Big, 1.0]}, {erlang, '+', [a, 1]}, {erlang, '+', [1 bsl 1100, 0.5]},
     {erlang, '-', [1, 2]}, {erlang, '-', [-(1 bsl 59), 1]}, {erlang, '-', [1.5, 2]},
     {erlang, '*', [Big, Big]}, {erlang, '*', [3, 2.0]}, {erlang, '*', [1.0e308, 10]},
     {erlang, '/', [1, 2]}, {erlang, '/', [1, 0]}, {erlang, '/', [1.0, 0.0]}, {erlang, '/', [Big, 4]},
     {erlang, 'div', [7, 2]}, {erlang, 'div', [-7, 2]}, {erlang, 'div', [1, 0]}, {erlang, 'div', [1.0, 1]},
     {erlang, 'rem', [7, -2]}, {erlang, 'rem', [-7, 2]}, {erlang, 'rem', [Big, 7]}, {erlang, 'rem', [1, 0]},
     {erlang, 'band', [-1, 255]}, {erlang, 'bor', [1, Big]}, {erlang, 'bxor', [-5, 3]},
     {erlang, 'bsl', [1, 70]}, {erlang, 'bsl', [1, -1]}, {erlang, 'bsr', [-9, 1]}, {erlang, 'bsr', [Big, 99]},
     {erlang, 'bsl', [1, 1 bsl 64]}, {erlang, 'bsr', [-1, 1 bsl 64]}, {erlang, 'bsl', [0, 1 bsl 64]},
     {erlang, 'bsl', [1, a]}, {erlang, 'bnot', [5]}, {erlang, 'bnot', [1.0]},
     {erlang, '-', [5]}, {erlang, '-', [-(1 bsl 59)]}, {erlang, '-', [2.5]}, {erlang, '-', [a]},
     {erlang, '+', [a]}, {erlang, '+', [2.5]},
     {erlang, abs, [-3]}, {erlang, abs, [-2.5]}, {erlang, abs, [-Big]}, {erlang, abs, [a]},
     {erlang, float, [3]}, {erlang, float, [Big]}, {erlang, float, [1 bsl 1100]}, {erlang, float, [a]},
     {erlang, trunc, [-2.7]}, {erlang, trunc, [1.0e20]}, {erlang, round, [2.5]}, {erlang, round, [-2.5]},
     {erlang, floor, [-2.5]}, {erlang, ceil, [-2.5]}, {erlang, ceil, [7]}, {erlang, round, [a]},
     %% comparisons and booleans
     {erlang, '=:=', [1, 1.0]}, {erlang, '==', [1, 1.0]}, {erlang, '=/=', [a, a]}, {erlang, '/=', [1, 2]},
     {erlang, '<', [1, a]}, {erlang, '<', [{a}, [a]]}, {erlang, '>', [<<>>, []]}, {erlang, '=<', [1.0, 1]},
     {erlang, '>=', [#{}, {}]}, {erlang, min, [1, 1.0]}, {erlang, min, [1.0, 1]}, {erlang, max, [1, 1.0]},
     {erlang, max, [a, 3]}, {erlang, 'not', [true]}, {erlang, 'not', [3]}, {erlang, 'and', [true, false]},
     {erlang, 'or', [false, true]}, {erlang, 'xor', [true, true]}, {erlang, 'and', [true, 3]},
     %% math
     {math, sqrt, [4]}, {math, sqrt, [-1]}, {math, sqrt, [a]}, {math, log, [0]}, {math, log2, [8]},
     {math, pow, [2, 10]}, {math, pow, [10.0, 400]}, {math, pow, [0, -1]}, {math, exp, [1]},
     {math, atan2, [1, 1]}, {math, fmod, [7.5, 2]}, {math, fmod, [1, 0]}, {math, floor, [3]},
     {math, ceil, [2.1]}, {math, sin, [0]}, {math, cos, [0.0]}, {math, acos, [2]}, {math, pi, []},
     {math, erf, [0.5]}, {math, sqrt, [1 bsl 1100]}, {math, log10, [1000]},
     %% types
     {erlang, is_atom, [a]}, {erlang, is_atom, [[]]}, {erlang, is_binary, [<<1:1>>]},
     {erlang, is_bitstring, [<<1:1>>]}, {erlang, is_boolean, [false]}, {erlang, is_float, [1]},
     {erlang, is_integer, [Big]}, {erlang, is_list, [[]]}, {erlang, is_list, [[a|b]]},
     {erlang, is_map, [#{}]}, {erlang, is_number, [1.0]}, {erlang, is_tuple, [{}]},
     {erlang, is_function, [a, 1]}, {erlang, is_function, [a, -1]}, {erlang, is_record, [{a, 1}, a]},
     {erlang, is_record, [{a, 1}, 1]}, {erlang, is_record, [{a, 1}, a, 2]}, {erlang, is_record, [{a}, a, 2]},
     %% tuples
     {erlang, element, [2, {a, b}]}, {erlang, element, [3, {a, b}]}, {erlang, element, [1, a]},
     {erlang, setelement, [1, {a, b}, c]}, {erlang, setelement, [0, {a}, c]}, {erlang, tuple_size, [{a, b}]},
     {erlang, size, [<<1, 2, 3>>]}, {erlang, size, [{}]}, {erlang, size, [a]},
     {erlang, make_tuple, [3, x]}, {erlang, make_tuple, [-1, x]}, {erlang, make_tuple, [3, x, [{1, a}, {3, b}, {1, c}]]},
     {erlang, make_tuple, [2, x, [{3, y}]]}, {erlang, append_element, [{a}, b]}, {erlang, tuple_to_list, [{a, b}]},
     {erlang, list_to_tuple, [[a, b]]}, {erlang, list_to_tuple, [[a | b]]}, {erlang, delete_element, [2, {a, b, c}]},
     {erlang, delete_element, [1, {}]}, {erlang, insert_element, [2, {a, c}, b]}, {erlang, insert_element, [3, {a, b}, c]},
     {erlang, insert_element, [4, {a, b}, c]},
     %% lists
     {erlang, hd, [[1, 2]]}, {erlang, hd, [[]]}, {erlang, tl, [[1, 2]]}, {erlang, length, [[1, 2, 3]]},
     {erlang, length, [[1 | 2]]}, {erlang, '++', [[1, 2], [3]]}, {erlang, '++', [[a], b]}, {erlang, '++', [a, [b]]},
     {erlang, '--', [[a, b, a, c], [a, c, x]]}, {erlang, '--', [[1, 1.0], [1.0]]}, {erlang, '--', [[a | b], [a]]},
     {lists, reverse, [[1, 2, 3], [x]]}, {lists, reverse, [[1 | 2], []]}, {lists, member, [b, [a, b | c]]},
     {lists, member, [z, [a | c]]}, {lists, member, [1.0, [1]]}, {lists, keyfind, [1, 1, [{1.0, a}]]},
     {lists, keyfind, [b, 2, [{a, b, c}]]}, {lists, keyfind, [a, 0, []]}, {lists, keyfind, [a, 1, [x | y]]},
     {lists, keymember, [a, 1, [{a}]]}, {lists, keysearch, [a, 1, [{b}, {a, 1}]]}, {lists, keysearch, [z, 1, [{a}]]},
     %% atoms
     {erlang, atom_to_list, ['hello world']}, {erlang, atom_to_list, [list_to_atom([300, 97])]}, {erlang, atom_to_list, [1]},
     {erlang, atom_to_binary, [list_to_atom([200])]}, {erlang, atom_to_binary, [list_to_atom([200]), latin1]},
     {erlang, atom_to_binary, [list_to_atom([300]), latin1]}, {erlang, atom_to_binary, [a, foo]},
     {erlang, binary_to_atom, [<<"abc">>]}, {erlang, binary_to_atom, [<<200, 1>>, latin1]}, {erlang, binary_to_atom, [<<255>>]},
     {erlang, binary_to_atom, [binary:copy(<<"a">>, 256)]}, {erlang, binary_to_atom, [binary:copy(<<"a">>, 255)]},
     {erlang, binary_to_existing_atom, [<<"ok">>]}, {erlang, binary_to_existing_atom, [<<"no_such_atom_zzq">>]},
     {erlang, list_to_atom, ["abc"]}, {erlang, list_to_atom, [lists:duplicate(256, $a)]}, {erlang, list_to_atom, [[a]]},
     {erlang, list_to_atom, [[$a | b]]}, {erlang, list_to_existing_atom, ["no_such_atom_zzq"]},
     {erlang, list_to_existing_atom, [lists:duplicate(256, $a)]},
     %% integer text
     {erlang, integer_to_list, [-123]}, {erlang, integer_to_list, [255, 16]}, {erlang, integer_to_list, [-Big, 36]},
     {erlang, integer_to_list, [1, 37]}, {erlang, integer_to_binary, [Big]}, {erlang, integer_to_binary, [1.0]},
     {erlang, list_to_integer, ["+12"]}, {erlang, list_to_integer, ["-0012"]}, {erlang, list_to_integer, ["1 "]},
     {erlang, list_to_integer, [""]}, {erlang, list_to_integer, ["-"]}, {erlang, list_to_integer, ["ff", 16]},
     {erlang, list_to_integer, ["Zz", 36]}, {erlang, list_to_integer, ["2", 2]}, {erlang, list_to_integer, ["99999999999999999999999"]},
     {erlang, binary_to_integer, [<<"-42">>]}, {erlang, binary_to_integer, [<<"12">>, 3]}, {erlang, binary_to_integer, [<<"1_0">>]},
     %% float text
     {erlang, float_to_list, [1.5]}, {erlang, float_to_list, [0.1]}, {erlang, float_to_list, [-1.0e300]},
     {erlang, float_to_list, [1.25, [{decimals, 1}]]}, {erlang, float_to_list, [0.125, [{decimals, 2}]]},
     {erlang, float_to_list, [1.0, [{decimals, 3}, compact]]}, {erlang, float_to_list, [100.0, [{decimals, 2}, compact]]},
     {erlang, float_to_list, [0.0, [{decimals, 0}, compact]]}, {erlang, float_to_list, [2.5, [{decimals, 0}]]},
     {erlang, float_to_list, [-1.5, [{decimals, 0}]]}, {erlang, float_to_list, [-0.0, [{decimals, 2}]]},
     {erlang, float_to_list, [0.1, [{decimals, 30}]]}, {erlang, float_to_list, [1.0e300, [{decimals, 2}]]},
     {erlang, float_to_list, [1.0e250, [{decimals, 2}]]}, {erlang, float_to_list, [1.0, [{decimals, 254}]]},
     {erlang, float_to_list, [math:pow(2, -20), [{decimals, 19}]]}, {erlang, float_to_list, [math:pow(2, -19), [{decimals, 18}]]},
     {erlang, float_to_list, [math:pow(2, 51) + 0.5, [{decimals, 0}]]}, {erlang, float_to_list, [1.0e-10, [{decimals, 5}, compact]]},
     {erlang, float_to_list, [1.5, [{scientific, 3}]]}, {erlang, float_to_list, [1.0, [{scientific, 0}]]},
     {erlang, float_to_list, [1.0, [{scientific, 250}]]}, {erlang, float_to_list, [1.0, [{decimals, 3}, {scientific, 2}]]},
     {erlang, float_to_list, [1.0, [short, {decimals, 2}]]}, {erlang, float_to_list, [1.0, [{decimals, 2}, short]]},
     {erlang, float_to_list, [1.0, [bad]]}, {erlang, float_to_list, [1, []]},
     {erlang, float_to_list, [0.1, [short]]}, {erlang, float_to_list, [1.0e15, [short]]}, {erlang, float_to_list, [100.0, [short]]},
     {erlang, float_to_list, [1000.0, [short]]}, {erlang, float_to_list, [0.0001, [short]]}, {erlang, float_to_list, [1.0e-5, [short]]},
     {erlang, float_to_list, [123456789.0, [short]]}, {erlang, float_to_list, [12345678901234567.0, [short]]},
     {erlang, float_to_list, [-0.0, [short]]}, {erlang, float_to_list, [5.0e-324, [short]]}, {erlang, float_to_list, [0.000123, [short]]},
     {erlang, float_to_binary, [2.5]}, {erlang, float_to_binary, [2.5, [{decimals, 4}, compact]]},
     {erlang, list_to_float, ["1.0"]}, {erlang, list_to_float, ["1"]}, {erlang, list_to_float, ["1.0e5"]}, {erlang, list_to_float, ["1e5"]},
     {erlang, list_to_float, ["+1.5E-3"]}, {erlang, list_to_float, [".5"]}, {erlang, list_to_float, ["1.0e400"]},
     {erlang, list_to_float, ["1.0e-400"]}, {erlang, list_to_float, ["1.0 "]}, {erlang, binary_to_float, [<<"-2.25">>]},
     {erlang, binary_to_float, [<<"2.">>]},
     %% binaries and lists
     {erlang, list_to_binary, [[1, <<2, 3>>, [4, [5]] | <<6>>]]}, {erlang, list_to_binary, [<<1>>]},
     {erlang, list_to_binary, [[256]]}, {erlang, list_to_binary, [[<<1:1>>]]}, {erlang, iolist_to_binary, [<<1, 2>>]},
     {erlang, iolist_to_binary, [[[], [[]], "ab"]]}, {erlang, iolist_size, [[1, <<2, 3>> | <<4>>]]}, {erlang, iolist_size, [[a]]},
     {erlang, list_to_bitstring, [[<<1:1>>, <<3:2>> | <<1:1>>]]}, {erlang, list_to_bitstring, [[1, <<2:4>>]]},
     {erlang, binary_to_list, [<<1, 2, 3>>]}, {erlang, binary_to_list, [<<1:1>>]}, {erlang, binary_to_list, [<<1, 2, 3>>, 2, 3]},
     {erlang, binary_to_list, [<<1, 2, 3>>, 2, 1]}, {erlang, binary_to_list, [<<1, 2, 3>>, 0, 1]},
     {erlang, bitstring_to_list, [<<1, 2, 3:3>>]}, {erlang, byte_size, [<<1:9>>]}, {erlang, bit_size, [<<1:9>>]},
     {erlang, byte_size, [a]}, {erlang, binary_part, [<<1, 2, 3>>, {1, 2}]}, {erlang, binary_part, [<<1, 2, 3>>, 3, -2]},
     {erlang, binary_part, [<<1, 2, 3>>, {0, 4}]}, {erlang, split_binary, [<<1, 2, 3>>, 1]}, {erlang, split_binary, [<<1>>, 2]},
     {binary, first, [<<7, 8>>]}, {binary, first, [<<>>]}, {binary, last, [<<7, 8>>]}, {binary, at, [<<7, 8>>, 1]},
     {binary, at, [<<7, 8>>, 2]}, {binary, part, [<<1, 2, 3>>, {3, -2}]}, {binary, copy, [<<"ab">>, 3]},
     {binary, copy, [<<1>>, -1]}, {binary, bin_to_list, [<<1, 2, 3>>, {1, 2}]}, {binary, bin_to_list, [<<1, 2, 3>>, 0, 1]},
     {binary, encode_unsigned, [0]}, {binary, encode_unsigned, [256, little]}, {binary, encode_unsigned, [Big]},
     {binary, encode_unsigned, [-1]}, {binary, decode_unsigned, [<<>>]}, {binary, decode_unsigned, [<<1, 0>>, little]},
     {binary, decode_unsigned, [binary:copy(<<255>>, 20)]}, {binary, list_to_bin, [[1, <<2>>]]},
     %% external term format
     {erlang, term_to_binary, [{a, [1, 2.5, <<"x">>], #{k => v}}]}, {erlang, term_to_binary, [abc, [bad]]},
     {erlang, term_to_binary, [lists:duplicate(100, 7), [compressed]]},
     {erlang, binary_to_term, [term_to_binary({x, "yz", -Big})]}, {erlang, binary_to_term, [<<131, 100>>]},
     {erlang, binary_to_term, [<<(term_to_binary(abc))/binary, 1, 2>>, [used]]}, {erlang, binary_to_term, [<<131, 97, 1>>, [bad]]},
     %% maps
     {maps, get, [k, notmap]}, {maps, get, [k, #{}]}, {maps, get, [1, #{1 => a, 1.0 => b}]}, {maps, find, [a, #{a => 1}]},
     {maps, find, [b, #{a => 1}]}, {maps, find, [k, nm]}, {maps, put, [b, 2, #{a => 1}]}, {maps, put, [k, v, a]},
     {maps, update, [a, 2, #{a => 1}]}, {maps, update, [k, v, #{}]}, {maps, remove, [a, #{a => 1, b => 2}]},
     {maps, remove, [k, nm]}, {maps, take, [a, #{a => 1, b => 2}]}, {maps, take, [k, #{}]},
     {maps, merge, [#{a => 1, b => 2}, #{b => 3, c => 4}]}, {maps, merge, [a, #{}]}, {maps, merge, [#{}, a]},
     {maps, keys, [#{b => 1, a => 2, 1 => x}]}, {maps, values, [#{b => 1, a => 2}]}, {maps, keys, [a]},
     {maps, to_list, [#{b => 1, a => 2, 1 => x, 1.0 => y}]}, {maps, from_list, [[{a, 1}, {a, 2}, {b, 3}]]},
     {maps, from_list, [[a]]}, {maps, from_keys, [[a, b, a], 0]}, {maps, from_keys, [[a | b], 0]},
     {maps, is_key, [a, #{a => 1}]}, {maps, is_key, [k, a]}, {maps, size, [#{a => 1}]}, {erlang, map_size, [a]},
     {erlang, map_get, [k, #{}]}, {erlang, map_get, [k, #{k => v}]}, {erlang, is_map_key, [k, a]},
     %% errors and node
     {erlang, error, [foo]}, {erlang, error, [{bad, 1}, [x]]}, {erlang, exit, [bye]}, {erlang, throw, [ball]},
     {erlang, node, []}, {erlang, node, [a]},
     %% phash2
     {erlang, phash2, [[]]}, {erlang, phash2, [a]}, {erlang, phash2, ['']}, {erlang, phash2, [hello_world_atom]},
     {erlang, phash2, [0]}, {erlang, phash2, [1]}, {erlang, phash2, [-1]}, {erlang, phash2, [1 bsl 27]},
     {erlang, phash2, [-(1 bsl 27)]}, {erlang, phash2, [(1 bsl 59) - 1]}, {erlang, phash2, [Big]}, {erlang, phash2, [-Big]},
     {erlang, phash2, [1.5]}, {erlang, phash2, [0.0]}, {erlang, phash2, [-0.0]}, {erlang, phash2, [{}]},
     {erlang, phash2, [{a, b, 1}]}, {erlang, phash2, ["abc"]}, {erlang, phash2, ["abcdefg"]}, {erlang, phash2, [[a, b]]},
     {erlang, phash2, [[1, 2, 300, 4 | x]]}, {erlang, phash2, [<<>>]}, {erlang, phash2, [<<"hello">>]},
     {erlang, phash2, [<<"0123456789abcdef0123">>]}, {erlang, phash2, [<<1, 2:3>>]}, {erlang, phash2, [#{}]},
     {erlang, phash2, [#{a => 1, b => [2]}]}, {erlang, phash2, [{[], [[]], {<<"x">>, #{1 => 2.0}}}]},
     {erlang, phash2, [list_to_atom([233, 300])]}, {erlang, phash2, [x, 10]},
     {erlang, phash2, [lists:seq(1, 300)]}, {erlang, phash2, [[<<"ab">>, "cdef", 1.0e300 | <<3:5>>]]},
     {erlang, phash2, [#{#{a => 1} => [#{}], {1} => -7}]}, {erlang, phash2, [binary:part(<<0, "abcdefghijklmnop">>, 1, 13)]},
     {erlang, phash2, [list_to_tuple(lists:seq(1, 40))]}, {erlang, phash2, [-(1 bsl 200)]}, {erlang, phash2, [1 bsl 64]},
     {erlang, phash2, [{x, "y"}, 1 bsl 32]}, {erlang, phash2, [x, 0]}, {erlang, phash2, [x, (1 bsl 32) + 1]}
    ].

main() ->
    [io:format("~s ~s ~b ~s ~s~n", [M, F, length(A), hex(A), result(M, F, A)]) || {M, F, A} <- cases()],
    ok.

result(M, F, A) ->
    try apply(M, F, A) of
        V -> ["ok ", hex(V)]
    catch
        C:R -> [atom_to_list(C), " ", hex(R)]
    end.

hex(T) -> binary:encode_hex(term_to_binary(T)).
