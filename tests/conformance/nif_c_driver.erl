%% A C port driver (tests/nif/driver_echo.c) loaded with erl_ddll:try_load/3 and opened with
%% open_port({spawn, Name}): its start gets the command line, driver_output reaches the owner
%% as a list or, with the binary option, a binary; port_control/3 reaches its control callback;
%% port_close/1 and the owner's exit reach its stop; a registered driver port is sent to by
%% name; a second try_load answers already_loaded; a missing library is an open_error.
-module(nif_c_driver).
-export([main/0]).

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

dir() -> filename:join(filename:dirname(code:which(?MODULE)), "nif").

echo(P, Data) ->
    true = port_command(P, Data),
    receive {P, {data, D}} -> D after 5000 -> timeout end.

counts(P) -> port_control(P, 1, []).

main() ->
    t(load, fun() -> erl_ddll:try_load(dir(), driver_echo, []) end),
    t(load_again, fun() -> erl_ddll:try_load(dir(), "driver_echo", []) end),
    t(missing, fun() ->
        {error, {open_error, _} = E} = erl_ddll:try_load(dir(), no_such_driver, []),
        is_list(erl_ddll:format_error(E)) end),
    P = open_port({spawn, "driver_echo with args"}, []),
    t(is_port, fun() -> is_port(P) end),
    t(command_line, fun() -> port_control(P, 0, []) end),
    t(echo_list, fun() -> echo(P, "hello\n") end),
    t(echo_iolist, fun() -> echo(P, [<<"a">>, "b", [$c, <<"de">>]]) end),
    t(echo_empty, fun() -> echo(P, <<>>) end),
    t(echo_large, fun() -> length(echo(P, binary:copy(<<"xyz">>, 1000))) end),
    t(send_command, fun() ->
        P ! {self(), {command, "by message"}},
        receive {P, {data, D}} -> D after 5000 -> timeout end end),
    t(control, fun() -> port_control(P, 7, "abc") end),
    t(control_binary_arg, fun() -> port_control(P, 9, <<"xy">>) end),
    t(counts, fun() -> counts(P) end),
    B = open_port({spawn, driver_echo}, [binary]),
    t(echo_binary, fun() -> echo(B, "as a binary") end),
    t(counts_two, fun() -> counts(B) end),
    t(close, fun() -> port_close(B) end),
    t(counts_after_close, fun() -> counts(P) end),
    t(registered, fun() ->
        true = register(nif_c_driver_port, P),
        nif_c_driver_port ! {self(), {command, "named"}},
        receive {P, {data, D}} -> D after 5000 -> timeout end end),
    t(owner_exit, fun() ->
        Self = self(),
        Pid = spawn(fun() ->
            Q = open_port({spawn, driver_echo}, []),
            Self ! {opened, counts(Q)},
            receive stop -> ok end end),
        Opened = receive {opened, C} -> C after 5000 -> timeout end,
        Ref = monitor(process, Pid),
        Pid ! stop,
        receive {'DOWN', Ref, process, Pid, _} -> ok end,
        {Opened, counts(P)} end),
    t(unload, fun() -> erl_ddll:try_unload(no_such_driver, []) end),
    t(close_last, fun() -> port_close(P) end),
    ok.
