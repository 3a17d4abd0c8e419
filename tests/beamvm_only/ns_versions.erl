%% Two namespaces running different versions of one module at the same time, each reloaded,
%% purged and deleted on its own while the root keeps the code path's version.
-module(ns_versions).
-export([main/0]).

main() ->
    A = beamvm:namespace_new(a),
    B = beamvm:namespace_new(b),
    [V1, V2, V3] = [ns_fixtures:beam(T) || T <- [v1, v2, v3]],
    Version = fun(Ns) -> ns_check:call(Ns, nsmod, version, []) end,
    Srv = fun(Name) -> get(Name) end,
    ns_check:run([
        {"root runs the code path's version", fun() -> ns_check:equal(0, nsmod:version()) end},
        {"a new namespace sees the root's version",
         fun() -> ns_check:equal({{ok, 0}, {ok, 0}}, {Version(A), Version(B)}) end},
        {"namespace_load into a and b",
         fun() ->
             ns_check:equal({{module, nsmod}, {module, nsmod}},
                            {beamvm:namespace_load(A, nsmod, V1), beamvm:namespace_load(B, nsmod, V2)})
         end},
        {"a runs v1, b runs v2, the root still v0",
         fun() ->
             ns_check:equal({{ok, 1}, {ok, 2}, 0}, {Version(A), Version(B), nsmod:version()})
         end},
        {"a static call in the root's code run by a process of a reaches a's version",
         fun() ->
             ns_check:equal({{ok, 1}, {ok, 2}}, {ns_check:in(A, fun() -> nsmod:version() end),
                                                 ns_check:in(B, fun() -> nsmod:version() end)})
         end},
        {"an export fun is resolved in the namespace of the process that calls it",
         fun() ->
             F = fun nsmod:version/0,
             G = erlang:make_fun(list_to_atom("nsmod"), version, 0),
             ns_check:equal({{ok, 1}, {ok, 2}, 0, {ok, 1}, 0},
                            {ns_check:in(A, F), ns_check:in(B, F), F(), ns_check:in(A, G), G()})
         end},
        {"namespace_modules lists a namespace's own modules",
         fun() ->
             Root = beamvm:namespace_of(self()),
             ns_check:equal({[nsmod], [nsmod], true},
                            {beamvm:namespace_modules(A), beamvm:namespace_modules(B),
                             lists:member(nsmod, beamvm:namespace_modules(Root))})
         end},
        {"servers of both namespaces run at the same time",
         fun() ->
             {ok, PA} = ns_check:call(A, nsmod, server, []),
             {ok, PB} = ns_check:call(B, nsmod, server, []),
             put(a, PA), put(b, PB),
             ns_check:equal({{1, 1}, {2, 2}, {1, 1}, {2, 2}, A, B},
                            {which(PA), which(PB), which(PA), which(PB),
                             beamvm:namespace_of(PA), beamvm:namespace_of(PB)})
         end},
        {"reloading a leaves b alone; a's server moves to the new code at its next qualified call",
         fun() ->
             {module, nsmod} = beamvm:namespace_load(A, nsmod, V2),
             ns_check:equal({{2, 2}, {1, 2}, {2, 2}, {ok, 2}, 0},
                            {which(Srv(b)), which(Srv(a)), which(Srv(a)), Version(A), nsmod:version()})
         end},
        {"reloading b leaves a alone",
         fun() ->
             {module, nsmod} = beamvm:namespace_load(B, nsmod, V3),
             ns_check:equal({{2, 2}, {2, 3}, {3, 3}}, {which(Srv(a)), which(Srv(b)), which(Srv(b))})
         end},
        {"a third load before purging is refused, per namespace",
         fun() ->
             ns_check:equal({{error, not_purged}, {error, not_purged}},
                            {beamvm:namespace_load(A, nsmod, V3), beamvm:namespace_load(B, nsmod, V1)})
         end},
        {"namespace_purge purges one namespace's old code",
         fun() ->
             ns_check:equal({true, false, {module, nsmod}, {error, not_purged}, {ok, 3}},
                            {beamvm:namespace_purge(A, nsmod), beamvm:namespace_purge(A, nsmod),
                             beamvm:namespace_load(A, nsmod, V3), beamvm:namespace_load(B, nsmod, V1),
                             Version(A)})
         end},
        {"a's server moves to v3; then a's old code is purged",
         fun() ->
             ns_check:equal({{2, 3}, {3, 3}, {3, 3}, true},
                            {which(Srv(a)), which(Srv(a)), which(Srv(b)), beamvm:namespace_purge(A, nsmod)})
         end},
        {"a function the new version does not export is undefined there",
         fun() ->
             C = beamvm:namespace_new(c),
             {module, nsmod} = beamvm:namespace_load(C, nsmod, V1),
             R1 = ns_check:call(C, nsmod, only_v1, []),
             {module, nsmod} = beamvm:namespace_load(C, nsmod, V2),
             ns_check:equal({{ok, v1}, {error, undef}, {error, undef}, {error, undef}},
                            {R1, ns_check:call(C, nsmod, only_v1, []), ns_check:call(A, nsmod, only_v1, []),
                             ns_check:call(beamvm:namespace_of(self()), nsmod, only_v1, [])})
         end},
        {"namespace_delete_module: the namespace falls back to the root's version",
         fun() ->
             ns_check:equal({true, {ok, 0}, {ok, 3}, false},
                            {beamvm:namespace_delete_module(A, nsmod), Version(A),
                             Version(B), beamvm:namespace_delete_module(A, nsmod)})
         end},
        {"a server in deleted code answers from it once, then runs the root's version",
         fun() -> ns_check:equal({{3, 0}, {0, 0}, {3, 3}}, {which(Srv(a)), which(Srv(a)), which(Srv(b))}) end},
        {"the deleted version is purged; the namespace has no module of its own left",
         fun() ->
             ns_check:equal({true, [], [nsmod], 0},
                            {beamvm:namespace_purge(A, nsmod), beamvm:namespace_modules(A),
                             beamvm:namespace_modules(B), nsmod:version()})
         end},
        {"a binary that is not a module, or of another module, is refused",
         fun() ->
             ns_check:equal({{error, badfile}, {error, badfile}, []},
                            {beamvm:namespace_load(A, nsmod, <<"not a beam">>),
                             beamvm:namespace_load(A, other, V1), beamvm:namespace_modules(A)})
         end},
        {"the servers were in their namespaces all along",
         fun() ->
             R = {beamvm:namespace_of(Srv(a)), beamvm:namespace_of(Srv(b))},
             [P ! stop || P <- [Srv(a), Srv(b)]],
             ns_check:equal({A, B}, R)
         end}
    ]).

which(Pid) ->
    Pid ! {self(), which},
    receive
        {Pid, Local, Qualified} -> {Local, Qualified}
    after 5000 -> timeout
    end.
