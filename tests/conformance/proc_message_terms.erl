%% Every kind of term travels as a message and arrives equal: taken onto the receiver's heap
%% when it fits there, kept as a fragment when it does not (a batch of many messages taken
%% in at once fills a small heap), and copied through GCs afterwards.
-module(proc_message_terms).
-export([main/0]).

terms() ->
    Bin = list_to_binary(lists:seq(1, 200)),
    <<_:3/binary, Sub:50/binary, _/binary>> = Bin,
    Bits = <<Bin/binary, 5:3>>,
    Big = 1 bsl 200 + 12345,
    Fun = fun(X) -> {X, Big, Sub} end,
    Ref = make_ref(),
    Map = maps:from_list([{I, {I, float(I)}} || I <- lists:seq(1, 40)]),
    [0, -1, 1 bsl 59, -(1 bsl 59), Big, -Big, 3.25, -0.0, atom, "", "string",
     [1 | 2], [a, [b, [c | d]], {e}], {}, {1, {2, {3, {4}}}}, <<>>, <<1, 2, 3>>, Bin, Sub,
     Bits, <<7:5>>, #{}, #{a => 1, b => [x]}, Map, #{Map => Map}, Fun, fun lists:map/2,
     self(), Ref, {Ref, self(), [Ref]}, lists:seq(1, 300), list_to_tuple(lists:seq(1, 100)),
     deep(200), {Bin, Bin, Sub, Sub}].

deep(0) -> leaf;
deep(N) -> [N, {deep(N - 1)}].

echo(Parent) ->
    receive
        go -> ok
    end,
    Got = collect([]),
    erlang:garbage_collect(),
    Parent ! {got, Got}.

collect(Acc) ->
    receive
        {m, T} -> collect([T | Acc]);
        done -> lists:reverse(Acc)
    end.

check(Name, Sent, Got) ->
    Same = length(Sent) =:= length(Got) andalso lists:all(fun({A, B}) -> A =:= B end, lists:zip(Sent, Got)),
    io:format("~p: ~p messages, equal: ~p~n", [Name, length(Got), Same]),
    [io:format("  ~P~n", [T, 12]) || {T, G} <- lists:zip(Sent, Got), T =/= G].

main() ->
    Terms = terms(),
    %% One at a time: each message taken in as it comes.
    P1 = spawn(fun() -> echo_each(self_parent()) end),
    P1 ! {parent, self()},
    Got1 = [begin P1 ! {m, T}, receive {back, B} -> B end end || T <- Terms],
    check(one_at_a_time, Terms, Got1),
    %% The closure that came back still runs, with its environment.
    [{Sent, Back}] = [{S, B} || {S, B} <- lists:zip(Terms, Got1), is_function(S, 1)],
    io:format("fun applied: ~p~n", [Back(7) =:= Sent(7)]),
    %% A batch: many messages queued before the receiver takes any.
    Many = lists:append(lists:duplicate(20, Terms)),
    P2 = spawn(fun() -> echo(receive {parent, Pa} -> Pa end) end),
    P2 ! {parent, self()},
    [P2 ! {m, T} || T <- Many],
    P2 ! done,
    P2 ! go,
    Got2 = receive {got, G} -> G end,
    check(batch, Many, Got2),
    %% The echo of the batch went through the receiver's GC: the terms are still whole.
    io:format("sizes: ~p~n", [lists:sum([erlang:external_size(T) || T <- Got2])]).

self_parent() -> receive {parent, P} -> P end.

echo_each(Parent) ->
    receive
        {m, T} -> Parent ! {back, T}, echo_each(Parent)
    end.
