%% Sending to a reference that is not an active alias: a plain reference, an alias after
%% unalias, an alias of a process that has exited, a reference made from text. The message
%% is dropped without an error (as erl), and the sender goes on.
-module(proc_send_refs).
-export([main/0]).

t(Label, F) ->
    R = try F() catch C:E -> {C, E} end,
    io:format("~p: ~p~n", [Label, R]).

flush() -> receive M -> [M | flush()] after 0 -> [] end.

main() ->
    R = make_ref(),
    t(bang, fun() -> R ! hello end),
    t(send2, fun() -> erlang:send(R, hello) end),
    t(send3, fun() -> erlang:send(R, hello, [noconnect]) end),
    t(send3_nosuspend, fun() -> erlang:send(R, hello, [nosuspend, noconnect]) end),
    t(nosuspend, fun() -> erlang:send_nosuspend(R, hello) end),
    A = alias(),
    t(unalias, fun() -> unalias(A) end),
    t(dead_alias, fun() -> A ! dead end),
    Self = self(),
    Child = spawn(fun() -> Self ! {alias, alias()} end),
    Other = receive {alias, X} -> X end,
    Mon = monitor(process, Child),
    receive {'DOWN', Mon, process, Child, _} -> ok end,
    t(exited_alias, fun() -> Other ! late end),
    t(text_ref, fun() -> list_to_ref("#Ref<0.1.2.3>") ! text end),
    t(in_list, fun() -> [Y ! many || Y <- [make_ref() || _ <- lists:seq(1, 100)]] =:= lists:duplicate(100, many) end),
    t(bad_options, fun() -> erlang:send(R, hello, [bogus]) end),
    t(mailbox, fun() -> flush() end),
    %% An active alias still works afterwards.
    B = alias([reply]),
    B ! first,
    B ! second,
    t(reply_alias, fun() -> flush() end).
