%% Pids with a serial number (<0.Id.Serial>) made from text: printing, equality, order,
%% hashing, the external format, and what signals to such a (non-existing) process do.
-module(bif_pid_serials).
-export([main/0]).
-compile(nowarn_deprecated_function).

t(Label, F) ->
    R = try F() catch C:E -> {C, E} end,
    io:format("~p: ~p~n", [Label, R]).

main() ->
    Texts = ["<0.9999.7>", "<0.1.1>", "<0.0.8191>", "<0.32767.8191>", "<0.2.0>", "<0.3.0>",
             "<0.0.2>", "<0.00017.0003>", "<0.9999.8192>", "<0.32768.1>"],
    [t({text, S}, fun() -> pid_to_list(list_to_pid(S)) end) || S <- Texts],
    P = list_to_pid("<0.9999.7>"),
    t(equal, fun() -> {P =:= list_to_pid("<0.9999.7>"), P == list_to_pid("<0.9999.0>"),
                       P =:= list_to_pid("<0.9999.07>")} end),
    t(sort, fun() -> [pid_to_list(X) || X <- lists:sort([list_to_pid(S) || S <- ["<0.1.1>", "<0.2.0>",
                                                          "<0.3.0>", "<0.0.2>", "<0.32767.0>", "<0.0.1>"]])] end),
    t(compare, fun() -> {list_to_pid("<0.1.1>") > list_to_pid("<0.2.0>"),
                         list_to_pid("<0.0.2>") > list_to_pid("<0.32767.1>")} end),
    t(phash2, fun() -> [erlang:phash2(list_to_pid(S)) || S <- ["<0.1.1>", "<0.1.0>", "<0.5.3>"]] end),
    t(phash, fun() -> [erlang:phash(list_to_pid(S), 1 bsl 27) || S <- ["<0.1.1>", "<0.1.0>", "<0.5.3>"]] end),
    t(ttb, fun() -> term_to_binary(list_to_pid("<0.5.3>")) end),
    t(roundtrip, fun() -> binary_to_term(term_to_binary(P)) =:= P end),
    t(btt, fun() -> pid_to_list(binary_to_term(<<131, 88, 100, 0, 13, "nonode@nohost", 0, 0, 0, 5,
                                                 0, 0, 0, 3, 0, 0, 0, 0>>)) end),
    t(display, fun() -> lists:flatten(io_lib:format("~p ~w", [P, {P}])) end),
    t(send, fun() -> P ! hello end),
    t(alive, fun() -> is_process_alive(P) end),
    t(process_info, fun() -> process_info(P, status) end),
    t(monitor, fun() ->
        R = monitor(process, P),
        receive {'DOWN', R, process, P2, Reason} -> {P2 =:= P, Reason} end end),
    t(link, fun() -> link(P) end),
    t(link_trapped, fun() ->
        process_flag(trap_exit, true),
        link(P),
        receive {'EXIT', P, Why} -> Why end end),
    t(exit, fun() -> exit(P, kill) end),
    t(self_text, fun() -> list_to_pid(pid_to_list(self())) =:= self() end),
    t(spawned_text, fun() ->
        Pids = [spawn(fun() -> ok end) || _ <- lists:seq(1, 20)],
        lists:all(fun(X) -> list_to_pid(pid_to_list(X)) =:= X end, Pids) end).
