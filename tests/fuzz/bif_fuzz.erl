%% Differential BIF fuzzer (issue 8, item 4). Run by tools/bif_fuzz.sh on erl and on beamvm with
%% the same seed and size; each prints one line per call:
%%     @@ Module:Function/Arity #Index Outcome | Arguments
%% where Outcome is the class of what happened (`ok:Shape`, `error:Shape`, `exit:Shape`,
%% `throw:Shape`, `died:Shape` when the calling process was killed, `timeout` when it did not
%% answer) and never a value that differs between runs. Arguments are printed with pids,
%% references and funs replaced by their type, for the reader only: the script compares what is
%% left of the bar.
%%
%% The functions come from bif_fuzz_functions (generated on erl by generate/1, checked in), so
%% both VMs call the same list whatever their module_info says.
-module(bif_fuzz).
-export([main/1, generate/1]).

-define(CALL_TIMEOUT, 5000).

%% erl -run bif_fuzz main Seed Size
main([SeedS, SizeS]) ->
    Seed = list_to_integer(SeedS),
    Size = list_to_integer(SizeS),
    Dead = spawn(fun() -> ok end),
    Ref = monitor(process, Dead),
    receive {'DOWN', Ref, _, _, _} -> ok end,
    Pool = list_to_tuple(bif_fuzz_values:pool()),
    [fuzz(MFA, Seed, Size, Pool, Dead) || MFA <- bif_fuzz_functions:list()],
    io:format("@@ end~n"),
    halt(0).

fuzz({M, F, A} = MFA, Seed, Size, Pool, Dead) ->
    case bif_fuzz_skips:skip(M, F, A) of
        {skip, _Reason} ->
            io:format("@@ ~w:~w/~w skipped~n", [M, F, A]);
        call ->
            Hints = list_to_tuple(bif_fuzz_values:hints(M, F)),
            Count = case A of 0 -> 1; _ -> Size end,
            rounds(MFA, 0, Count, seed(Seed, MFA), Pool, Hints, Dead)
    end.

rounds(_, I, Count, _, _, _, _) when I >= Count -> ok;
rounds({M, F, A} = MFA, I, Count, Rng0, Pool, Hints, Dead) ->
    {Args, Rng} = vector(A, I, Rng0, Pool, Hints),
    Outcome = case bif_fuzz_skips:tame(M, F, Args) of
                  true -> call(M, F, Args, Dead);
                  false -> "skipped"
              end,
    io:format("@@ ~w:~w/~w #~w ~s | ~ts~n", [M, F, A, I, Outcome, show(Args)]),
    rounds(MFA, I + 1, Count, Rng, Pool, Hints, Dead).

%% The first vector of a function with hints is all hints; later ones take a hint for a third
%% of their arguments.
vector(A, I, Rng, Pool, Hints) ->
    lists:foldl(fun(_, {Acc, R0}) ->
                        {Pick, R1} = next(R0, 3),
                        {V, R2} = case I =:= 0 orelse Pick =:= 0 of
                                      true when tuple_size(Hints) > 0 -> pick(Hints, R1);
                                      _ -> pick(Pool, R1)
                                  end,
                        {Acc ++ [V], R2}
                end, {[], Rng}, lists:seq(1, A)).

pick(T, R0) ->
    {N, R} = next(R0, tuple_size(T)),
    {element(N + 1, T), R}.

%% Park-Miller's minimal standard generator: small integers only, so the sequence does not
%% depend on any library or on bignum arithmetic. One stream per function, seeded by its name,
%% so adding a function does not change the vectors of the others.
seed(Seed, {M, F, A}) ->
    Name = atom_to_list(M) ++ ":" ++ atom_to_list(F) ++ "/" ++ integer_to_list(A),
    H = lists:foldl(fun(C, H) -> (H * 31 + C) rem 2147483647 end, Seed rem 2147483647, Name),
    case H of 0 -> 1; _ -> H end.

next(R0, N) ->
    R = (R0 * 48271) rem 2147483647,
    {R rem N, R}.

%% One call in a fresh process, next to a fresh victim process that arguments may name.
call(M, F, Args, Dead) ->
    Parent = self(),
    Tag = make_ref(),
    Victim = spawn(fun victim/0),
    VRef = monitor(process, Victim),
    Ctx = #{victim => Victim, dead => Dead},
    {Pid, MRef} = spawn_monitor(fun() -> Parent ! {Tag, run(M, F, Args, Ctx)} end),
    Outcome = receive
                  {Tag, O} -> await_down(MRef), O;
                  {'DOWN', MRef, _, _, Reason} -> "died:" ++ shape(Reason)
              after ?CALL_TIMEOUT ->
                  exit(Pid, kill),
                  await_down(MRef),
                  "timeout"
              end,
    exit(Victim, kill),
    await_down(VRef),
    flush(Tag),
    Outcome.

