%% Real workload (issue 29): term_to_binary/1,2 and binary_to_term/1 of large mixed terms
%% (records as tuples, small and big integers, floats, atoms, heap and off-heap binaries,
%% strings, small and large maps, nested lists), plain and compressed, as mnesia, dets, disk_log
%% and distribution do. No pids, references or funs: their encodings carry the node's creation,
%% which differs between runs. The map of more than 32 keys has no atoms in its keys: such a
%% map is encoded in its trie's order, which OTP derives from the atoms' table indices, so it
%% differs between VMs (and between OTP runs that create atoms in another order).
-module(real_ext_term).
-export([main/0, quick/0]).

main() -> run(4000, 10).

quick() -> run(300, 2).

run(Records, Times) ->
    Term = term(Records),
    Sizes = [round_trip(Term) || _ <- lists:seq(1, Times)],
    [{Plain, Compressed, Md5} | _] = Sizes,
    true = lists:all(fun(S) -> S =:= hd(Sizes) end, Sizes),
    io:format("real_ext_term: ~p records x~p: ~p bytes, ~p compressed, md5 ~s~n",
              [Records, Times, Plain, Compressed, [io_lib:format("~2.16.0b", [B]) || <<B>> <= Md5]]).

round_trip(Term) ->
    Plain = term_to_binary(Term),
    Compressed = term_to_binary(Term, [compressed]),
    Term = binary_to_term(Plain),
    Term = binary_to_term(Compressed),
    {byte_size(Plain), byte_size(Compressed), erlang:md5(Plain)}.

term(N) ->
    Index = maps:from_list([{{I, I * 3}, I * I} || I <- lists:seq(1, N div 10 + 40)]),
    {catalog, <<"bench">>, Index, [record(I) || I <- lists:seq(1, N)]}.

record(I) ->
    {item, I, 1 bsl (64 + I rem 100) + I, I / 7, element(I rem 3 + 1, {red, green, blue}),
     integer_to_binary(I * 7919), binary:copy(<<I:32>>, I rem 40),
     "name " ++ integer_to_list(I),
     #{id => I, tags => [t, I rem 5, <<"x">>], score => -I * 1000003},
     [{I + J, float(J)} || J <- lists:seq(1, I rem 6)]}.
