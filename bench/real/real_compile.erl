%% Real workload (issue 29): OTP's compiler compiling 20 of stdlib's own modules from source,
%% compile:file(F, [binary, report_errors, deterministic]) in one process, as a build does.
%% `deterministic` leaves the source's path out of the module's compile info, so the md5 of the
%% produced binaries is the same wherever a VM's stdlib/src is (OTP's interpreter build is a copy
%% of the installed tree at another path). Every module listed compiles without include paths
%% beyond the defaults (gen_server, supervisor and others need kernel/src's logger.hrl).
%% The sources are stdlib's own, installed by Debian's erlang-src (tools/setup.sh).
-module(real_compile).
-export([main/0, quick/0]).
-export([src_dir/0]).  % real_parse reads its source from there too

%% A mix of sizes and styles, each 1-15 kLOC of hand-written code; together about 8 s of
%% compiling on erl's JIT on the project's machine. (erl_parse and unicode_util are left out:
%% they are mostly generated tables and would dominate.)
-define(MODULES, [array, base64, beam_lib, calendar, dict, digraph, epp, erl_eval, erl_pp,
                  erl_scan, ets, filename, gb_trees, io_lib_format, lists, proplists, queue,
                  rand, sets, string]).

main() -> run(?MODULES).

quick() -> run([queue, orddict, base64]).

run(Modules) ->
    Dir = src_dir(),
    Bins = [compile(filename:join(Dir, atom_to_list(M) ++ ".erl")) || M <- Modules],
    io:format("real_compile: ~p modules, ~p bytes of BEAM, md5 ~s~n",
              [length(Bins), iolist_size(Bins), hex(erlang:md5(Bins))]).

compile(File) ->
    case compile:file(File, [binary, report_errors, deterministic]) of
        {ok, _Module, Bin} -> Bin;
        Error -> exit({compile_failed, File, Error})
    end.

%% The running VM's own stdlib/src, else the system's (Debian's erlang-src).
src_dir() ->
    Own = filename:join(code:lib_dir(stdlib), "src"),
    case filelib:is_regular(filename:join(Own, "lists.erl")) of
        true -> Own;
        false ->
            case filelib:wildcard("/usr/lib/erlang/lib/stdlib-*/src/lists.erl") of
                [F | _] -> filename:dirname(F);
                [] -> exit({no_stdlib_sources, "install Debian's erlang-src (tools/setup.sh)"})
            end
    end.

hex(Bin) -> [io_lib:format("~2.16.0b", [B]) || <<B>> <= Bin].
