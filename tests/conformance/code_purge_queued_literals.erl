%% Purging a module whose literals sit in a long message queue, as OTP's
%% code_SUITE:t_copy_literals_frags does: 200,000 queued messages (a heap fragment each)
%% hold literals of the old version when it is purged. erlang:check_process_code/2 and
%% the purge look at every one; the literals must survive (copied onto the receiver's heap)
%% and each look must cost the queue's size, not its size times the number of fragments.
-module(code_purge_queued_literals).
-export([main/0]).

-define(M, code_purge_queued_literals_mod).

module(Vsn) ->
    Forms = [{attribute, 1, module, ?M}, {attribute, 2, export, [{lit, 0}]},
             {function, 3, lit, 0,
              [{clause, 3, [], [],
                [{tuple, 3, [{integer, 3, Vsn}, {string, 3, "a literal string"},
                             {bin, 3, [{bin_element, 3, {string, 3, "and a binary"}, default, default}]},
                             {cons, 3, {float, 3, 1.5}, {nil, 3}}]}]}]}],
    {ok, ?M, Beam} = compile:forms(Forms, []),
    Beam.

main() ->
    {module, ?M} = code:load_binary(?M, "m.erl", module(1)),
    Self = self(),
    Receiver = spawn(fun() -> receive go -> Self ! {self(), drain(0, 0)} end end),
    Senders = [spawn(fun() ->
                         [Receiver ! {msg, ?M:lit()} || _ <- lists:seq(1, 4000)],
                         Self ! {self(), sent}
                     end) || _ <- lists:seq(1, 50)],
    [receive {S, sent} -> ok end || S <- Senders],
    {message_queue_len, Queued} = process_info(Receiver, message_queue_len),
    io:format("queued: ~p~n", [Queued]),
    {module, ?M} = code:load_binary(?M, "m.erl", module(2)),
    io:format("receiver runs the old code: ~p~n", [erlang:check_process_code(Receiver, ?M)]),
    io:format("purge: ~p~n", [code:purge(?M)]),
    io:format("new version: ~p~n", [element(1, ?M:lit())]),
    Receiver ! go,
    receive {Receiver, Counts} -> io:format("intact, other: ~p~n", [Counts]) end,
    ok.

drain(Same, Other) ->
    receive
        {msg, {1, "a literal string", <<"and a binary">>, [1.5]}} -> drain(Same + 1, Other);
        {msg, _} -> drain(Same, Other + 1)
    after 0 -> {Same, Other}
    end.
