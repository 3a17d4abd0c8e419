%% Compiled patterns across engines (docs/natives.md, re): beamvm's pattern binary holds its
%% own encoding; beamvm's own patterns work after term_to_binary/binary_to_term, and an altered
%% binary is refused with badarg. Patterns compiled by erl (PCRE 8.44 code) are read back by
%% beamvm and compared with erl in tests/conformance/re_erl_compiled.erl.
-module(re_foreign).
-export([main/0]).

main() ->
    {ok, Own} = re:compile("a(?<n>b)", [unicode]),
    Copied = binary_to_term(term_to_binary(Own)),
    ns_check:run([
        {"own pattern after term_to_binary: same term", fun() -> ns_check:equal(Own, Copied) end},
        {"own pattern after term_to_binary: run",
         fun() -> ns_check:equal({match, [<<"ab">>, <<"b">>]}, re:run(<<"ab">>, Copied, [{capture, all, binary}])) end},
        {"own pattern after term_to_binary: inspect",
         fun() -> ns_check:equal({namelist, [<<"n">>]}, re:inspect(Copied, namelist)) end},
        {"own pattern's binary altered",
         fun() -> ns_check:raises(badarg, fun() -> re:run("ab", setelement(5, Own, <<"bvp2", 255, 255, 255, 255, 0, 0, "a">>)) end) end}
    ]).
