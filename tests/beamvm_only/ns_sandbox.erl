%% Namespaces as a sandbox (docs/namespaces.md "Sandbox"): beamvm:namespace_new/2 with
%% {allow, Caps} / {deny, Caps}; every way to the file system, ports, the network, os:cmd,
%% code loading and halting refused in a restricted namespace's processes with
%% error({capability_denied, Cap}); what the policy allows still works there; the root and
%% unrestricted namespaces are unaffected; the VM survives it all.
-module(ns_sandbox).
-export([main/0]).

-define(ALL, [file, port, network, os_cmd, code_load, halt]).

denied(Cap) -> {error, {capability_denied, Cap}}.

caps(Ns) -> maps:with([allowed, denied], beamvm:namespace_policy(Ns)).

main() ->
    File = "/tmp/ns_sandbox_" ++ os:getpid(),
    ok = file:write_file(File, <<"secret">>),
    Closed = beamvm:namespace_new(closed, [{deny, ?ALL}]),
    Open = beamvm:namespace_new(open),
    Files = beamvm:namespace_new(files, [{allow, [file]}]),
    {ok, ModBin} = file:read_file(code:which(ns_check)),
    In = fun(Ns, F) -> ns_check:in(Ns, F) end,
    Checks = [
        {"policy of a closed namespace",
         fun() -> ns_check:equal(#{allowed => [], denied => ?ALL}, caps(Closed)) end},
        {"policy of an unrestricted namespace",
         fun() ->
                 ns_check:equal(#{allowed => ?ALL, denied => [], max_processes => infinity, max_heap_size => infinity,
                                  max_atoms => infinity},
                                beamvm:namespace_policy(Open))
         end},
        {"policy of allow [file]",
         fun() -> ns_check:equal(#{allowed => [file], denied => ?ALL -- [file]}, caps(Files)) end},
        %% file
        {"file:read_file refused", fun() -> ns_check:equal(denied(file), In(Closed, fun() -> file:read_file(File) end)) end},
        {"file:open refused", fun() -> ns_check:equal(denied(file), In(Closed, fun() -> file:open(File, [read]) end)) end},
        {"file:list_dir refused", fun() -> ns_check:equal(denied(file), In(Closed, fun() -> file:list_dir("/") end)) end},
        {"prim_file:read_file refused (the native)",
         fun() -> ns_check:equal(denied(file), In(Closed, fun() -> prim_file:read_file(File) end)) end},
        {"erl_prim_loader:get_file refused",
         fun() -> ns_check:equal(denied(file), In(Closed, fun() -> erl_prim_loader:get_file(File) end)) end},
        {"the file server is not visible",
         fun() -> ns_check:equal({ok, undefined}, In(Closed, fun() -> whereis(file_server_2) end)) end},
        {"asking the file server by name fails",
         fun() ->
                 case In(Closed, fun() -> gen_server:call(file_server_2, {read_file, File}) end) of
                     {exit, {noproc, _}} -> ok;
                     Other -> {unexpected, Other}
                 end
         end},
        {"a forged pid of the file server gets nothing",
         fun() ->
                 FS = pid_to_list(whereis(file_server_2)),
                 R = In(Closed, fun() ->
                                        Pid = list_to_pid(FS),
                                        Ref = make_ref(),
                                        Pid ! {'$gen_call', {self(), Ref}, {read_file, File}},
                                        receive {Ref, Reply} -> Reply after 300 -> no_reply end
                                end),
                 ns_check:equal({ok, no_reply}, R)
         end},
        {"exit signals to hidden root servers are dropped",
         fun() ->
                 Init = whereis(init),
                 {ok, true} = In(Closed, fun() -> exit(list_to_pid(pid_to_list(Init)), kill) end),
                 timer:sleep(50),
                 ns_check:equal(true, is_process_alive(Init))
         end},
        {"user stays visible",
         fun() -> ns_check:equal({ok, true}, In(Closed, fun() -> is_pid(whereis(user)) end)) end},
        %% ports, network, os:cmd
        {"open_port spawn refused",
         fun() -> ns_check:equal(denied(port), In(Closed, fun() -> open_port({spawn, "true"}, []) end)) end},
        {"gen_tcp:listen refused",
         fun() -> ns_check:equal(denied(network), In(Closed, fun() -> gen_tcp:listen(0, [{ip, {127, 0, 0, 1}}]) end)) end},
        %% gen_tcp:connect turns an error inside it into an exit with the stack (OTP's code)
        {"gen_tcp:connect refused",
         fun() ->
                 case In(Closed, fun() -> gen_tcp:connect({127, 0, 0, 1}, 9, []) end) of
                     {exit, {{capability_denied, network}, [_ | _]}} -> ok;
                     Other -> {unexpected, Other}
                 end
         end},
        {"gen_udp:open refused",
         fun() -> ns_check:equal(denied(network), In(Closed, fun() -> gen_udp:open(0, [{ip, {127, 0, 0, 1}}]) end)) end},
        {"socket:open refused",
         fun() -> ns_check:equal(denied(network), In(Closed, fun() -> socket:open(inet, stream, tcp) end)) end},
        {"os:cmd refused", fun() -> ns_check:equal(denied(os_cmd), In(Closed, fun() -> os:cmd("echo hi") end)) end},
        %% code loading
        {"erlang:load_module refused",
         fun() -> ns_check:equal(denied(code_load), In(Closed, fun() -> erlang:load_module(ns_check, ModBin) end)) end},
        {"code:load_binary refused",
         fun() -> ns_check:equal(denied(code_load), In(Closed, fun() -> code:load_binary(ns_check, "x", ModBin) end)) end},
        {"erlang:load_nif refused",
         fun() -> ns_check:equal(denied(code_load), In(Closed, fun() -> erlang:load_nif("/nonexistent", 0) end)) end},
        {"beamvm:namespace_load from inside refused",
         fun() -> ns_check:equal(denied(code_load), In(Closed, fun() -> beamvm:namespace_load(Open, ns_check, ModBin) end)) end},
        %% halt
        {"erlang:halt refused", fun() -> ns_check:equal(denied(halt), In(Closed, fun() -> erlang:halt(0) end)) end},
        {"init:stop refused", fun() -> ns_check:equal(denied(halt), In(Closed, fun() -> init:stop() end)) end},
        %% what stays
        {"stdlib runs (first calls load from the code path)",
         fun() -> ns_check:equal({ok, 55}, In(Closed, fun() -> lists:sum(lists:seq(1, 10)) end)) end},
        {"first call of an OTP module loaded nowhere (without code_server)",
         fun() ->
                 false = code:is_loaded(sofs),
                 ns_check:equal({ok, [a, b]}, In(Closed, fun() -> sofs:to_external(sofs:set([b, a])) end))
         end},
        {"the code server is not visible",
         fun() -> ns_check:equal({ok, undefined}, In(Closed, fun() -> whereis(code_server) end)) end},
        {"a namespace made inside gets no more than its maker's",
         fun() ->
                 {ok, Inner} = In(Closed, fun() -> beamvm:namespace_new(inner, []) end),
                 ns_check:equal(#{allowed => [], denied => ?ALL}, caps(Inner))
         end},
        {"namespace_new/1 inside gets its maker's policy",
         fun() ->
                 {ok, Inner} = In(Closed, fun() -> beamvm:namespace_new(inner1) end),
                 ns_check:equal(#{allowed => [], denied => ?ALL}, caps(Inner))
         end},
        {"spawning into an unrestricted namespace refused",
         fun() ->
                 ns_check:equal(denied(file),
                                In(Closed, fun() -> beamvm:namespace_spawn(Open, erlang, apply, [fun() -> ok end, []]) end))
         end},
        {"spawning into the root refused",
         fun() ->
                 Root = beamvm:namespace_of(self()),
                 ns_check:equal(denied(file),
                                In(Closed, fun() -> beamvm:namespace_spawn(Root, erlang, apply, [fun() -> ok end, []]) end))
         end},
        {"spawning into its own namespace allowed",
         fun() ->
                 ns_check:equal({ok, true},
                                In(Closed, fun() ->
                                                   Own = beamvm:namespace_of(self()),
                                                   is_pid(beamvm:namespace_spawn(Own, erlang, apply, [fun() -> ok end, []]))
                                           end))
         end},
        {"allow [file]: reads the file",
         fun() -> ns_check:equal({ok, {ok, <<"secret">>}}, In(Files, fun() -> file:read_file(File) end)) end},
        {"allow [file]: still no port",
         fun() -> ns_check:equal(denied(port), In(Files, fun() -> open_port({spawn, "true"}, []) end)) end},
        {"unrestricted namespace reads the file",
         fun() -> ns_check:equal({ok, {ok, <<"secret">>}}, In(Open, fun() -> file:read_file(File) end)) end},
        {"unrestricted namespace runs os:cmd",
         fun() -> ns_check:equal({ok, "hi\n"}, In(Open, fun() -> os:cmd("echo hi") end)) end},
        {"the root reads the file", fun() -> ns_check:equal({ok, <<"secret">>}, file:read_file(File)) end},
        %% limits
        {"max_processes: the fourth live process is refused",
         fun() ->
                 Lim = beamvm:namespace_new(lim, [{max_processes, 3}]),
                 Wait = fun() -> receive stop -> ok end end,
                 Pids = [beamvm:namespace_spawn(Lim, erlang, apply, [Wait, []]) || _ <- [1, 2, 3]],
                 R = try beamvm:namespace_spawn(Lim, erlang, apply, [Wait, []]) catch error:E -> E end,
                 %% and from inside: one of the three spawns a child
                 hd(Pids) ! stop,
                 timer:sleep(50),
                 Spawner = fun() ->
                                   receive {go, From} -> From ! {spawned, try spawn(fun() -> ok end) catch error:E2 -> E2 end} end
                           end,
                 S = beamvm:namespace_spawn(Lim, erlang, apply, [Spawner, []]),
                 S ! {go, self()},
                 Inside = receive {spawned, X} -> X after 5000 -> timeout end,
                 [exit(P, kill) || P <- Pids],
                 ok = beamvm:namespace_destroy(Lim),
                 ns_check:equal({{sandbox_limit, processes}, {sandbox_limit, processes}}, {R, Inside})
         end},
        {"max_processes: room again once one exits",
         fun() ->
                 Lim = beamvm:namespace_new(lim2, [{max_processes, 1}]),
                 R = [In(Lim, fun() -> N end) || N <- [1, 2, 3]],
                 ok = beamvm:namespace_destroy(Lim),
                 ns_check:equal([{ok, 1}, {ok, 2}, {ok, 3}], R)
         end},
        {"max_heap_size: a process past it is killed",
         fun() ->
                 Small = beamvm:namespace_new(small, [{max_heap_size, 20000}]),
                 Pid = beamvm:namespace_spawn(Small, lists, seq, [1, 1000000]),
                 Ref = erlang:monitor(process, Pid),
                 R = receive {'DOWN', Ref, process, Pid, Reason} -> Reason after 5000 -> timeout end,
                 ns_check:equal(killed, R)
         end},
        {"max_heap_size: process_flag cannot lift it",
         fun() ->
                 Small = beamvm:namespace_new(small2, [{max_heap_size, 20000}]),
                 ns_check:equal({ok, 20000},
                                In(Small, fun() ->
                                                  process_flag(max_heap_size, 0),
                                                  {max_heap_size, #{size := S}} = process_info(self(), max_heap_size),
                                                  S
                                          end))
         end},
        {"bad limits are badarg",
         fun() -> ns_check:raises(badarg, fun() -> beamvm:namespace_new(x, [{max_processes, 0}]) end) end},
        %% bad options
        {"unknown capability is badarg",
         fun() -> ns_check:raises(badarg, fun() -> beamvm:namespace_new(x, [{deny, [bogus]}]) end) end},
        {"unknown option is badarg", fun() -> ns_check:raises(badarg, fun() -> beamvm:namespace_new(x, [foo]) end) end},
        {"improper options are badarg",
         fun() -> ns_check:raises(badarg, fun() -> beamvm:namespace_new(x, [{deny, [file]} | bar]) end) end},
        {"a name that is not an atom is badarg",
         fun() -> ns_check:raises(badarg, fun() -> beamvm:namespace_new("x", []) end) end},
        {"the VM is still up", fun() -> ns_check:equal(true, is_process_alive(self())) end},
        {"clean up", fun() -> ns_check:equal(ok, file:delete(File)) end}
    ],
    ns_check:run(Checks).
