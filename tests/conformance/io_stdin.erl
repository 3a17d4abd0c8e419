%% Reading standard input through the booted kernel's user process (an {fd,0,1} port):
%% io:get_line, io:read, io:get_chars, io:fread, and end of file. The text comes
%% from io_stdin.stdin beside this file (tools/conformance_check.sh gives it to both
%% emulators); prompts go to standard output.
-module(io_stdin).
-export([main/0]).

t(Label, F) -> io:format("~p: ~p~n", [Label, try F() catch C:R -> {C, R} end]).

main() ->
    t(line1, fun() -> io:get_line("") end),
    t(line2_prompt, fun() -> io:get_line("prompt> ") end),
    t(read_term, fun() -> io:read("") end),
    t(read_integer, fun() -> io:read('read? ') end),
    t(read_atom, fun() -> io:read("") end),
    t(read_bad_term, fun() -> io:read("") end),
    t(chars, fun() -> io:get_chars("", 5) end),
    t(rest_of_line, fun() -> io:get_line(standard_io, "") end),
    t(fread, fun() -> io:fread("", "~d ~d ~a") end),
    t(skip_line, fun() -> io:get_line("") end),
    t(unicode_line, fun() -> io:get_line("") end),
    t(last_line_no_newline, fun() -> io:get_line("") end),
    t(eof_line, fun() -> io:get_line("") end),
    t(eof_read, fun() -> io:read("") end),
    t(eof_chars, fun() -> io:get_chars("", 3) end),
    t(eof_fread, fun() -> io:fread("", "~d") end),
    ok.
