%% Limits as erl answers them (tests/limits/run.sh runs each case on erl and on beamvm and
%% compares what they print, their exit status and the slogan of any crash dump).
%%   VM -noshell -pa EBIN -run limits main CASE
-module(limits).
-export([main/1]).

main([Case]) ->
    io:format("~0P~n", [catch run(list_to_atom(Case)), 8]),
    timer:sleep(100),  % let logger print a report the case caused
    halt().

%% System limits raised as errors.
run(tuple_arity) -> erlang:make_tuple(16777216, a);
run(tuple_arity_max) -> tuple_size(erlang:make_tuple(16777215, a));
run(append_element) -> erlang:append_element(erlang:make_tuple(16777215, a), b);
run(tuple_huge) -> erlang:make_tuple(1 bsl 40, a);
run(shift) -> 1 bsl (1 bsl 40);
run(bignum_shift) -> 1 bsl 67108864;
run(bignum_mul) -> (1 bsl 67108863) * 2;
run(atom_length) -> list_to_atom(lists:duplicate(256, $a));
run(atom_length_ok) -> byte_size(atom_to_binary(list_to_atom(lists:duplicate(255, 16#1F600))));
run(bin_size_bits) -> <<0:(1 bsl 62)>>;
run(b2t_bad_length) -> binary_to_term(<<131, 108, 255, 255, 255, 255, 106>>);
run(setelement) -> setelement(1 bsl 30, {a}, b);
run(binary_4gb) -> byte_size(binary:copy(<<1>>, 1 bsl 32));
run(wide_zero_field) -> bit_size(<<0:(1 bsl 31)>>);
run(wide_neg_field) -> binary_to_list(<<-1:100/little, -2:100>>);
run(deep_recursion) -> depth(10000000);
run(deep_nesting) -> binary_to_term(term_to_binary(nest(1000000))) =:= nest(1000000);
%% Process table full (run with +P 1024): spawn raises system_limit, erts reports it.
run(processes) ->
    Ps = spawn_until_limit([]),
    R = (catch spawn(fun() -> ok end)),
    [exit(P, kill) || P <- Ps],
    {length(Ps) > 900, element(1, element(2, R))};
%% max_heap_size: killed, with erts' report through logger.
run(max_heap) ->
    {_, Ref} = spawn_opt(fun() -> grow([]) end, [monitor, {max_heap_size, 100000}]),
    receive {'DOWN', Ref, process, _, Why} -> Why end;
run(max_heap_quiet) ->
    {_, Ref} = spawn_opt(fun() -> grow([]) end,
                         [monitor, {max_heap_size, #{size => 100000, error_logger => false}}]),
    receive {'DOWN', Ref, process, _, Why} -> Why end;
%% These end the VM on erl: message, crash dump, exit status 1.
run(atom_table_full) -> [list_to_atom("a" ++ integer_to_list(I)) || I <- lists:seq(1, 20000)];
run(binary_alloc) -> binary:copy(<<1, 2, 3, 4>>, 1 bsl 60);
run(binary_alloc_huge) -> binary:copy(<<1>>, 1 bsl 45).

spawn_until_limit(Acc) ->
    case catch spawn(fun() -> receive _ -> ok end end) of
        P when is_pid(P) -> spawn_until_limit([P | Acc]);
        _ -> Acc
    end.

depth(0) -> 0;
depth(N) -> 1 + depth(N - 1).
nest(0) -> [];
nest(N) -> [nest(N - 1)].
grow(L) -> grow([1 | L]).
