%% A pid decoded with this node's name but another creation (an earlier incarnation of the
%% node) is not any live process: it differs from every local pid, survives a round trip
%% through the external format, and monitoring it answers noproc at once. monitor_SUITE's
%% otp_5827 builds one from term_to_binary(self()) and waited for a DOWN that never came.
-module(pid_other_creation).
-export([main/0]).

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

%% Pid with the last byte of its creation changed, as otp_5827 does.
other_creation(Pid) ->
    [CreEnd | Rest] = lists:reverse(binary_to_list(term_to_binary(Pid))),
    New = case CreEnd of 0 -> 1; 1 -> 2; _ -> CreEnd - 1 end,
    binary_to_term(list_to_binary(lists:reverse([New | Rest]))).

main() ->
    Self = self(),
    P = other_creation(Self),
    t(is_pid, fun() -> is_pid(P) end),
    t(node, fun() -> node(P) end),
    t(equal, fun() -> {P == Self, P =:= Self, P /= Self} end),
    t(order, fun() -> {P < Self, P > Self, lists:sort([P, Self]) =:= [Self, P]} end),
    t(round_trip, fun() -> binary_to_term(term_to_binary(P)) =:= P end),
    t(encoding_differs, fun() -> term_to_binary(P) =/= term_to_binary(Self) end),
    t(two_decodes_equal, fun() -> other_creation(Self) =:= P end),
    t(alive, fun() -> erlang:is_process_alive(P) end),
    t(send, fun() -> P ! hello end),
    t(exit, fun() -> exit(P, kill) end),
    t(monitor, fun() ->
                       M = erlang:monitor(process, P),
                       receive {'DOWN', M, process, P, R} -> R after 1000 -> no_down end
               end),
    t(monitor_from_other_process, fun() ->
                                          Parent = self(),
                                          Ok = make_ref(),
                                          spawn(fun() ->
                                                        M = erlang:monitor(process, P),
                                                        receive {'DOWN', M, process, P, noproc} -> Parent ! Ok end
                                                end),
                                          receive Ok -> ok after 1000 -> hangs end
                                  end),
    t(in_message, fun() -> self() ! {P}, receive {Q} -> Q =:= P end end),
    t(mailbox_empty, fun() -> receive X -> X after 0 -> empty end end),
    ok.
