%% Real workload (issue 29): a message pipeline, a chain of Stages processes each receiving a
%% message, transforming it and sending it on, Messages messages in flight at once (the sender
%% does not wait), the last stage folding them into a checksum. With +S 2 neighbouring stages
%% sit on different schedulers, so a message crosses schedulers at each hop. Messages between
%% two processes keep their order, so the checksum is the same on every VM and schedule.
-module(real_pipeline).
-export([main/0, quick/0]).

main() -> run(40, 50000).

quick() -> run(10, 5000).

run(Stages, Messages) ->
    Self = self(),
    Sink = spawn_link(fun() -> sink(Self, Messages, 0) end),
    First = lists:foldl(fun(N, Next) -> spawn_link(fun() -> stage(N, Next) end) end,
                        Sink, lists:seq(1, Stages)),
    [First ! {msg, I, [I]} || I <- lists:seq(1, Messages)],
    receive {sum, Sum} -> ok end,
    io:format("real_pipeline: ~p stages x ~p messages: checksum ~p~n", [Stages, Messages, Sum]).

stage(N, Next) ->
    receive
        {msg, I, Path} ->
            Next ! {msg, (I * 31 + N) rem 1000003, [N | lists:sublist(Path, 3)]},
            stage(N, Next)
    end.

sink(Parent, 0, Acc) -> Parent ! {sum, Acc};
sink(Parent, Left, Acc) ->
    receive {msg, I, Path} -> sink(Parent, Left - 1, erlang:phash2({Acc, I, Path})) end.
