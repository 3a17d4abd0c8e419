%% erl_nif beyond terms, binaries, maps and resources, through our own NIF library
%% (tests/nif/api_extra_nif.c): enif_term_type, enif_hash, enif_term_to_binary /
%% enif_binary_to_term, the time functions, enif_make_unique_integer, enif_system_info,
%% enif_thread_type, I/O vectors and queues, ports, enif_snprintf/enif_fprintf with %T, and
%% enif_make_resource_binary. Values that differ from run to run (times, unique integers) are
%% printed as the relations erl guarantees between them.
-module(nif_api_extra).
-export([main/0]).
-nifs([term_type/1, hash/3, term_to_binary/1, binary_to_term/2, monotonic_time/1, time_offset/1,
       convert_time_unit/3, now_time/0, cpu_time/0, unique_integer/1, thread_types/0,
       system_info/1, system_info_sizes/0, inspect_iovec/4, ioq_new/0, ioq_create_bad/0,
       ioq_enq_binary/4, ioq_enqv/4, ioq_size/1, ioq_peek/1, ioq_peek_head/1, ioq_deq/2,
       port_command/2, port_command_env/2, is_port_alive/1, whereis_port/2, fmt_term/3,
       fmt_long/3, fmt_int/3, fmt_double/3, fmt_string/3, fmt_pointer/3, fmt_mixed/2,
       fprintf_file/1, fprintf_stderr/1, resource_binary/1]).
-on_load(init/0).
-compile({no_auto_import, [term_to_binary/1, binary_to_term/2, port_command/2]}).
-compile({nowarn_deprecated_function, [{erlang, now, 0}]}).

-define(SEC, 0).
-define(MSEC, 1).
-define(USEC, 2).
-define(NSEC, 3).

init() ->
    Dir = filename:join(filename:dirname(code:which(?MODULE)), "nif"),
    erlang:load_nif(filename:join(Dir, "api_extra_nif"), 0).

-define(STUB, erlang:nif_error(not_loaded)).
term_type(_) -> ?STUB.
hash(_, _, _) -> ?STUB.
term_to_binary(_) -> ?STUB.
binary_to_term(_, _) -> ?STUB.
monotonic_time(_) -> ?STUB.
time_offset(_) -> ?STUB.
convert_time_unit(_, _, _) -> ?STUB.
now_time() -> ?STUB.
cpu_time() -> ?STUB.
unique_integer(_) -> ?STUB.
thread_types() -> ?STUB.
system_info(_) -> ?STUB.
system_info_sizes() -> ?STUB.
inspect_iovec(_, _, _, _) -> ?STUB.
ioq_new() -> ?STUB.
ioq_create_bad() -> ?STUB.
ioq_enq_binary(_, _, _, _) -> ?STUB.
ioq_enqv(_, _, _, _) -> ?STUB.
ioq_size(_) -> ?STUB.
ioq_peek(_) -> ?STUB.
ioq_peek_head(_) -> ?STUB.
ioq_deq(_, _) -> ?STUB.
port_command(_, _) -> ?STUB.
port_command_env(_, _) -> ?STUB.
is_port_alive(_) -> ?STUB.
whereis_port(_, _) -> ?STUB.
fmt_term(_, _, _) -> ?STUB.
fmt_long(_, _, _) -> ?STUB.
fmt_int(_, _, _) -> ?STUB.
fmt_double(_, _, _) -> ?STUB.
fmt_string(_, _, _) -> ?STUB.
fmt_pointer(_, _, _) -> ?STUB.
fmt_mixed(_, _) -> ?STUB.
fprintf_file(_) -> ?STUB.
fprintf_stderr(_) -> ?STUB.
resource_binary(_) -> ?STUB.

main() ->
    term_types(),
    hashes(),
    external_format(),
    times(),
    unique_integers(),
    threads_and_system_info(),
    iovecs(),
    io_queues(),
    ports(),
    printf(),
    resource_binaries().

show(Label, Value) -> io:format("~s: ~p~n", [Label, Value]).

