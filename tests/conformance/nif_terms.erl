%% Term construction and inspection by a NIF library (tests/nif/nif_terms.c, built into
%% EBIN/nif/ by tests/nif/CMakeLists.txt): integers at the C bounds, bignums the getters refuse,
%% floats, atoms, latin-1 strings, tuples, lists, enif_term_type, enif_compare, enif_hash,
%% the external term format. Pids and references are printed only through comparisons.
-module(nif_terms).
-export([main/0]).
-export([ints/0, get_ints/1, make_double/1, get_double/1, atoms/1, atom_info/1, get_string/2,
         make_strings/0, tuples/1, lists/1, make_lists/0, classify/1, compare/2, hash/3,
         to_binary/1, from_binary/2, pids/1, make_refs/0, whereis_pid/1]).

-define(STUB, erlang:nif_error(not_loaded)).
ints() -> ?STUB.
get_ints(_) -> ?STUB.
make_double(_) -> ?STUB.
get_double(_) -> ?STUB.
atoms(_) -> ?STUB.
atom_info(_) -> ?STUB.
get_string(_, _) -> ?STUB.
make_strings() -> ?STUB.
tuples(_) -> ?STUB.
lists(_) -> ?STUB.
make_lists() -> ?STUB.
classify(_) -> ?STUB.
compare(_, _) -> ?STUB.
hash(_, _, _) -> ?STUB.
to_binary(_) -> ?STUB.
from_binary(_, _) -> ?STUB.
pids(_) -> ?STUB.
make_refs() -> ?STUB.
whereis_pid(_) -> ?STUB.

lib() -> filename:join([filename:dirname(code:which(?MODULE)), "nif", "nif_terms"]).

main() ->
    show(before_load, fun() -> ints() end),
    show(load, fun() -> erlang:load_nif(lib(), 0) end),
    integers(),
    floats(),
    atoms_and_strings(),
    tuples_and_lists(),
    types_and_order(),
    processes_and_refs().

integers() ->
    show(ints, fun ints/0),
    show(ints_equal_erlang, fun() ->
        ints() =:= [-(1 bsl 31), (1 bsl 31) - 1, (1 bsl 32) - 1, -(1 bsl 63), (1 bsl 63) - 1,
                    (1 bsl 64) - 1, -(1 bsl 63), (1 bsl 63) - 1, (1 bsl 64) - 1, 0,
                    (1 bsl 59) - 1, 1 bsl 59, -(1 bsl 59), -(1 bsl 59) - 1] end),
    Values = [0, 1, -1, 42, (1 bsl 27) - 1, 1 bsl 27, (1 bsl 31) - 1, 1 bsl 31, -(1 bsl 31),
              -(1 bsl 31) - 1, (1 bsl 32) - 1, 1 bsl 32, (1 bsl 59) - 1, 1 bsl 59, -(1 bsl 59) - 1,
              (1 bsl 63) - 1, 1 bsl 63, -(1 bsl 63), -(1 bsl 63) - 1, (1 bsl 64) - 1, 1 bsl 64,
              -(1 bsl 64), 1 bsl 200, -(1 bsl 200), 1.0, atom, "1"],
    [show({get_ints, V}, fun() -> get_ints(V) end) || V <- Values].

floats() ->
    [show({make_double, W}, fun() -> make_double(W) end) || W <- [tiny, huge, neg_zero, third, inf, nan]],
    [show({get_double, V}, fun() -> get_double(V) end) || V <- [1.5, -0.0, 1.0e300, 3, 1 bsl 70, atom]].

