%% namespace_destroy: kills the namespace's processes (reason killed), frees its code and names;
%% no process is left that was not there before. Also every bad argument of the API. (Counted
%% as processes new since the start, not as a total: OTP's kernel may end a process of its
%% own meanwhile.)
-module(ns_destroy).
-export([main/0, make_export_fun/3, sleeper/0, destroy_self/1]).

-define(N, 40).

main() ->
    V1 = ns_fixtures:beam(v1),
    Before = erlang:processes(),
    New = fun() -> erlang:processes() -- Before end,
    D = beamvm:namespace_new(doomed),
    ns_check:run([
        {"a namespace full of processes",
         fun() ->
             {module, nsmod} = beamvm:namespace_load(D, nsmod, V1),
             process_flag(trap_exit, true),
             Linked = [beamvm:namespace_spawn_link(D, ns_destroy, sleeper, []) || _ <- lists:seq(1, ?N)],
             Servers = [begin {ok, P} = ns_check:call(D, nsmod, server, []), P end || _ <- lists:seq(1, ?N)],
             {ok, true} = ns_check:in(D, fun() -> register(doomed_name, hd(Servers)) end),
             {ok, F} = ns_check:call(D, ns_destroy, make_export_fun, [nsmod, version, 0]),
             put(linked, Linked), put(servers, Servers), put(fun_from_d, F),
             ns_check:equal({2 * ?N, {ok, 1}, 0},
                            {length(New()), ns_check:in(D, F), F()})
         end},
        {"namespace_destroy returns ok once every process is gone",
         fun() ->
             R = beamvm:namespace_destroy(D),
             All = get(linked) ++ get(servers),
             ns_check:equal({ok, [], []}, {R, [P || P <- All, is_process_alive(P)], New()})
         end},
        {"linked processes saw the namespace's processes die with reason killed",
         fun() ->
             Reasons = [receive {'EXIT', P, Why} -> Why after 5000 -> timeout end || P <- get(linked)],
             ns_check:equal(lists:duplicate(?N, killed), Reasons)
         end},
        {"an export fun made in a destroyed namespace still names the root's function",
         fun() -> F = get(fun_from_d), ns_check:equal(0, F()) end},
        {"a destroyed namespace is a bad argument everywhere",
         fun() ->
             Calls = [fun() -> beamvm:namespace_load(D, nsmod, V1) end,
                      fun() -> beamvm:namespace_purge(D, nsmod) end,
                      fun() -> beamvm:namespace_delete_module(D, nsmod) end,
                      fun() -> beamvm:namespace_spawn(D, erlang, self, []) end,
                      fun() -> beamvm:namespace_spawn_link(D, erlang, self, []) end,
                      fun() -> beamvm:namespace_modules(D) end,
                      fun() -> beamvm:namespace_destroy(D) end,
                      fun() -> beamvm:namespace_of(hd(get(servers))) end],
             ns_check:equal(lists:duplicate(length(Calls), ok), [ns_check:raises(badarg, C) || C <- Calls])
         end},
        {"the root's code and names are untouched",
         fun() -> ns_check:equal({0, true}, {nsmod:version(), is_pid(whereis(user))}) end},
        {"creating and destroying namespaces in a loop leaves no process behind",
         fun() ->
             [begin
                  Ns = beamvm:namespace_new(),
                  {module, nsmod} = beamvm:namespace_load(Ns, nsmod, V1),
                  [beamvm:namespace_spawn(Ns, ns_destroy, sleeper, []) || _ <- lists:seq(1, 5)],
                  ok = beamvm:namespace_destroy(Ns)
              end || _ <- lists:seq(1, 20)],
             ns_check:equal([], New())
         end},
        {"the root and the caller's own namespace cannot be destroyed",
         fun() ->
             E = beamvm:namespace_new(),
             ns_check:equal({ok, {ok, badarg}},
                            {ns_check:raises(badarg, fun() -> beamvm:namespace_destroy(beamvm:namespace_of(self())) end),
                             ns_check:in(E, fun() -> ns_destroy:destroy_self(E) end)})
         end},
        {"bad arguments raise badarg",
         fun() ->
             A = beamvm:namespace_new(),
             Forged = setelement(3, A, not_its_name),
             Calls = [fun() -> beamvm:namespace_new("a") end,
                      fun() -> beamvm:namespace_load(not_a_namespace, nsmod, V1) end,
                      fun() -> beamvm:namespace_load(Forged, nsmod, V1) end,
                      fun() -> beamvm:namespace_load(A, "nsmod", V1) end,
                      fun() -> beamvm:namespace_load(A, nsmod, [V1]) end,
                      fun() -> beamvm:namespace_purge(A, "nsmod") end,
                      fun() -> beamvm:namespace_delete_module({}, nsmod) end,
                      fun() -> beamvm:namespace_spawn(A, "m", f, []) end,
                      fun() -> beamvm:namespace_spawn(A, m, f, not_a_list) end,
                      fun() -> beamvm:namespace_spawn_link(A, m, f, [a | b]) end,
                      fun() -> beamvm:namespace_of(self) end,
                      fun() -> beamvm:namespace_modules(42) end,
                      fun() -> beamvm:namespace_destroy(make_ref()) end],
             ns_check:equal(lists:duplicate(length(Calls), ok), [ns_check:raises(badarg, C) || C <- Calls])
         end}
    ]).

sleeper() -> receive after infinity -> ok end.

%% Called with variables so the compiler cannot turn it into a literal fun (which would be
%% resolved where it is called, not in the namespace that made it).
make_export_fun(M, F, A) -> erlang:make_fun(M, F, A).

destroy_self(Ns) -> try beamvm:namespace_destroy(Ns) catch error:E -> E end.
