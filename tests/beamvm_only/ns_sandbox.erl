%% Namespaces as a sandbox (docs/namespaces.md "Sandbox"): beamvm:namespace_new/2 with
%% {allow, Caps} / {deny, Caps}; every way to the file system, ports, the network, os:cmd,
%% code loading and halting refused in a restricted namespace's processes with
%% error({capability_denied, Cap}); what the policy allows still works there; the root and
%% unrestricted namespaces are unaffected; the VM survives it all.
-module(ns_sandbox).
-export([main/0]).

-define(ALL, [file, port, network, os_cmd, code_load, halt]).

denied(Cap) -> {error, {capability_denied, Cap}}.

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
         fun() -> ns_check:equal(#{allowed => [], denied => ?ALL}, beamvm:namespace_policy(Closed)) end},
        {"policy of an unrestricted namespace",
         fun() -> ns_check:equal(#{allowed => ?ALL, denied => []}, beamvm:namespace_policy(Open)) end},
        {"policy of allow [file]",
         fun() -> ns_check:equal(#{allowed => [file], denied => ?ALL -- [file]}, beamvm:namespace_policy(Files)) end},
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
                 ns_check:equal(#{allowed => [], denied => ?ALL}, beamvm:namespace_policy(Inner))
         end},
        {"namespace_new/1 inside gets its maker's policy",
         fun() ->
                 {ok, Inner} = In(Closed, fun() -> beamvm:namespace_new(inner1) end),
                 ns_check:equal(#{allowed => [], denied => ?ALL}, beamvm:namespace_policy(Inner))
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