atoms_and_strings() ->
    [show({atoms, N}, fun() -> atoms(N) end)
     || N <- ["ok", "nif_terms", "a_name_no_one_made_before_17", [$a, 16#e5, 16#ff], lists:duplicate(255, $x)]],
    show(existing_after_make, fun() -> atoms("a_name_no_one_made_before_17") end),
    [show({atom_info, A}, fun() -> atom_info(A) end) || A <- [ok, '', 'with space', list_to_atom([16#e5]), "no"]],
    [show({get_string, S, N}, fun() -> get_string(S, N) end)
     || {S, N} <- [{"abc", 10}, {"abc", 4}, {"abc", 3}, {"abc", 1}, {"", 1}, {[16#e5, 255], 8},
                   {[256], 8}, {[$a | b], 8}, {<<"abc">>, 8}, {[-1], 8}, {"abc", 0}]],
    show(make_strings, fun make_strings/0).

tuples_and_lists() ->
    [show({tuples, T}, fun() -> tuples(T) end)
     || T <- [{}, {a}, {1, "two", <<3>>}, list_to_tuple(lists:seq(1, 40)), [a]]],
    [show({lists, L}, fun() -> lists(L) end)
     || L <- [[], [a], [1, 2, 3], [a | b], [1, 2 | c], "text", atom, lists:seq(1, 50)]],
    show(make_lists, fun make_lists/0).

types_and_order() ->
    Self = self(),
    Ref = make_ref(),
    Port = hd(erlang:ports()),
    Samples = [{atom, a}, {small, 1}, {big, 1 bsl 100}, {float, 2.5}, {binary, <<"b">>},
               {bits, <<1:3>>}, {empty, []}, {list, [1]}, {tuple, {1}}, {map, #{a => 1}},
               {pid, Self}, {ref, Ref}, {port, Port}, {'fun', fun lists:sort/1}, {local_fun, fun() -> ok end}],
    [show({classify, Name}, fun() -> classify(V) end) || {Name, V} <- Samples],
    Pairs = [{1, 1}, {1, 1.0}, {1, 2}, {2, 1}, {a, 1}, {a, b}, {"a", <<"a">>}, {{1}, [1]},
             {#{a => 1}, #{a => 2}}, {1 bsl 70, 1 bsl 70}, {1 bsl 70, 1.0e30}, {Self, Self}, {Ref, make_ref()},
             {[], {}}, {<<1:3>>, <<1:3>>}],
    [show({compare, A, B}, fun() -> {compare(A, B), compare(B, A), cmp(A, B)} end) || {A, B} <- Pairs],
    HashTerms = [0, 1, -1, 1 bsl 70, 1.5, a, "abc", <<"abc">>, {a, [b, c]}, #{k => v}, [], <<1:5>>],
    [show({phash2, T}, fun() -> {hash(phash2, T, 0), erlang:phash2(T), hash(phash2, T, 42)} end) || T <- HashTerms],
    show(internal_hash_stable, fun() ->
        [hash(internal, T, 7) =:= hash(internal, copy(T), 7) andalso is_integer(hash(internal, T, 7))
         || T <- HashTerms] end),
    ExtTerms = [a, 1, 1 bsl 70, 1.5, "abc", <<"bin">>, {t, [1 | 2]}, #{m => [1]}],
    [show({to_binary, T}, fun() -> {to_binary(T) =:= term_to_binary(T), from_binary(to_binary(T), safe)} end)
     || T <- ExtTerms],
    show(from_binary_trailing, fun() -> from_binary(<<(term_to_binary(abc))/binary, "tail">>, unsafe) end),
    show(from_binary_bad, fun() -> from_binary(<<131, 255>>, unsafe) end),
    show(from_binary_new_atom_safe, fun() ->
        from_binary(<<131, 119, 9, "zq_unmade">>, safe) end).

processes_and_refs() ->
    [SelfTerm, Got, Alive, UndefIsUndef, SelfIsUndef] = pids(self()),
    show(pids_self, fun() -> {SelfTerm =:= self(), Got, Alive, UndefIsUndef, SelfIsUndef} end),
    Dead = spawn(fun() -> ok end),
    monitor_wait(Dead),
    show(pids_dead, fun() -> tl(pids(Dead)) end),
    show(pids_not_pid, fun() -> tl(pids(atom)) end),
    show(refs, fun() -> {R1, R2} = make_refs(), {is_reference(R1), R1 =:= R2, node(R1) =:= node()} end),
    register(nif_terms_registered, self()),
    show(whereis_registered, fun() -> whereis_pid(nif_terms_registered) =:= self() end),
    show(whereis_unknown, fun() -> whereis_pid(nif_terms_nobody) end).

monitor_wait(Pid) ->
    Ref = monitor(process, Pid),
    receive {'DOWN', Ref, process, Pid, _} -> ok end.

cmp(A, B) when A < B -> -1;
cmp(A, B) when A > B -> 1;
cmp(_, _) -> 0.

%% A copy that does not share memory with T (the message goes through the copier).
copy(T) -> binary_to_term(term_to_binary(T)).

show(Label, Fun) ->
    Result = try Fun() catch Class:Reason -> {Class, Reason} end,
    io:format("~p: ~p~n", [printable(Label), printable(Result)]).

%% Pids, references, ports and funs differ from run to run and VM to VM: printed by kind only.
printable(T) when is_pid(T) -> '<pid>';
printable(T) when is_reference(T) -> '<ref>';
printable(T) when is_port(T) -> '<port>';
printable(T) when is_function(T) -> '<fun>';
printable(T) when is_tuple(T) -> list_to_tuple(printable(tuple_to_list(T)));
printable([H | T]) -> [printable(H) | printable(T)];
printable(T) when is_map(T) -> maps:from_list(printable(maps:to_list(T)));
printable(T) -> T.
