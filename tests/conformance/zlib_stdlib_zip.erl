%% OTP's zip module (stdlib) over beamvm's zlib natives: archives built and read in memory,
%% stored and deflated entries, listing, extraction, and a handle from zip_open/2.
-module(zlib_stdlib_zip).
-export([main/0]).

main() ->
    Files = [{"a.txt", <<"hello hello hello hello">>},
             {"dir/b.bin", binary:copy(<<"xyz">>, 20000)},
             {"c.empty", <<>>},
             {"d.rand", << <<((I * 7919) rem 251)>> || I <- lists:seq(1, 50000) >>}],
    {ok, {"t.zip", Zip}} = zip:zip("t.zip", Files, [memory]),
    show("archive size", fun() -> byte_size(Zip) end),
    show("unzip in memory", fun() ->
        {ok, Out} = zip:unzip(Zip, [memory]),
        [{Name, byte_size(B), B =:= proplists:get_value(Name, Files)} || {Name, B} <- Out]
    end),
    show("list_dir", fun() ->
        {ok, [_Comment | Entries]} = zip:list_dir(Zip),
        [{element(2, E), element(2, element(3, E))} || E <- Entries]
    end),
    show("stored (uncompress none)", fun() ->
        {ok, {_, Z2}} = zip:zip("s.zip", Files, [memory, {compress, []}]),
        {ok, Out} = zip:unzip(Z2, [memory]),
        {byte_size(Z2), [N || {N, _} <- Out]}
    end),
    show("extract one file", fun() ->
        {ok, [{"dir/b.bin", B}]} = zip:unzip(Zip, [memory, {file_list, ["dir/b.bin"]}]),
        byte_size(B)
    end),
    show("zip_open handle", fun() ->
        {ok, H} = zip:zip_open(Zip, [memory]),
        {ok, {"a.txt", A}} = zip:zip_get("a.txt", H),
        {ok, {"d.rand", D}} = zip:zip_get("d.rand", H),
        ok = zip:zip_close(H),
        {A, byte_size(D), erlang:crc32(D)}
    end),
    show("corrupt archive", fun() ->
        Size = byte_size(Zip),
        Bad = <<(binary:part(Zip, 0, 60))/binary, 0:(8 * 200), (binary:part(Zip, 260, Size - 260))/binary>>,
        element(1, catch zip:unzip(Bad, [memory]))
    end),
    ok.

show(Label, F) ->
    R = try F() of V -> {ok, V} catch C:E -> {C, E} end,
    io:format("~s: ~w~n", [Label, R]).
