%% Full-sweep collections of a large live heap: a process holding a gb_tree of 300,000 keys and
%% a list of 300,000 small records (5.1 M words, 41 MB) calls erlang:garbage_collect/0 100
%% times. What counts is the copy itself and the to-space's pages: the heap is larger than the
%% VM's block cache, so each collection needs a block the size of the live data.
-module(gc_sweep).
-export([main/0, quick/0]).

main() -> run(300000, 100).
quick() -> run(30000, 20).

run(N, Times) ->
    Tree = build(gb_trees:empty(), N),
    Records = [{I, [I, I + 1], float(I)} || I <- lists:seq(1, N)],
    lists:foreach(fun(_) -> erlang:garbage_collect() end, lists:seq(1, Times)),
    erlang:display({gc_sweep, N, Times, gb_trees:size(Tree), length(Records),
                    erlang:phash2(gb_trees:smallest(Tree)), erlang:phash2(lists:last(Records))}).

build(T, 0) -> T;
build(T, N) -> build(gb_trees:enter((N * 7919) rem 1000003, N, T), N - 1).
