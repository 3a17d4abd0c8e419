%% ETS ownership: access rights (public/protected/private) from another process, give_away,
%% heir on owner death (messages as erl sends them), deletion when the owner dies, and
%% concurrent use of one table from several processes.
-module(ets_owner).
-export([main/0]).

show(Label, V) -> io:format("~s: ~p~n", [Label, V]).
try_(F) -> try F() catch C:R -> {C, R} end.

in_other(F) ->
    Self = self(),
    {Pid, Ref} = spawn_monitor(fun() -> Self ! {self(), F()} end),
    receive {Pid, V} -> receive {'DOWN', Ref, _, _, _} -> V end end.

main() ->
    access(),
    give_away(),
    heir(),
    owner_death(),
    concurrent(),
    ok.

access() ->
    [begin
         T = ets:new(a, [Prot]),
         ets:insert(T, {k, 1}),
         show("other read", {Prot, in_other(fun() -> try_(fun() -> ets:lookup(T, k) end) end)}),
         show("other write", {Prot, in_other(fun() -> try_(fun() -> ets:insert(T, {k, 2}) end) end)}),
         show("other info", {Prot, in_other(fun() -> ets:info(T, size) end)}),
         show("other delete", {Prot, in_other(fun() -> try_(fun() -> ets:delete(T) end) end)}),
         show("other give_away", {Prot, in_other(fun() -> try_(fun() -> ets:give_away(T, self(), x) end) end)}),
         show("other setopts", {Prot, in_other(fun() -> try_(fun() -> ets:setopts(T, {protection, public}) end) end)}),
         show("alive", ets:info(T, size)),
         catch ets:delete(T)
     end || Prot <- [public, protected, private]].

give_away() ->
    T = ets:new(g, [named_table]),
    ets:insert(T, {k, v}),
    Self = self(),
    P = spawn(fun() ->
                      receive
                          {'ETS-TRANSFER', Tab, From, Data} ->
                              Self ! {got, Tab, From =:= Self, Data, ets:info(Tab, owner) =:= self(),
                                      ets:lookup(Tab, k)},
                              receive stop -> ok end
                      end
              end),
    show("give_away", ets:give_away(T, P, hello)),
    receive {got, _, _, _, _, _} = M -> show("transfer", M) end,
    show("owner now", ets:info(T, owner) =:= P),
    show("give again", try_(fun() -> ets:give_away(T, P, x) end)),
    U = ets:new(u, []),
    show("to self", try_(fun() -> ets:give_away(U, self(), x) end)),
    Dead = spawn(fun() -> ok end),
    Ref = monitor(process, Dead),
    receive {'DOWN', Ref, _, _, _} -> ok end,
    show("to dead", try_(fun() -> ets:give_away(U, Dead, x) end)),
    show("to non-pid", try_(fun() -> ets:give_away(U, foo, x) end)),
    U2 = ets:new(u2, []),
    P2 = spawn(fun() -> receive {'ETS-TRANSFER', Tab, _, _} -> Self ! {ref, is_reference(Tab), Tab =:= U2} end end),
    ets:give_away(U2, P2, []),
    receive {ref, _, _} = M2 -> show("unnamed transfer", M2) end,
    P ! stop,
    ets:delete(U).

heir() ->
    Self = self(),
    P = spawn(fun() ->
                      T = ets:new(h, [named_table, {heir, Self, {my, data}}]),
                      ets:insert(T, {x, 1}),
                      Self ! ready,
                      receive die -> exit(normal) end
              end),
    receive ready -> ok end,
    P ! die,
    receive {'ETS-TRANSFER', Tab, From, Data} -> show("heir got", {Tab, From =:= P, Data}) end,
    show("heir owns", ets:info(h, owner) =:= self()),
    show("heir data", ets:lookup(h, x)),
    show("heir after", ets:info(h, heir) =:= self()),
    ets:delete(h),
    %% the heir is dead: the table goes with its owner
    Heir = spawn(fun() -> ok end),
    R = monitor(process, Heir),
    receive {'DOWN', R, _, _, _} -> ok end,
    P2 = spawn(fun() ->
                       ets:new(h2, [named_table, {heir, Heir, x}]),
                       Self ! ready,
                       receive die -> ok end
               end),
    receive ready -> ok end,
    R2 = monitor(process, P2),
    P2 ! die,
    receive {'DOWN', R2, _, _, _} -> ok end,
    show("dead heir", ets:info(h2)),
    %% heir set by setopts, owner crashes
    P3 = spawn(fun() ->
                       T = ets:new(h3, []),
                       ets:setopts(T, {heir, Self, later}),
                       Self ! {tab, T},
                       receive die -> exit(crash) end
               end),
    T3 = receive {tab, X} -> X end,
    P3 ! die,
    receive {'ETS-TRANSFER', T3b, _, D3} -> show("setopts heir", {T3b =:= T3, D3, ets:info(T3, size)}) end,
    ets:delete(T3).

owner_death() ->
    Self = self(),
    P = spawn(fun() ->
                      T = ets:new(d, [public]),
                      N = ets:new(dn, [named_table, public]),
                      ets:insert(T, {a, 1}),
                      Self ! {tabs, T, N},
                      receive die -> ok end
              end),
    {T, N} = receive {tabs, A, B} -> {A, B} end,
    show("before", {ets:lookup(T, a), ets:info(N, size)}),
    R = monitor(process, P),
    P ! die,
    receive {'DOWN', R, _, _, _} -> ok end,
    show("after info", {ets:info(T), ets:info(dn)}),
    show("after lookup", try_(fun() -> ets:lookup(T, a) end)),
    show("after named", try_(fun() -> ets:insert(dn, {a}) end)),
    show("name free", is_atom(ets:new(dn, [named_table]))),
    ets:delete(dn).

concurrent() ->
    [begin
         T = ets:new(c, [Type, public, {write_concurrency, true}, {read_concurrency, true}]),
         ets:insert(T, {counter, 0}),
         Self = self(),
         Pids = [spawn(fun() ->
                               [begin
                                    ets:insert(T, {{I, N}, N}),
                                    ets:update_counter(T, counter, 1),
                                    [{_, N}] = ets:lookup(T, {I, N})
                                end || N <- lists:seq(1, 300)],
                               _ = ets:select(T, [{{{I, '$1'}, '_'}, [], ['$1']}]),
                               Self ! {done, self()}
                       end) || I <- lists:seq(1, 6)],
         [receive {done, P} -> ok end || P <- Pids],
         show("concurrent", {Type, ets:info(T, size), ets:lookup(T, counter),
                             ets:select_count(T, [{{{'_', '_'}, '_'}, [], [true]}])}),
         ets:delete(T)
     end || Type <- [set, ordered_set]].
