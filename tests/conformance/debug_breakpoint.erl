%% erts_debug:breakpoint/2: a call of a function with a debug breakpoint goes to the process's
%% error handler as ErrorHandler:breakpoint(M, F, Args); the answer counts the functions
%% matched ('_' for the open parts); switched off, the function runs again; a pattern with a
%% wildcard before a given part is badarg. Also the process flag error_handler.
-module(debug_breakpoint).
-export([main/0, breakpoint/3, add/2, twice/1]).

main() ->
    io:format("set: ~p~n", [erts_debug:breakpoint({?MODULE, add, 2}, true)]),
    process_flag(error_handler, ?MODULE),
    io:format("add: ~p~n", [add(1, 2)]),
    io:format("twice (no breakpoint): ~p~n", [twice(4)]),
    io:format("set twice: ~p~n", [erts_debug:breakpoint({?MODULE, twice, '_'}, true)]),
    io:format("twice: ~p~n", [twice(4)]),
    io:format("cleared: ~p~n", [erts_debug:breakpoint({?MODULE, '_', '_'}, false)]),
    io:format("add: ~p, twice: ~p~n", [add(1, 2), twice(4)]),
    io:format("bad pattern: ~p~n", [element(1, catch erts_debug:breakpoint({?MODULE, '_', 2}, false))]),
    io:format("bad flag: ~p~n", [element(1, catch erts_debug:breakpoint({?MODULE, add, 2}, maybe))]).

breakpoint(M, F, Args) -> {breakpoint, M, F, Args}.

add(A, B) -> A + B.

twice(X) -> add(X, X).
