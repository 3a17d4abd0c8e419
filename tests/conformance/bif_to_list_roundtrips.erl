%% Identifiers to and from text: list_to_pid/ref/port, ref_to_list, port_to_list,
%% pid_to_list, fun_to_list, fun_info_mfa. Pids and references differ between runs, so
%% only their round trips and shapes are printed; texts that do not depend on the run
%% (funs, ports, parsed references) are printed as they are.
-module(bif_to_list_roundtrips).
-export([main/0, named/1]).

hostile() ->
    [a, -1, 1 bsl 70, 1.5, [a | b], <<1:3>>, <<"x">>, self(), make_ref(), #{a => 1},
     fun() -> ok end, fun lists:map/2, {1, 2}, [], "abc", [256], [-1], lists:duplicate(200, $1)].

outcome(F, Args) ->
    try apply(erlang, F, Args) of
        V when is_pid(V) -> {ok, pid};
        V when is_reference(V) -> {ok, ref};
        V -> {ok, V}
    catch
        C:E:S -> {C, E, frame(S)}
    end.

frame([{M, F, A, Loc} | _]) ->
    {M, F, if is_list(A) -> length(A); true -> A end, [K || {K, _} <- Loc]};
frame(_) -> none.

named(X) -> X.

main() ->
    %% Hostile arguments: no crash, erl's outcome class and error frame.
    [io:format("~w(~w) -> ~w~n", [F, I, outcome(F, [A])])
     || F <- [list_to_pid, list_to_ref, list_to_port, ref_to_list, port_to_list, fun_to_list,
              fun_info_mfa, pid_to_list],
        {I, A} <- lists:zip(lists:seq(1, length(hostile())), hostile()),
        not (F =:= ref_to_list andalso is_reference(A)),
        not (F =:= pid_to_list andalso is_pid(A))],
    %% Round trips of this run's own pid and references.
    Self = self(),
    io:format("pid roundtrip ~w~n", [list_to_pid(pid_to_list(Self)) =:= Self]),
    Refs = [make_ref() || _ <- lists:seq(1, 5)],
    io:format("ref roundtrip ~w~n", [[list_to_ref(ref_to_list(R)) =:= R || R <- Refs]]),
    io:format("ref text shape ~w~n",
              [[lists:prefix("#Ref<0.", ref_to_list(R)) andalso lists:last(ref_to_list(R)) =:= $>
                || R <- Refs]]),
    %% Texts: accepted and refused forms.
    Pids = ["<0.0.0>", "<0.32767.0>", "<0.32768.0>", "<0.5.8192>", "<0.5.0", "<1.5.0>",
            "<0.05.0>", "<0.268435455.0>", " <0.5.0>", "<0.5.0>x", "<0..0>", "<0.5.0.0>",
            "<-1.5.0>", "<0.99999999999999999999999.0>", ""],
    [io:format("list_to_pid(~p) -> ~p~n", [S, outcome(list_to_pid, [S])]) || S <- Pids],
    io:format("pid text ~p~n", [pid_to_list(list_to_pid("<0.05.0>"))]),
    Ports = ["#Port<0.5>", "#Port<0.0>", "#Port<0.268435455>", "#Port<0.268435456>", "#Port<1.5>",
             "#Port<0.5", "#Port<0.>", "#port<0.5>", "#Port<0.5>>", "#Port<00.007>"],
    [io:format("list_to_port(~p) -> ~p~n", [S, outcome(list_to_port, [S])]) || S <- Ports],
    [io:format("port_to_list ~p ~w~n", [port_to_list(P), is_port(P)])
     || S <- ["#Port<0.5>", "#Port<00.007>", "#Port<0.268435455>"], P <- [list_to_port(S)]],
    RefTexts = ["#Ref<0.1.2.3>", "#Ref<0.1.2>", "#Ref<0.1.2.3.4>", "#Ref<0.1.2.262144>",
                "#Ref<0.1.2.262143>", "#Ref<0.4294967295.2.3>", "#Ref<0.4294967296.2.3>",
                "#Ref<1.1.2.3>", "#Ref<0.2>", "#Ref<0.1.2.3.4.5>", "#Ref<0.1.0.3>",
                "#Ref<0.001.0.3>", "#Ref<0.1.0.3>x", "#Ref0.1.0.3>", "#Ref<0..0.3>"],
    [io:format("list_to_ref(~p) -> ~p~n", [S, case outcome(list_to_ref, [S]) of
                                                 {ok, ref} -> {ok, ref_to_list(list_to_ref(S))};
                                                 O -> O
                                             end]) || S <- RefTexts],
    R1 = list_to_ref("#Ref<0.1.0.3>"),
    io:format("parsed refs equal ~w ~w~n", [R1 =:= list_to_ref("#Ref<0.001.0.3>"), R1 =:= make_ref()]),
    %% display_string/1 writes to stderr (not compared); its answer and refusals are.
    [io:format("display_string ~w -> ~w~n", [I, outcome(display_string, [A])])
     || {I, A} <- lists:zip(lists:seq(1, 8), [a, "", [a], [16#110000], [16#D800], <<"x">>, [$a | $b], [$h, 233, 8364, $\n]])],
    io:format("display_nl ~w~n", [outcome(display_nl, [])]),
    %% Funs.
    Y = length(Refs),
    Funs = [fun() -> ok end, fun(X) -> X + Y end, fun(A, B) -> {A, B, Y} end, fun ?MODULE:named/1,
            fun lists:map/2, fun erlang:'+'/2, fun 'a b':'c d'/0, fun named/1],
    [io:format("fun ~s ~w~n", [erlang:fun_to_list(F), erlang:fun_info_mfa(F)]) || F <- Funs],
    io:format("fun text equals display ~w~n", [[erlang:fun_to_list(F) =:= lists:flatten(io_lib:format("~w", [F])) || F <- Funs]]),
    ok.
