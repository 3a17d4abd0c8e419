%% beamvm's built-in I/O server, registered as `user` and the default group leader. It speaks
%% the Erlang I/O protocol ({io_request, From, ReplyAs, Request}) on the VM's stdin/stdout, so
%% OTP's own io and io_lib modules run unmodified. Like erl -noshell with output to a pipe, its
%% encoding is latin1: characters above 255 are written as \x{...}.
-module(beamvm_io_server).
-export([init/1]).

%% Fd 1: the server registered as `user` (stdout); Fd 2: `standard_error` (stderr).
init(Fd) ->
    loop(#{encoding => latin1, binary => false, fd => Fd}).

loop(Opts) ->
    receive
        {io_request, From, ReplyAs, Request} ->
            {Reply, Opts1} = request(Request, Opts),
            From ! {io_reply, ReplyAs, Reply},
            loop(Opts1);
        _Other ->
            loop(Opts)
    end.

request({put_chars, Enc, Chars}, Opts) ->
    {write_chars(Opts, Enc, Chars), Opts};
request({put_chars, Enc, M, F, A}, Opts) ->
    case catch apply(M, F, A) of
        {'EXIT', _} -> {{error, put_chars}, Opts};  % io turns this into badarg, cause {device, put_chars}
        Chars -> {write_chars(Opts, Enc, Chars), Opts}
    end;
request({put_chars, Chars}, Opts) ->
    {write_chars(Opts, latin1, Chars), Opts};
request({put_chars, M, F, A}, Opts) ->
    request({put_chars, latin1, M, F, A}, Opts);
request({get_line, Enc, Prompt}, Opts) ->
    prompt(Prompt),
    {convert(beamvm_internal:read_line(), Enc, Opts), Opts};
request({get_line, Prompt}, Opts) ->
    request({get_line, latin1, Prompt}, Opts);
request({get_chars, Enc, Prompt, N}, Opts) ->
    prompt(Prompt),
    {convert(beamvm_internal:read_chars(N), Enc, Opts), Opts};
request({get_chars, Prompt, N}, Opts) ->
    request({get_chars, latin1, Prompt, N}, Opts);
request({get_until, Enc, Prompt, M, F, As}, Opts) ->
    prompt(Prompt),
    {get_until(Enc, M, F, As, [], Opts), Opts};
request({get_until, Prompt, M, F, As}, Opts) ->
    request({get_until, latin1, Prompt, M, F, As}, Opts);
request({requests, Reqs}, Opts) ->
    requests(Reqs, ok, Opts);
request(getopts, Opts) ->
    {[{binary, maps:get(binary, Opts)}, {encoding, maps:get(encoding, Opts)}], Opts};
request({setopts, List}, Opts) ->
    setopts(List, Opts);
request({get_geometry, _}, Opts) ->
    {{error, enotsup}, Opts};
request(_, Opts) ->
    {{error, request}, Opts}.

requests([], Last, Opts) -> {Last, Opts};
requests([R | Rs], _, Opts) ->
    case request(R, Opts) of
        {{error, _} = E, Opts1} -> {E, Opts1};
        {Reply, Opts1} -> requests(Rs, Reply, Opts1)
    end.

setopts([], Opts) -> {ok, Opts};
setopts([binary | T], Opts) -> setopts(T, Opts#{binary => true});
setopts([list | T], Opts) -> setopts(T, Opts#{binary => false});
setopts([{binary, B} | T], Opts) when is_boolean(B) -> setopts(T, Opts#{binary => B});
setopts([{encoding, E} | T], Opts) when E =:= latin1; E =:= unicode; E =:= utf8 ->
    setopts(T, Opts#{encoding => E});
setopts([_ | T], Opts) -> setopts(T, Opts);
setopts(_, Opts) -> {{error, enotsup}, Opts}.

write_chars(#{fd := Fd}, Enc, Chars) ->
    case beamvm_internal:put_chars(Fd, Enc, Chars) of
        ok -> ok;
        Error -> {error, Error}
    end.

prompt('') -> ok;
prompt(Prompt) ->
    case catch io_lib:format("~ts", [io_lib:format_prompt(Prompt)]) of
        {'EXIT', _} -> ok;
        Chars -> beamvm_internal:put_chars(1, unicode, Chars)
    end.

%% Bytes read from stdin (a binary, or eof) as the caller asked for them.
convert(eof, _Enc, _Opts) -> eof;
convert(Bin, Enc, Opts) ->
    Chars = case Enc of
                latin1 -> Bin;
                _ -> case unicode:characters_to_binary(Bin, latin1, Enc) of
                         B when is_binary(B) -> B;
                         _ -> Bin
                     end
            end,
    case maps:get(binary, Opts) of
        true -> Chars;
        false -> binary_to_list(Chars)
    end.

get_until(Enc, M, F, As, Cont, Opts) ->
    Data = case beamvm_internal:read_line() of
               eof -> eof;
               Bin -> case maps:get(binary, Opts) of
                          true -> Bin;
                          false -> binary_to_list(Bin)
                      end
           end,
    case catch apply(M, F, [Cont, Data | As]) of
        {done, Result, _Rest} -> Result;
        {more, Cont1} when Data =/= eof -> get_until(Enc, M, F, As, Cont1, Opts);
        {more, _} -> eof;
        _ -> {error, F}
    end.
