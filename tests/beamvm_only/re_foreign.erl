%% Compiled patterns across engines (docs/natives.md, re): beamvm's pattern binary holds its
%% own encoding, erl's holds PCRE 8.44's compiled code. A pattern compiled by erl (its bytes
%% taken from erl's re:compile("a(?<n>b)", [unicode]), embedded below) must be refused with
%% badarg by every native that takes one, as erl refuses a pattern it cannot read; beamvm's
%% own patterns work after term_to_binary/binary_to_term.
-module(re_foreign).
-export([main/0]).

erl_pattern() ->
    {re_pattern, 1, 1, 0,
     <<69,82,67,80,87,0,0,0,0,8,0,0,81,0,0,0,255,255,255,255,255,255,255,255,97,0,98,0,0,0,1,0,
       0,0,64,0,4,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,110,0,131,0,15,29,
       97,133,0,7,0,1,29,98,120,0,7,120,0,15,0>>}.

main() ->
    Erl = erl_pattern(),
    {ok, Own} = re:compile("a(?<n>b)", [unicode]),
    Copied = binary_to_term(term_to_binary(Own)),
    ns_check:run([
        {"erl's pattern: run", fun() -> ns_check:raises(badarg, fun() -> re:run(<<"ab">>, Erl) end) end},
        {"erl's pattern: run with options",
         fun() -> ns_check:raises(badarg, fun() -> re:run(<<"ab">>, Erl, [{capture, all, binary}]) end) end},
        {"erl's pattern: global run", fun() -> ns_check:raises(badarg, fun() -> re:run(<<"ab">>, Erl, [global]) end) end},
        {"erl's pattern: list subject", fun() -> ns_check:raises(badarg, fun() -> re:run("ab", Erl) end) end},
        {"erl's pattern: inspect", fun() -> ns_check:raises(badarg, fun() -> re:inspect(Erl, namelist) end) end},
        {"erl's pattern: replace", fun() -> ns_check:raises(badarg, fun() -> re:replace("ab", Erl, "x") end) end},
        {"erl's pattern: split", fun() -> ns_check:raises(badarg, fun() -> re:split("ab", Erl) end) end},
        {"own pattern after term_to_binary: same term", fun() -> ns_check:equal(Own, Copied) end},
        {"own pattern after term_to_binary: run",
         fun() -> ns_check:equal({match, [<<"ab">>, <<"b">>]}, re:run(<<"ab">>, Copied, [{capture, all, binary}])) end},
        {"own pattern after term_to_binary: inspect",
         fun() -> ns_check:equal({namelist, [<<"n">>]}, re:inspect(Copied, namelist)) end},
        {"own pattern's binary altered",
         fun() -> ns_check:raises(badarg, fun() -> re:run("ab", setelement(5, Own, <<"bvp2", 255, 255, 255, 255, 0, 0, "a">>)) end) end}
    ]).
