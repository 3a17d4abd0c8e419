%% The program both VMs run before halting with a slogan: a named ETS table, a registered
%% process waiting in a receive with a dictionary entry and a message it does not match,
%% then erlang:halt/1,2 with the slogan given, or waits for a SIGUSR1 (tests/crashdump/run.sh).
-module(crash_prog).
-export([main/1]).

main([Mode]) ->
    ets:new(t, [named_table]),
    Foo = spawn(fun() -> put(k, v), receive stop -> ok end end),
    register(foo, Foo),
    Foo ! hello,
    timer:sleep(200),  % foo has taken its message in and waits: "Waiting" on both VMs
    case list_to_atom(Mode) of
        slogan -> erlang:halt("boom");
        noflush -> erlang:halt("boom", [{flush, false}]);
        empty -> erlang:halt("");
        long -> erlang:halt(lists:duplicate(1500, $é));  % erts keeps 1023 characters
        status -> erlang:halt(3);
        wait -> io:format(standard_error, "waiting~n", []), timer:sleep(30000)  % for kill -USR1
    end.