%% Plain data whose values do not depend on the emulator (no pids, ports, refs or funs).
sample_terms() ->
    [0, 1, -1, 42, -42, 134217727, 134217728, -134217729, 1 bsl 59, -(1 bsl 59), 1 bsl 64,
     -(1 bsl 64), 123456789012345678901234567890, 0.0, 1.5, -2.25, 1.0e300, atom, 'Quoted atom',
     '', [], [1, 2, 3], "abc", [a | b], {}, {1, two, "three"}, <<>>, <<1, 2, 3>>,
     <<"a binary longer than sixty-four bytes, so it lives off the process heap ......">>,
     <<1:3>>, <<5, 6:4>>, #{}, #{a => 1, b => [2]}, maps:from_list([{I, I * I} || I <- lists:seq(1, 40)]),
     {[{nested, <<"deep">>}], #{k => {v}}}].

term_types() ->
    Port = open_port({spawn, "cat"}, []),
    Others = [self(), make_ref(), fun() -> ok end, fun lists:map/2, Port],
    show("term types", [term_type(T) || T <- sample_terms() ++ Others]),
    port_close(Port).

-define(INTERNAL, 1).
-define(PHASH2, 2).

hashes() ->
    Phash = [hash(?PHASH2, T, 0) || T <- sample_terms()],
    show("phash2 equals erlang:phash2/1", Phash =:= [erlang:phash2(T) || T <- sample_terms()]),
    show("phash2 values", Phash),
    show("phash2 ignores the salt", [hash(?PHASH2, T, 99) || T <- sample_terms()] =:= Phash),
    %% The internal hash of atoms and pids depends on table indices that differ between
    %% emulators: only numbers, binaries and their lists and tuples are printed.
    Plain = [0, 1, -1, 42, 1 bsl 59, 1 bsl 64, -(1 bsl 70), 1.5, -2.25, [], [1, 2, 3], "abc", {},
             {1, 2}, <<>>, <<1, 2, 3>>, <<7:5>>, [<<"x">> | 3]],
    show("internal hash", [hash(?INTERNAL, T, 0) || T <- Plain]),
    show("internal hash salted", [hash(?INTERNAL, T, 12345) || T <- Plain]),
    show("internal hash uses the low 32 bits of the salt",
         [hash(?INTERNAL, T, (1 bsl 40) + 7) =:= hash(?INTERNAL, T, 7) || T <- Plain]),
    show("internal hash of atoms is stable",
         [hash(?INTERNAL, A, 3) =:= hash(?INTERNAL, A, 3) || A <- [ok, error, 'Q']]),
    show("unknown hash type", hash(7, {x}, 0)).

external_format() ->
    Same = [term_to_binary(T) =:= erlang:term_to_binary(T) || T <- sample_terms()],
    show("term_to_binary equals erlang:term_to_binary/1", Same),
    RoundTrip = [begin
                     B = erlang:term_to_binary(T),
                     {T2, Used} = binary_to_term(B, 0),
                     {T2 =:= T, Used =:= byte_size(B)}
                 end || T <- sample_terms()],
    show("binary_to_term round trip", lists:usort(RoundTrip)),
    Bin = erlang:term_to_binary({tag, [1, 2]}),
    show("trailing bytes", binary_to_term(<<Bin/binary, "rest">>, 0)),
    show("compressed", binary_to_term(erlang:term_to_binary(lists:seq(1, 100), [compressed]), 0)),
    show("truncated", binary_to_term(binary:part(Bin, 0, byte_size(Bin) - 1), 0)),
    show("not the external format", binary_to_term(<<1, 2, 3>>, 0)),
    show("bad options", binary_to_term(Bin, 1)),
    NewAtom = <<131, 100, 0, 21, "nif_api_extra_no_such">>,
    show("safe, unknown atom", binary_to_term(NewAtom, 16#20000000)),
    show("safe, known atom", binary_to_term(erlang:term_to_binary(known_atom), 16#20000000)),
    show("unsafe, new atom", binary_to_term(NewAtom, 0)),
    Fun = fun(X) -> X + 1 end,
    {Fun2, _} = binary_to_term(term_to_binary(Fun), 0),
    show("fun through the external format", Fun2(41)).

times() ->
    Units = [{second, ?SEC}, {millisecond, ?MSEC}, {microsecond, ?USEC}, {nanosecond, ?NSEC}],
    show("monotonic_time within erlang:monotonic_time/1",
         [begin
              Before = erlang:monotonic_time(U),
              Nif = monotonic_time(N),
              After = erlang:monotonic_time(U),
              Before =< Nif andalso Nif =< After
          end || {U, N} <- Units]),
    show("time_offset as erlang:time_offset/1",
         [abs(time_offset(N) - erlang:time_offset(U)) =< 1 || {U, N} <- lists:sublist(Units, 2)]),
    show("bad units", [monotonic_time(4), time_offset(-1), convert_time_unit(1, 0, 9)]),
    Values = [0, 1, 999, 1000, 1001, -1, -999, -1000, -1001, 1 bsl 40, -(1 bsl 40)],
    show("convert_time_unit",
         [[convert_time_unit(V, F, T) || F <- [?SEC, ?MSEC, ?USEC, ?NSEC], T <- [?SEC, ?MSEC, ?USEC, ?NSEC]]
          || V <- Values]),
    show("convert_time_unit as erlang:convert_time_unit/3",
         lists:usort([convert_time_unit(V, FN, TN) =:= erlang:convert_time_unit(V, F, T)
                      || V <- Values, {F, FN} <- Units, {T, TN} <- Units])),
    show("overflow wraps", convert_time_unit(1 bsl 62, ?SEC, ?NSEC)),
    N1 = erlang:now(),
    N2 = now_time(),
    N3 = erlang:now(),
    show("now_time between erlang:now/0 calls", N1 < N2 andalso N2 < N3),
    {Mega, Sec, Micro} = cpu_time(),
    show("cpu_time", [is_integer(X) andalso X >= 0 andalso X < 1000000 || X <- [Mega, Sec, Micro]]).

-define(POSITIVE, 1).
-define(MONOTONIC, 2).

unique_integers() ->
    %% One sequence for [monotonic] and one for [positive, monotonic], each shared with
    %% erlang:unique_integer/1.
    A = erlang:unique_integer([monotonic]),
    B = unique_integer(?MONOTONIC),
    C = erlang:unique_integer([monotonic]),
    show("monotonic with erlang:unique_integer/1", A < B andalso B < C),
    D = erlang:unique_integer([positive, monotonic]),
    E = unique_integer(?MONOTONIC bor ?POSITIVE),
    F = erlang:unique_integer([positive, monotonic]),
    show("positive monotonic with erlang:unique_integer/1", D < E andalso E < F andalso D > 0),
    show("positive", [unique_integer(?POSITIVE) > 0 || _ <- lists:seq(1, 5)]),
    Plain = [unique_integer(0) || _ <- lists:seq(1, 100)],
    show("unique", {lists:all(fun is_integer/1, Plain), length(lists:usort(Plain))}).

threads_and_system_info() ->
    show("thread types (scheduler, own thread, its monotonic time)", thread_types()),
    [Major, Minor, Erts, Otp, Threads, Smp, Async, Schedulers, NifMajor, NifMinor, Dirty] = system_info(0),
    show("driver version", {Major, Minor}),
    show("versions as system_info", {Erts =:= erlang:system_info(version),
                                     Otp =:= erlang:system_info(otp_release), Erts, Otp}),
    show("thread and smp support", {Threads, Smp, Dirty}),
    show("async threads = thread_pool_size", Async =:= erlang:system_info(thread_pool_size)),
    show("scheduler threads = schedulers", Schedulers =:= erlang:system_info(schedulers)),
    show("nif version", {NifMajor, NifMinor}),
    {V1, V2, V3} = system_info_sizes(),
    show("struct of driver 1.0 (smp_support last)", hide_counts(system_info(V1))),
    show("struct of driver 1.1 (scheduler_threads last)", hide_counts(system_info(V2))),
    show("struct of driver 1.5 (nif_minor_version last)", hide_counts(system_info(V3))).

%% The async thread and scheduler counts of a struct, as written or not.
hide_counts(Fields) ->
    {Head, [Async, Scheds | Rest]} = lists:split(6, Fields),
    Head ++ [is_integer(Async), is_integer(Scheds) | Rest].

iovecs() ->
    Big = binary:copy(<<"0123456789">>, 20),
    <<_:3, Unaligned:20/binary, _:5>> = <<0:3, Big:20/binary, 0:5>>,
    <<_:5/binary, SubOfBig:100/binary, _/binary>> = Big,
    List = [<<"small">>, Big, <<>>, Unaligned, SubOfBig, <<"tail">>],
    Cases = [{List, 100}, {List, 2}, {List, 0}, {List ++ [<<"x">> | more], 100}, {List ++ [<<"x">> | more], 7},
             {[], 5}, {[<<1:1>>], 5}, {[<<1, 1:1>>], 5}, {[notbin], 5}, {not_a_list, 5}, {[<<"a">> | <<"b">>], 5},
             {[<<"improper">> | <<"b">>], 1}],
    lists:foreach(
      fun({L, Max}) ->
              R = [inspect_iovec(L, Max, WithEnv, Prealloc) || WithEnv <- [1, 0], Prealloc <- [1, 0]],
              show(io_lib:format("inspect_iovec max ~p", [Max]), R)
      end, Cases),
    Many = [<<I>> || I <- lists:seq(1, 20)],
    show("20 binaries (more than the small arrays hold)", inspect_iovec(Many, 100, 1, 1)).

io_queues() ->
    show("ioq_create with bad options", ioq_create_bad()),
    Q = ioq_new(),
    show("empty", {ioq_size(Q), ioq_peek(Q), ioq_peek_head(Q), ioq_deq(Q, 0), ioq_deq(Q, 1)}),
    Big = binary:copy(<<"abcdefghij">>, 10),
    show("enq_binary", [ioq_enq_binary(Q, <<"hello">>, 0, 0), ioq_enq_binary(Q, <<"world">>, 2, 1),
                        ioq_enq_binary(Q, Big, 95, 0), ioq_enq_binary(Q, <<"xyz">>, 3, 1),
                        ioq_enq_binary(Q, <<"xyz">>, 4, 0), ioq_enq_binary(Q, <<>>, 0, 1)]),
    show("size and peek", {ioq_size(Q), ioq_peek(Q)}),
    show("peek_head", ioq_peek_head(Q)),
    show("deq 3", {ioq_deq(Q, 3), ioq_peek(Q), ioq_peek_head(Q)}),
    show("deq too many", {ioq_deq(Q, 1000), ioq_size(Q)}),
    <<_:1, Odd:70/binary, _:7>> = <<1:1, Big:70/binary, 0:7>>,
    show("enqv", [ioq_enqv(Q, [<<"iov1">>, Big, <<>>, Odd], 2, 1), ioq_enqv(Q, [<<"iov2">>, Big], 50, 0),
                  ioq_enqv(Q, [<<"ab">>], 3, 1), ioq_enqv(Q, [<<"ab">>], 2, 0), ioq_enqv(Q, [], 0, 1),
                  ioq_enqv(Q, [notbin], 0, 1)]),
    show("after enqv", {ioq_size(Q), ioq_peek(Q)}),
    show("deq 12", ioq_deq(Q, 12)),
    {HeadSize, Head} = ioq_peek_head(Q),
    show("large head", {HeadSize, Head, binary:referenced_byte_size(Head) >= HeadSize}),
    drain(Q),
    show("drained", {ioq_size(Q), ioq_peek(Q), ioq_peek_head(Q)}),
    show("reuse", {ioq_enq_binary(Q, <<"again">>, 1, 0), ioq_peek(Q)}).

drain(Q) ->
    case ioq_peek_head(Q) of
        false -> ok;
        {Size, _} -> {true, _} = ioq_deq(Q, Size), drain(Q)
    end.

ports() ->
    Port = open_port({spawn, "cat"}, [binary]),
    show("is_port_alive", is_port_alive(Port)),
    show("port_command", port_command(Port, [<<"hello ">>, "wor" | <<"ld">>])),
    show("port_command with msg_env", port_command_env(Port, <<"!">>)),
    show("echoed", collect(Port, 12, <<>>)),
    show("port_command to a non-port", port_command(self(), <<"x">>)),
    %% beamvm cannot register a port yet (register/2 takes pids only): names of a process,
    %% of nothing, and a non-atom.
    register(nif_api_extra_proc, self()),
    show("whereis_port", [whereis_port(nif_api_extra_proc, Port), whereis_port(nif_api_extra_nobody, Port),
                          whereis_port("string", Port)]),
    port_close(Port),
    show("after close", {is_port_alive(Port), port_command(Port, <<"late">>)}),
    unregister(nif_api_extra_proc).

collect(_Port, 0, Acc) -> Acc;
collect(Port, N, Acc) ->
    receive
        {Port, {data, D}} -> collect(Port, N - byte_size(D), <<Acc/binary, D/binary>>)
    after 5000 -> {timeout, Acc}
    end.

printf() ->
    Terms = [atom, 'Quoted atom', 'a@b', '', 42, -7, 1 bsl 70, 1.5, 0.1, -2.0e-10, 1.0e20, "abc",
             "with \"quotes\"\nand newline", [1, 2, 300], [a | b], [], {}, {a, "b", <<"c">>},
             <<1, 2, 3>>, <<"text">>, <<"quote\"d">>, <<1:3>>, <<255, 7:4>>, #{a => 1, "k" => [v]},
             lists:seq(1, 30), [[]], {[[], {}]}],
    lists:foreach(fun(T) -> show("%T", fmt_term("%T", T, 256)) end, Terms),
    %% erts pads a right-justified term by the width less the digits of its numbers, and
    %% counts those digits in full when the buffer is too small for them.
    Padded = [abc, 42, -5, {1, abc}, 1.5, 1 bsl 70, <<1, 2>>, <<"ab">>, [1, [2, "x3"]], 'a1'],
    show("%T widths", [{fmt_term("<%8T>", T, 256), fmt_term("<%-8T>", T, 256)} || T <- Padded]),
    %% "%.NT" prints at most N elements (a term, a character of a string, a byte of a
    %% binary, an atom's length) and then "... ".
    Limited = [abc, {a, b, c}, [1, 2, 3], "abcdef", <<1, 2, 3, 4>>, <<"abcdefgh">>, fun lists:map/2,
               #{a => 1, b => 2}, [x | y], {[[deep]], <<1:3>>}, maps:from_list([{I, I} || I <- lists:seq(1, 40)])],
    show("%.NT", [[fmt_term(F, T, 256) || F <- ["%.0T", "%.1T", "%.3T", "%.4T", "%.5T", "<%12.2T>", "<%-12.4T>"]]
                  || T <- Limited]),
    show("%T truncated", [fmt_term("%T", T, S) || T <- [{abc, "defgh"}, {12345, abc}, [1 bsl 70], 1.5,
                                                          <<1, 2, 3>>, "abc", [-1, 20, 300]],
                                                    S <- [0, 1, 3, 4, 5, 15, 16]]),
    Ints = ["%d", "%5d", "%-5d|", "%05d", "%+d", "% d", "%.3d", "%.0d", "%x", "%#x", "%#X", "%#o",
            "%o", "%u", "%hhd", "%hd", "%c", "%3c|", "%-3c|", "%.0c|", "%zd", "%qd", "%",  "%%d",
            "%b8d", "%b32d", "%'d", "%Id"],
    lists:foreach(fun(F) -> show(F, [fmt_int(F, V, 64) || V <- [0, 65, -65, 300]]) end, Ints),
    Longs = ["%ld", "%lld", "%lx", "%#lx", "%lu", "%.0ld", "%bpd", "%b64d", "%b16d", "%jd", "%td"],
    lists:foreach(fun(F) -> show(F, [fmt_long(F, V, 64) || V <- [0, 255, -255, 1 bsl 40]]) end, Longs),
    Doubles = ["%f", "%.2f", "%8.3f|", "%-8.1f|", "%08.2f", "%+f", "% f", "%e", "%.3E", "%g", "%G",
               "%.3g", "%#.0f", "%.0e", "%Lf"],
    lists:foreach(fun(F) -> show(F, [fmt_double(F, V, 64) || V <- [0.0, 1.5, -1234.5678, 1.0e-5, 6.02e23]]) end,
                  Doubles),
    Strings = ["%s", "%8s|", "%-8s|", "%.2s|", "%8.2s|"],
    lists:foreach(fun(F) -> show(F, fmt_string(F, "hello", 64)) end, Strings),
    show("%p", [fmt_pointer(F, V, 64) || F <- ["%p", "%20p", "%-20p|", "%.4p", "%8.4p"], V <- [0, 16#1234abcd]]),
    show("mixed", fmt_mixed(<<"bin">>, {x, [y]})),
    show("fprintf to a file", fprintf_file(#{key => "value"})),
    show("fprintf to stderr", fprintf_stderr({done, "ok", 1.5})).

resource_binaries() ->
    B = resource_binary(100),
    show("resource binary", {byte_size(B), binary:part(B, 0, 10), erlang:phash2(B)}),
    show("small resource binary", resource_binary(3)).