await_down(MRef) ->
    receive {'DOWN', MRef, _, _, _} -> ok
    after ?CALL_TIMEOUT -> io:format("@@ unkillable~n"), halt(3)
    end.

flush(Tag) ->
    receive {Tag, _} -> flush(Tag) after 0 -> ok end.

victim() ->
    receive stop -> ok; _ -> victim() end.

run(M, F, Args, Ctx) ->
    try apply(M, F, [bif_fuzz_values:materialize(A, Ctx) || A <- Args]) of
        R -> "ok:" ++ shape(R)
    catch
        C:E -> atom_to_list(C) ++ ":" ++ shape(E)
    end.

%% The outcome's shape: an atom as itself, a tuple by its arity and its first element when that
%% is an atom (`{badarg,..}/2`), anything else by its type.
shape(V) when is_atom(V) -> io_lib:format("~w", [V]);
shape(V) when is_integer(V) -> "int";
shape(V) when is_float(V) -> "float";
shape(V) when is_binary(V) -> "binary";
shape(V) when is_bitstring(V) -> "bitstring";
shape([]) -> "[]";
shape(V) when is_list(V) -> "list";
shape({}) -> "{}";
shape(V) when is_tuple(V), is_atom(element(1, V)) ->
    io_lib:format("{~w,..}/~w", [element(1, V), tuple_size(V)]);
shape(V) when is_tuple(V) -> io_lib:format("tuple/~w", [tuple_size(V)]);
shape(V) when is_map(V) -> "map";
shape(V) when is_pid(V) -> "pid";
shape(V) when is_port(V) -> "port";
shape(V) when is_reference(V) -> "reference";
shape(V) when is_function(V) -> "fun".

show(Args) ->
    S = lists:flatten(io_lib:format("~W", [sanitize(Args), 7])),
    case length(S) > 160 of
        true -> lists:sublist(S, 160) ++ "...";
        false -> S
    end.

sanitize(V) when is_pid(V) -> 'PID';
sanitize(V) when is_reference(V) -> 'REF';
sanitize(V) when is_function(V) -> 'FUN';
sanitize(V) when is_port(V) -> 'PORT';
sanitize([H | T]) -> [sanitize(H) | sanitize(T)];
sanitize(V) when is_tuple(V) -> list_to_tuple(sanitize(tuple_to_list(V)));
sanitize(V) when is_map(V) -> maps:from_list(sanitize(maps:to_list(V)));
sanitize(V) -> V.

%% On erl only: write the function list (bif_fuzz_functions.erl) from erl's own modules.
%% erlang: every export; the modules whose natives are fuzzed: the exports erl implements
%% natively (is_builtin); modules that are NIF libraries or thin wrappers over natives: every
%% export but module_info (and os:cmd, which issue 8 leaves out: it runs the shell); erts_internal: the functions OTP's erts, kernel, stdlib and compiler
%% call; crypto: the functions issue 8 names.
generate([Out]) ->
    Builtins = [lists, maps, binary, unicode, math, erts_debug, erl_ddll, re],
    Wrappers = [persistent_term, atomics, counters, os, zlib],
    Fs = [{erlang, F, A} || {F, A} <- exports(erlang)]
        ++ [{M, F, A} || M <- Builtins, {F, A} <- exports(M), erlang:is_builtin(M, F, A)]
        ++ [{M, F, A} || M <- Wrappers, {F, A} <- exports(M), F =/= module_info,
                         {M, F} =/= {os, cmd}]
        ++ [{erts_internal, F, A} || {F, A} <- called_erts_internal()]
        ++ [{crypto, F, A} || {F, A} <- [{hash, 2}, {hash_init, 1}, {hash_update, 2},
                                         {hash_final, 1}, {mac, 4}, {strong_rand_bytes, 1}]],
    Text = ["%% Generated by bif_fuzz:generate/1 on erl (tools/bif_fuzz.sh --regenerate); do not edit.\n"
            "-module(bif_fuzz_functions).\n-export([list/0]).\n\nlist() ->\n    [\n",
            lists:join(",\n", [io_lib:format("     ~w", [MFA]) || MFA <- Fs]), "\n    ].\n"],
    ok = file:write_file(Out, Text),
    halt(0).

exports(M) ->
    {module, M} = code:ensure_loaded(M),
    lists:usort(M:module_info(exports)).

called_erts_internal() ->
    Dirs = [code:lib_dir(App, ebin) || App <- [erts, kernel, stdlib, compiler]],
    Beams = lists:append([filelib:wildcard(filename:join(D, "*.beam")) || D <- Dirs]),
    Called = lists:usort(lists:append(
        [begin
             {ok, {_, [{imports, Is}]}} = beam_lib:chunks(B, [imports]),
             [{F, A} || {erts_internal, F, A} <- Is]
         end || B <- Beams])),
    [FA || FA <- Called, lists:member(FA, exports(erts_internal))].
