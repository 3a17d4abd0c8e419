%% os:cmd/1,2 (kernel's os.erl, unmodified) over ports: output with stderr, no final newline,
%% a failing command, a large output, max_size.
-module(ports_oscmd).
-export([main/0]).

show(Label, V) -> io:format("~s: ~p~n", [Label, V]).

main() ->
    show("os:cmd", os:cmd("echo hello; echo err >&2")),
    show("os:cmd no newline", os:cmd("printf 'a\\nb'")),
    show("os:cmd exit", os:cmd("exit 3")),
    show("os:cmd big", length(os:cmd("head -c 100000 /dev/zero | tr '\\0' x"))),
    show("os:cmd max_size", os:cmd("echo 12345", #{max_size => 2})),
    show("os:cmd bad", catch os:cmd(foo)),
    show("ports left", [P || P <- erlang:ports(), erlang:port_info(P, name) =:= {name, "/bin/sh -s unix:cmd"}]).
