%% Loads an erl_crash.dump with OTP's crashdump_viewer backend (its gen_server, without
%% the wx front end) and prints what the viewer reports, one fact a line, so that the dumps
%% of erl and beamvm can be compared line by line (tests/crashdump/run.sh).
%% Usage: erl -noshell -pa DIR -s cdv_report main DUMP -s erlang halt
-module(cdv_report).
-export([main/1]).
-include_lib("observer/src/crashdump_viewer.hrl").

main([Dump]) ->
    {ok, _} = crashdump_viewer:start_link(),
    register(cdv_progress_handler, self()),
    crashdump_viewer:read_file(if is_atom(Dump) -> atom_to_list(Dump); true -> Dump end),
    ok = wait_done(),
    {ok, G, _} = crashdump_viewer:general_info(),
    out("slogan", G#general_info.slogan),
    out("taints", G#general_info.taints),
    out("num_procs", G#general_info.num_procs),
    out("num_ets", G#general_info.num_ets),
    out("num_atoms", G#general_info.num_atoms),
    {ok, Procs, _} = crashdump_viewer:processes(),
    [out("registered", P#proc.name ++ " " ++ P#proc.state)
     || P <- lists:keysort(#proc.name, Procs), is_registered_name(P)],
    {ok, Ets, _} = crashdump_viewer:ets_tables(all),
    [out("ets", lists:flatten(io_lib:format("~s ~s ~s", [T#ets_table.name, T#ets_table.data_type,
                                                          owner_name(T#ets_table.pid, Procs)])))
     || T <- lists:keysort(#ets_table.name, Ets), T#ets_table.name =:= "t"],
    {ok, Mods, _} = crashdump_viewer:loaded_modules(),
    [out("module", mod_name(M#loaded_mod.mod)) || M <- Mods],
    {ok, Ports, _} = crashdump_viewer:ports(),
    out("num_ports", length(Ports)),
    [details(pid_str(P#proc.pid)) || P <- Procs, P#proc.name =:= "foo"],
    {ok, Mem, _} = crashdump_viewer:memory(),
    out("memory_keys", [K || {K, _} <- Mem]),
    {ok, Atoms, _} = crashdump_viewer:atoms(),
    out("atoms_listed", length(Atoms) > 1000),
    {ok, PT, _} = crashdump_viewer:persistent_terms(),
    out("persistent_terms_listed", length(PT) > 0),
    {ok, Scheds, _} = crashdump_viewer:schedulers(),
    out("schedulers_listed", length(Scheds) > 0),
    %% Last, as a decoding failure stops the viewer's server: every process's stack, heap,
    %% dictionary and messages decode.
    process_flag(trap_exit, true),
    Bad = [pid_str(P#proc.pid) || P <- Procs, not decodes(pid_str(P#proc.pid))],
    out("proc_details_not_decoded", Bad),
    ok.

decodes(Pid) ->
    try crashdump_viewer:proc_details(Pid) of
        {ok, #proc{stack_dump = S}, _} -> S =/= undefined orelse true;
        _ -> false
    catch _:_ -> false
    end.

%% The viewer decodes a process's stack, heap, dictionary and messages from the dump.
details(Pid) ->
    {ok, P, _} = crashdump_viewer:proc_details(Pid),
    out("foo_init_func", P#proc.init_func),
    out("foo_dict", lists:sort(listed(P#proc.dict))),
    out("foo_msgs", [M || {M, _} <- listed(P#proc.msg_q)]),
    out("foo_stack_has_return",
        lists:any(fun({_, T}) -> is_list(T) andalso lists:prefix("Return addr", T) end,
                  listed(P#proc.stack_dump))).

listed(L) when is_list(L) -> L;
listed(_) -> [].

%% The viewer keeps a module's name as {Binary, QuoteFlag}.
mod_name({Bin, _}) when is_binary(Bin) -> binary_to_list(Bin);
mod_name(Name) -> Name.

pid_str(P) when is_pid(P) -> pid_to_list(P);
pid_str(P) -> P.

is_registered_name(#proc{name = N, init_func = IF}) -> N =/= IF.

owner_name(Pid, Procs) ->
    case [P || P <- Procs, P#proc.pid =:= Pid] of
        [#proc{name = N, init_func = IF}] when N =/= IF -> N;
        [_] -> "unnamed";
        [] -> "none"
    end.

wait_done() ->
    receive
        {progress, {ok, done}} -> ok;
        {progress, {error, R}} -> {error, R};
        {progress, _} -> wait_done()
    after 60000 -> timeout
    end.

out(Key, V) when is_list(V) ->
    case io_lib:printable_unicode_list(V) of
        true -> io:format("~s: ~ts~n", [Key, V]);
        false -> io:format("~s: ~0p~n", [Key, V])
    end;
out(Key, V) -> io:format("~s: ~0p~n", [Key, V]).
