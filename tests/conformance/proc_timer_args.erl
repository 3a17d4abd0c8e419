%% Bad arguments to the timer BIFs: send_after/3,4 and start_timer/3,4 check the options
%% (cause badopt: only {abs, true | false}), then the time (cause time: negative, not an
%% integer, too large), then the destination (plain badarg); cancel_timer/2 and read_timer/2
%% take boolean options only.
-module(proc_timer_args).
-export([main/0]).

main() ->
    Self = self(),
    Cases = [{negative, [-1, Self, m]}, {atom_time, [a, Self, m]}, {float_dest, [10, 1.0, m]},
             {bad_option, [10, Self, m, [bad]]}, {abs_not_bool, [10, Self, m, [{abs, x}]]},
             {not_a_list, [10, Self, m, x]}, {improper, [10, Self, m, [{abs, true} | x]]},
             {huge, [1 bsl 60, Self, m]}, {tuple_dest, [10, {a, b}, m]},
             {bad_option_and_time, [-1, Self, m, [bad]]}, {abs_negative, [-5, Self, m, [{abs, true}]]},
             {abs_false_negative, [-5, Self, m, [{abs, false}]]}],
    [io:format("~p ~p: ~p~n", [F, Label, run(F, A)])
     || F <- [send_after, start_timer], {Label, A} <- Cases],
    Ref = make_ref(),
    [io:format("~p ~p: ~p~n", [F, Label, run(F, A)])
     || F <- [cancel_timer, read_timer],
        {Label, A} <- [{not_a_ref, [x]}, {bad_option, [Ref, [bad]]}, {async_not_bool, [Ref, [{async, x}]]},
                       {info_not_bool, [Ref, [{info, x}]]}, {unknown_ref, [Ref]}, {async_false, [Ref, [{async, false}]]}]],
    flush(),
    ok.

run(F, A) ->
    try apply(erlang, F, A) of R when is_reference(R) -> reference; R -> R
    catch C:E:St ->
        [{M, Fn, Args, L} | _] = St,
        {C, E, M, Fn, length(Args), proplists:get_value(error_info, L)}
    end.

flush() -> receive _ -> flush() after 50 -> ok end.
