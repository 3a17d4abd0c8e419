%% crypto's random numbers: strong_rand_bytes/1 sizes and errors, rand_seed/1, rand_uniform/2
%% ranges, and rand's crypto plugins (rand:seed(crypto), crypto:rand_seed/0, crypto_cache).
%% Random values themselves are never printed: only sizes, types and range checks.
-module(crypto_rand).
-export([main/0]).
-compile(nowarn_deprecated_function).

main() ->
    rand_bytes(),
    uniform(),
    plugins(),
    ok.

show(Label, F) ->
    R = try F() of V -> {ok, V} catch C:E -> {C, E} end,
    io:format("~s: ~w~n", [Label, R]).

rand_bytes() ->
    [show(io_lib:format("strong_rand_bytes(~w) size", [N]), fun() -> byte_size(crypto:strong_rand_bytes(N)) end)
     || N <- [0, 1, 16, 64, 65, 1000, 100000]],
    [show(io_lib:format("strong_rand_bytes(~w)", [N]), fun() -> crypto:strong_rand_bytes(N) end)
     || N <- [-1, foo, 1.0, 1 bsl 64, [1]]],
    show("two draws differ", fun() -> crypto:strong_rand_bytes(32) =/= crypto:strong_rand_bytes(32) end),
    show("rand_seed binary", fun() -> crypto:rand_seed(<<"some entropy">>) end),
    show("rand_seed list", fun() -> crypto:rand_seed("some entropy") end),
    ok.

uniform() ->
    [show(io_lib:format("rand_uniform(~w, ~w) in range", [Lo, Hi]), fun() ->
         lists:all(fun(_) -> X = crypto:rand_uniform(Lo, Hi), is_integer(X) andalso X >= Lo andalso X < Hi end,
                   lists:seq(1, 200))
     end) || {Lo, Hi} <- [{0, 2}, {1, 10}, {-5, 5}, {-100, -90}, {0, 1 bsl 100}, {1 bsl 64, 1 bsl 65}]],
    [show(io_lib:format("rand_uniform(~w, ~w)", [Lo, Hi]), fun() -> crypto:rand_uniform(Lo, Hi) end)
     || {Lo, Hi} <- [{10, 1}, {5, 5}, {a, 1}, {1.0, 2.0}]],
    show("rand_uniform covers the range", fun() ->
        lists:usort([crypto:rand_uniform(0, 4) || _ <- lists:seq(1, 400)])
    end),
    ok.

plugins() ->
    show("rand:seed(crypto) is no algorithm", fun() -> rand:seed(crypto) end),
    %% From here on the process's rand state is crypto's plugin.
    show("crypto:rand_seed/0 type", fun() -> {#{type := T}, _} = crypto:rand_seed(), T end),
    show("crypto uniform/0", fun() ->
        lists:all(fun(_) -> F = rand:uniform(), is_float(F) andalso F >= 0.0 andalso F < 1.0 end, lists:seq(1, 200))
    end),
    show("crypto uniform/1", fun() ->
        lists:usort([rand:uniform(3) || _ <- lists:seq(1, 300)])
    end),
    show("crypto uniform/1 big", fun() ->
        lists:all(fun(_) -> X = rand:uniform(1 bsl 80), X >= 1 andalso X =< 1 bsl 80 end, lists:seq(1, 100))
    end),
    show("crypto:rand_seed_s/0 type", fun() -> {#{type := T}, _} = crypto:rand_seed_s(), T end),
    show("crypto_cache", fun() ->
        S0 = crypto:rand_seed_alg_s(crypto_cache),
        {Xs, _} = lists:foldl(fun(_, {Acc, S}) -> {X, S1} = rand:uniform_s(10, S), {[X | Acc], S1} end,
                              {[], S0}, lists:seq(1, 500)),
        lists:usort(Xs)
    end),
    show("bytes_to_integer of a draw", fun() ->
        is_integer(crypto:bytes_to_integer(crypto:strong_rand_bytes(8)))
    end),
    ok.
