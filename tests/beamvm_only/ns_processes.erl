%% Processes and namespaces: children inherit their parent's namespace, registered names are
%% per namespace (falling back to the root's), and the root is the namespace of the command
%% line's process.
-module(ns_processes).
-export([main/0, report_family/1, wait_stop/0]).

main() ->
    A = beamvm:namespace_new(a),
    B = beamvm:namespace_new(b),
    Root = beamvm:namespace_of(self()),
    ns_check:run([
        {"the root is the namespace of the command line's process and of what it spawns",
         fun() ->
             P = spawn(fun wait_stop/0),
             R = beamvm:namespace_of(P),
             P ! stop,
             ns_check:equal({Root, false, false}, {R, Root =:= A, A =:= B})
         end},
        {"namespace_new/0 makes a new namespace each time",
         fun() -> ns_check:equal(false, beamvm:namespace_new() =:= beamvm:namespace_new()) end},
        {"namespace_spawn runs the process in the namespace",
         fun() -> ns_check:equal({ok, A}, ns_check:in(A, fun() -> beamvm:namespace_of(self()) end)) end},
        {"every way of spawning inherits the parent's namespace, down to grandchildren",
         fun() ->
             {ok, Family} = ns_check:in(A, fun() -> ns_processes:report_family(self()) end),
             ns_check:equal(lists:duplicate(length(Family), A), Family)
         end},
        {"namespace_spawn_link links the caller to the new process",
         fun() ->
             process_flag(trap_exit, true),
             P = beamvm:namespace_spawn_link(B, erlang, exit, [bye]),
             R = receive {'EXIT', P, Why} -> Why after 5000 -> timeout end,
             process_flag(trap_exit, false),
             ns_check:equal(bye, R)
         end},
        {"the same name is registered in several namespaces at once",
         fun() ->
             [PR, PA, PB] = [spawn_in(Ns) || Ns <- [Root, A, B]],
             true = register(srv, PR),
             {ok, true} = ns_check:in(A, fun() -> register(srv, PA) end),
             {ok, true} = ns_check:in(B, fun() -> register(srv, PB) end),
             Where = fun() -> whereis(srv) end,
             put(procs, [PR, PA, PB]),
             ns_check:equal({PR, {ok, PA}, {ok, PB}}, {whereis(srv), ns_check:in(A, Where), ns_check:in(B, Where)})
         end},
        {"a name taken in one namespace is free in another, and taken again in the same one",
         fun() ->
             [_, _, _] = get(procs),
             ns_check:equal({error, badarg}, ns_check:in(A, fun() -> register(srv, self()) end))
         end},
        {"a name not registered in a namespace is the root's",
         fun() ->
             User = whereis(user),
             ns_check:equal({{ok, User}, {ok, User}}, {ns_check:in(A, fun() -> whereis(user) end),
                                                       ns_check:in(B, fun() -> whereis(user) end)})
         end},
        {"io:format from a namespace reaches the root's I/O server",
         fun() -> ns_check:equal({ok, ok}, ns_check:in(A, fun() -> io:format("printed from a~n") end)) end},
        {"a name registered in a namespace is invisible from the root and from other namespaces",
         fun() ->
             PA = spawn_in(A),
             put(procs, get(procs) ++ [PA]),
             {ok, true} = ns_check:in(A, fun() -> register(a_only, PA) end),
             ns_check:equal({undefined, {ok, undefined}, {ok, PA}, {error, badarg}},
                            {whereis(a_only), ns_check:in(B, fun() -> whereis(a_only) end),
                             ns_check:in(A, fun() -> whereis(a_only) end),
                             ns_check:in(B, fun() -> a_only ! hello end)})
         end},
        {"registered/0 lists the names of the caller's namespace only",
         fun() ->
             {ok, InA} = ns_check:in(A, fun() -> registered() end),
             ns_check:equal({[a_only, srv], true, false},
                            {lists:sort(InA), lists:member(user, registered()), lists:member(a_only, registered())})
         end},
        {"a process can only be registered in its own namespace",
         fun() ->
             [_, PA | _] = get(procs),
             ns_check:equal({badarg, {error, badarg}},
                            {try register(stolen, PA) catch error:E -> E end,
                             ns_check:in(A, fun() -> register(stolen, self()), register(stolen2, whereis(user)) end)})
         end},
        {"unregister in a namespace leaves the other namespaces' names",
         fun() ->
             [PR, _, PB | _] = get(procs),
             {ok, true} = ns_check:in(A, fun() -> unregister(srv) end),
             ns_check:equal({{ok, PR}, PR, {ok, PB}},
                            {ns_check:in(A, fun() -> whereis(srv) end), whereis(srv),
                             ns_check:in(B, fun() -> whereis(srv) end)})
         end},
        {"send_after to a name looks it up in the sender's namespace",
         fun() ->
             [_, _, PB | _] = get(procs),
             Self = self(),
             PB ! {forward_to, Self},
             {ok, _} = ns_check:in(B, fun() -> erlang:send_after(1, srv, {timer, beamvm:namespace_of(self())}) end),
             R = receive {forwarded, M} -> M after 5000 -> timeout end,
             [P ! stop || P <- get(procs)],
             ns_check:equal({timer, B}, R)
         end}
    ]).

%% A process that forwards one message to whoever asks, then stops on `stop`.
spawn_in(Ns) -> beamvm:namespace_spawn(Ns, ns_processes, wait_stop, []).
wait_stop() ->
    receive
        stop -> ok;
        {forward_to, To} -> receive M -> To ! {forwarded, M} end, wait_stop()
    end.

%% The namespaces of children started every way spawn can, and of a grandchild.
report_family(Parent) ->
    Self = self(),
    Tell = fun() -> Self ! {ns, beamvm:namespace_of(self())} end,
    spawn(Tell),
    spawn(erlang, apply, [Tell, []]),
    spawn_link(Tell),
    spawn_opt(Tell, [{priority, low}]),
    spawn_monitor(Tell),
    spawn(fun() -> spawn(Tell) end),
    Ns = [receive {ns, N} -> N after 5000 -> timeout end || _ <- lists:seq(1, 6)],
    Parent =:= Self orelse error(unexpected),
    Ns.
