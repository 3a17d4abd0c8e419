-module(ext_term_full).
-export([main/0, adder/1]).

%% The external term format, complete: term_to_binary bytes for every type and option,
%% binary_to_term of OTP 25 bytes in every encoding, safe/used, local funs, malformed input.

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

adder(X) -> fun(Y) -> X + Y end.

enc(Label, T) -> erlang:display({Label, term_to_binary(T)}).
enc(Label, T, Opts) -> erlang:display({Label, Opts, term_to_binary(T, Opts)}).

%% The pid bytes in a NEW_FUN_EXT depend on the creating process: show them as 'PID'.
hide_pid(B) ->
    <<131, PidExt/binary>> = term_to_binary(self()),
    case binary:split(B, PidExt, [global]) of
        [B] -> B;
        Parts -> lists:join('PID', Parts)
    end.

main() ->
    types(),
    options(),
    otp_bytes(),
    safe_and_used(),
    local_funs(),
    malformed(),
    ok.

types() ->
    enc(small, 0), enc(byte, 255), enc(int32, 256), enc(neg, -1), enc(int32_min, -2147483648),
    enc(int32_over, 2147483648), enc(big64, 1 bsl 64), enc(neg_big, -(1 bsl 100)),
    enc(large_big, 1 bsl 2100),
    enc(float, 3.14159), enc(neg_zero, -0.0), enc(atom, abc), enc(latin1_atom, 'caf\x{e9}'),
    enc(utf8_atom, '\x{3bb}x'), enc(long_utf8_atom, list_to_atom(lists:duplicate(100, 16#3bb))),
    enc(empty_atom, ''), enc(nil, []), enc(string, "hello"), enc(unicode_list, [955, 1000]),
    enc(improper, [1 | 2]), enc(mixed_list, [a, 1.5, "x"]), enc(tuple0, {}),
    enc(tuple, {a, {b, c}, [d]}), enc(large_tuple_size, byte_size(term_to_binary(list_to_tuple(lists:seq(1, 300))))),
    erlang:display({large_tuple_head, binary:part(term_to_binary(list_to_tuple(lists:seq(1, 300))), 0, 12)}),
    enc(binary, <<1, 2, 3>>), enc(empty_binary, <<>>), enc(bits, <<1, 2, 3:5>>), enc(bits1, <<1:1>>),
    enc(big_binary_size, byte_size(term_to_binary(binary:copy(<<"ab">>, 100)))),
    enc(map, #{a => 1, b => [2], {c} => <<3>>}), enc(empty_map, #{}),
    enc(export_fun, fun lists:map/2), enc(bif_fun, fun erlang:abs/1),
    enc(nested, {[#{k => {v, 1.0}}], <<"x">>, [[]]}),
    enc(long_string, lists:seq(1, 70) ++ lists:seq(1, 70)),
    enc(string_over_byte, lists:seq(250, 260)),
    ok.

options() ->
    Big = lists:duplicate(50, {abc, "defgh", 1.0}),
    [enc(compressed_level, Big, [{compressed, N}]) || N <- [0, 1, 6, 9]],
    enc(compressed_default, Big, [compressed]),
    enc(compressed_small, abc, [compressed]),  % not smaller: left uncompressed
    [enc(minor, 1.5, [{minor_version, N}]) || N <- [0, 1, 2]],
    enc(minor0_neg, -123.456e-78, [{minor_version, 0}]),
    enc(minor1_atom, 'caf\x{e9}', [{minor_version, 1}]),
    enc(minor1_utf8_atom, '\x{3bb}', [{minor_version, 1}]),
    M = maps:from_list([{K, K * 2} || K <- lists:seq(1, 32)]),
    enc(deterministic, M, [deterministic]),
    enc(deterministic_mixed, #{b => 1, a => 2, 1 => x, "s" => y}, [deterministic, {minor_version, 1}]),
    enc(det_compressed, lists:duplicate(20, #{z => 1, a => 2}), [deterministic, compressed]),
    t(bad_option, fun() -> term_to_binary(a, [bogus]) end),
    t(bad_level, fun() -> term_to_binary(a, [{compressed, 10}]) end),
    t(bad_minor, fun() -> term_to_binary(a, [{minor_version, 3}]) end),
    t(improper_options, fun() -> term_to_binary(a, [compressed | x]) end),
    t(roundtrip_all, fun() ->
        Ts = [1 bsl 70, -5, 2.5, "str", {a, [b | c]}, <<7:3>>, #{x => [1]}, fun lists:map/2, 'é', []],
        [binary_to_term(term_to_binary(T, O)) =:= T
         || T <- Ts, O <- [[], [compressed], [{minor_version, 0}], [deterministic]]]
      end),
    ok.

otp_bytes() ->
    D = fun(Label, Bin) -> t(Label, fun() -> binary_to_term(Bin) end) end,
    D(float_ext, <<131,99,"1.50000000000000000000e+00",0,0,0,0,0>>),
    D(small_atom_ext, <<131,115,3,"abc">>),
    D(small_atom_latin1, <<131,115,4,"caf",233>>),
    D(atom_utf8_ext, <<131,118,0,2,206,187>>),
    D(small_atom_utf8_ext, <<131,119,2,206,187>>),
    D(atom_ext_latin1, <<131,100,0,4,"caf",233>>),
    D(pid_ext, <<131,103,100,0,13,"nonode@nohost",0,0,0,9,0,0,0,0,0>>),
    D(new_pid_ext, <<131,88,100,0,13,"nonode@nohost",0,0,0,9,0,0,0,0,0,0,0,0>>),
    D(port_ext, <<131,102,100,0,13,"nonode@nohost",0,0,0,5,0>>),
    D(new_port_ext, <<131,89,100,0,13,"nonode@nohost",0,0,0,5,0,0,0,0>>),
    D(v4_port_ext, <<131,120,100,0,13,"nonode@nohost",0,0,0,1,0,0,0,5,0,0,0,0>>),
    D(v4_port_ext_small, <<131,120,100,0,13,"nonode@nohost",0,0,0,0,0,0,0,5,0,0,0,0>>),
    D(port_max, <<131,89,100,0,13,"nonode@nohost",15,255,255,255,0,0,0,0>>),
    D(port_over, <<131,89,100,0,13,"nonode@nohost",16,0,0,0,0,0,0,0>>),
    D(pid_max, <<131,88,100,0,13,"nonode@nohost",0,0,127,255,0,0,0,0,0,0,0,0>>),
    D(pid_number_over, <<131,88,100,0,13,"nonode@nohost",0,0,128,0,0,0,0,0,0,0,0,0>>),
    D(pid_serial_over, <<131,88,100,0,13,"nonode@nohost",0,0,0,1,0,0,32,0,0,0,0,0>>),
    D(reference_ext, <<131,101,100,0,13,"nonode@nohost",0,0,0,1,0>>),
    D(new_reference_ext, <<131,114,0,3,100,0,13,"nonode@nohost",0,0,0,0,1,0,0,0,2,0,0,0,3>>),
    D(newer_reference_ext, <<131,90,0,3,100,0,13,"nonode@nohost",0,0,0,0,0,0,0,1,0,0,0,2,0,0,0,3>>),
    D(export_ext, <<131,113,100,0,5,"lists",100,0,3,"map",97,2>>),
    D(small_big, <<131,110,9,0,0,0,0,0,0,0,0,0,1>>),
    D(small_big_neg, <<131,110,2,1,1,1>>),
    D(small_big_zero_len, <<131,110,0,0>>),
    D(large_big, <<131,111,0,0,0,2,1,0,1>>),
    D(big_leading_zeros, <<131,110,4,0,5,0,0,0>>),
    D(string_ext, <<131,107,0,3,1,2,3>>),
    D(list_ext_empty_tail, <<131,108,0,0,0,0,97,7>>),
    D(bit_binary, <<131,77,0,0,0,2,3,1,255>>),
    D(map_unsorted, <<131,116,0,0,0,2,100,0,1,"b",97,1,100,0,1,"a",97,2>>),
    D(compressed_bad_stream, <<131,80,0,0,0,23,120,156,203,97,96,96,200,72,205,201,201,103,0,0,36,21,4,223>>),
    D(compressed_otp, term_to_binary(lists:duplicate(30, hello), [compressed])),
    ok.

safe_and_used() ->
    Unknown = <<131,100,0,20,"ext_term_full_nonesu">>,
    t(safe_unknown, fun() -> binary_to_term(Unknown, [safe]) end),
    t(safe_known, fun() -> binary_to_term(<<131,100,0,3,"abc">>, [safe]) end),
    t(safe_in_fun, fun() -> binary_to_term(<<131,104,1,100,0,20,"ext_term_full_nonesv">>, [safe]) end),
    t(used, fun() -> binary_to_term(<<131,97,1,2,3,4>>, [used]) end),
    t(used_compressed, fun() -> binary_to_term(<<(term_to_binary(lists:duplicate(30, a), [compressed]))/binary, 9, 9>>, [used]) end),
    t(used_safe, fun() -> binary_to_term(<<131,106,0>>, [used, safe]) end),
    t(bad_opt, fun() -> binary_to_term(<<131,106>>, [bogus]) end),
    t(not_binary, fun() -> binary_to_term([131,106]) end),
    t(trailing_without_used, fun() -> binary_to_term(<<131,106,0>>) end),
    ok.

local_funs() ->
    F = adder(5),
    B = term_to_binary(F),
    erlang:display({fun_bytes, hide_pid(B)}),
    erlang:display({fun_uniq_is_md5, binary:part(B, 7, 16) =:= ?MODULE:module_info(md5)}),
    G = binary_to_term(B),
    t(call_decoded, fun() -> G(10) end),
    erlang:display({equal, G =:= F, term_to_binary(G) =:= B}),
    H = fun() -> {nested, F} end,
    {nested, F2} = (binary_to_term(term_to_binary(H)))(),
    t(call_nested, fun() -> F2(1) end),
    erlang:display({fun_in_tuple, hide_pid(term_to_binary({F, [F]}))}),
    %% f1:mk(5) from another module, made by <0.9.0> on erl: module zzfun is not loadable.
    Otp = <<131,112,0,0,0,75,1,19,69,139,7,93,75,13,235,51,46,98,132,3,240,43,253,0,0,0,0,0,0,0,1,
            100,0,5,"zzfun",97,0,98,0,154,44,88,88,100,0,13,"nonode@nohost",0,0,0,9,0,0,0,0,0,0,0,0,97,5>>,
    Z = binary_to_term(Otp),
    erlang:display({unloaded, erlang:fun_info(Z, module), erlang:fun_info(Z, arity), erlang:fun_info(Z, env),
                    erlang:fun_info(Z, index), erlang:fun_info(Z, uniq), erlang:fun_info(Z, name)}),
    erlang:display({unloaded_reencodes, term_to_binary(Z) =:= Otp}),
    t(call_unloaded, fun() -> Z(1) end),
    t(call_unloaded_badarity, fun() -> try Z(1, 2) catch error:{badarity, _} -> badarity end end),
    %% This module with a wrong md5: the loaded code does not match.
    <<Pre:7/binary, _:16/binary, Post/binary>> = B,
    W = binary_to_term(<<Pre/binary, 0:128, Post/binary>>),
    t(call_mismatched, fun() -> try W(1) catch error:{badfun, X} -> {badfun, X =:= W} end end),
    erlang:display({mismatched_equal, W == F}),
    ok.

malformed() ->
    Bad = [<<>>, <<131>>, <<130,106>>, <<131,0>>, <<131,97>>, <<131,98,0,0>>, <<131,104,2,106>>,
           <<131,105,255,255,255,255>>, <<131,108,127,255,255,255,106>>, <<131,109,0,0,0,9,1>>,
           <<131,111,255,255,255,255,0>>, <<131,116,16,0,0,0>>,
           <<131,116,0,0,0,2,100,0,1,97,97,1,100,0,1,97,97,2>>,
           <<131,119,2,195,40>>, <<131,77,0,0,0,1,0,0>>, <<131,70,127,240,0,0,0,0,0,0>>,
           <<131,80,127,255,255,255,120,156,1,2>>, <<131,80,0,0,0,10,120,156,1,2,3,4,5>>,
           <<131,104,1,80,0,0,0,1,0>>, <<131,117,0,0,0,0,97,1>>,
           <<131,112,0,0,0,72,1,0:128,0:32,0,0,0,2,100,0,1,"m",97,0,97,0,97,1,97,5>>,
           <<131,112,0,0,0,72,1,0:128,0:32,0,0,0,0,97,1,97,0,97,0,97,1>>,
           <<131,113,97,1,100,0,1,"f",97,1>>, <<131,113,100,0,1,"m",100,0,1,"f",98,0,0,0,1>>,
           <<131,99,"not a float",0:(20*8)>>, <<131,110,1,2,5>>, <<131,107,0,5,1>>,
           <<131,100,1,0,"x">>, <<131,118,0,1,255>>, <<131,88,97,1,0,0,0,1,0,0,0,0,0,0,0,0>>,
           <<131,255>>],
    [t({malformed, I}, fun() -> binary_to_term(B) end) || {I, B} <- lists:zip(lists:seq(1, length(Bad)), Bad)],
    ok.
