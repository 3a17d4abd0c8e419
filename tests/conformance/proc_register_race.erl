%% A name taken from a dying process (unregister/1, then register/2 to a new one) stays with
%% the new process when the old one's exit completes (OTP-8099): the dying process only drops
%% the name while it still holds it.
-module(proc_register_race).
-export([main/0]).

-define(NAME, proc_register_race_name).

%% Prints ok after the loop (how often a retake was needed depends on timing, on erl too);
%% a name lost to the race is a badmatch, which ends the run with a different output.
main() ->
    _Retakes = loop(100000, 0),
    io:format("ok~n").

loop(0, Retakes) ->
    Retakes;
loop(N, Retakes) ->
    P = spawn(fun wait/0),
    R = case catch register(?NAME, P) of
            true ->
                0;
            _ ->
                Old = whereis(?NAME),
                (catch unregister(?NAME)),
                (catch exit(Old, kill)),
                true = (catch register(?NAME, P)),
                1
        end,
    P = whereis(?NAME),
    exit(P, kill),
    loop(N - 1, Retakes + R).

wait() ->
    receive _ -> ok end,
    wait().
