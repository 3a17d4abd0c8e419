%% ETS under concurrent use: writers inserting, updating and deleting while readers look up,
%% walk a fixed table with first/next, run chunked selects and take tab2list, on every table
%% type; then a table deleted while others use it, and an owner dying mid-use. Prints only
%% invariants that hold whatever the interleaving.
-module(ets_concurrent).
-export([main/0]).

main() ->
    [mixed(Type) || Type <- [set, ordered_set, bag, duplicate_bag]],
    delete_while_used(),
    ok.

walk(_, '$end_of_table', N) -> N;
walk(T, K, N) -> walk(T, ets:next(T, K), N + 1).

chunks(T) -> chunks(ets:select(T, [{{'$1', '_'}, [], ['$1']}], 50), 0).
chunks('$end_of_table', N) -> N;
chunks({L, C}, N) -> chunks(ets:select(C), N + length(L)).

mixed(Type) ->
    T = ets:new(m, [Type, public, {write_concurrency, true}, {read_concurrency, true}]),
    ets:insert(T, [{K, 0} || K <- lists:seq(1, 2000)]),
    Self = self(),
    Writer = fun(I) ->
                     fun() ->
                             [begin
                                  K = (N * 31 + I) rem 3000 + 1,
                                  case N rem 3 of
                                      0 -> ets:insert(T, {K, I});
                                      1 -> ets:delete(T, K);
                                      2 -> ets:insert(T, [{K + 5000, N}, {K + 6000, N}])
                                  end
                              end || N <- lists:seq(1, 3000)],
                             Self ! {done, self(), ok}
                     end
             end,
    Reader = fun() ->
                     R = [begin
                              ets:safe_fixtable(T, true),
                              W = walk(T, ets:first(T), 0),
                              ets:safe_fixtable(T, false),
                              C = chunks(T),
                              L = length(ets:tab2list(T)),
                              _ = ets:lookup(T, 7),
                              _ = ets:member(T, 8),
                              is_integer(W) andalso is_integer(C) andalso is_integer(L)
                          end || _ <- lists:seq(1, 15)],
                     Self ! {done, self(), lists:all(fun(X) -> X end, R)}
             end,
    Pids = [spawn(Writer(I)) || I <- lists:seq(1, 3)] ++ [spawn(Reader) || _ <- lists:seq(1, 3)],
    Results = [receive {done, P, V} -> V end || P <- Pids],
    Size = ets:info(T, size),
    io:format("~p: all done ~p, size consistent ~p, fixed ~p~n",
              [Type, lists:all(fun(X) -> X =:= ok orelse X =:= true end, Results),
               Size =:= length(ets:tab2list(T)), ets:info(T, fixed)]),
    ets:delete(T).

delete_while_used() ->
    T = ets:new(d, [set, public]),
    ets:insert(T, [{K, K} || K <- lists:seq(1, 1000)]),
    Self = self(),
    Users = [spawn(fun() -> Self ! {user, self(), use(T, 0)} end) || _ <- lists:seq(1, 3)],
    receive after 5 -> ok end,
    ets:delete(T),
    Ends = [receive {user, P, R} -> R end || P <- Users],
    io:format("users stopped with badarg ~p, info ~p~n", [lists:all(fun(E) -> E =:= badarg end, Ends), ets:info(T)]),
    %% an owner that dies while others use its table
    Owner = spawn(fun() ->
                          O = ets:new(o, [public]),
                          ets:insert(O, [{K, K} || K <- lists:seq(1, 1000)]),
                          Self ! {tab, O},
                          receive die -> ok end
                  end),
    O = receive {tab, X} -> X end,
    Users2 = [spawn(fun() -> Self ! {user, self(), use(O, 0)} end) || _ <- lists:seq(1, 3)],
    Owner ! die,
    Ends2 = [receive {user, P, R} -> R end || P <- Users2],
    io:format("owner died: users stopped with badarg ~p, info ~p~n",
              [lists:all(fun(E) -> E =:= badarg end, Ends2), ets:info(O)]).

use(T, N) ->
    try
        _ = ets:lookup(T, N rem 1000 + 1),
        ets:insert(T, {N rem 1000 + 1, N}),
        _ = ets:select_count(T, [{{'_', '$1'}, [{'>', '$1', 500}], [true]}]),
        use(T, N + 1)
    catch error:badarg -> badarg
    end.
