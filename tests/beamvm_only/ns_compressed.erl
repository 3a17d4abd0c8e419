%% A gzip-compressed module (as compile:file(F, [compressed]) writes) loads into a namespace as
%% the plain one does, and a broken compressed one is refused there as erlang:load_module/2
%% refuses it (beamvm:namespace_load shares its loader path).
-module(ns_compressed).
-export([main/0]).

main() ->
    Plain = ns_fixtures:beam(v1),
    Gz = zlib:gzip(Plain),
    Truncated = binary:part(Gz, 0, byte_size(Gz) - 5),
    P = beamvm:namespace_new(plain),
    C = beamvm:namespace_new(compressed),
    Info = fun(Ns) -> {ns_check:call(Ns, nsmod, version, []), ns_check:call(Ns, nsmod, module_info, [md5])} end,
    ns_check:run([
        {"the fixture is gzip-compressed", fun() -> ns_check:equal(<<31, 139>>, binary:part(Gz, 0, 2)) end},
        {"namespace_load takes it as the plain file",
         fun() ->
             ns_check:equal(beamvm:namespace_load(P, nsmod, Plain), beamvm:namespace_load(C, nsmod, Gz))
         end},
        {"the same version and md5 run in both namespaces", fun() -> ns_check:equal(Info(P), Info(C)) end},
        {"a truncated stream is refused, as erlang:load_module/2 refuses it (and erl does)",
         fun() ->
             D = beamvm:namespace_new(truncated),
             ns_check:equal({{error, badfile}, {error, badfile}},
                            {erlang:load_module(nsmod, Truncated), beamvm:namespace_load(D, nsmod, Truncated)})
         end}
    ]).
