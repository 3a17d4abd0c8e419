%% bs_create_bin with size operands erlc never writes but assembly may (AtomVM corpus:
%% test_op_bs_create_bin): a utf8/16/32 segment ignores its size operand; `all` and `undefined`
%% in a register are bad sizes for binary and integer segments; causes in error_info. The
%% module is assembled at run time from a term, so the same code runs on both VMs.
-module(bits_create_sizes).
-export([main/0]).

main() ->
    Types = [utf8, utf16, utf32, integer, binary],
    Fns = [{function, T, 3, 2 * I,
            [{label, 2 * I - 1}, {func_info, {atom, bcs_asm}, {atom, T}, 3}, {label, 2 * I},
             {bs_create_bin, {f, 0}, 0, 1, 8, {x, 0},
              {list, [{atom, T}, 1, unit(T), {x, 1}, {x, 0}, {x, 2}]}},
             return]}
           || {I, T} <- lists:zip(lists:seq(1, length(Types)), Types)],
    Asm = {bcs_asm, [{T, 3} || T <- Types], [], Fns, 2 * length(Types) + 1},
    {ok, bcs_asm, Bin} = compile:forms(Asm, [from_asm, binary, return_errors]),
    {module, bcs_asm} = code:load_binary(bcs_asm, "bcs_asm.S", Bin),
    [show(T, V, S) || T <- Types, V <- [0, 65, 955, -1, not_int, <<"ab">>],
                      S <- [undefined, all, 8, 16, foo, -1]],
    ok.

unit(binary) -> 8;
unit(integer) -> 8;
unit(_) -> 0.

show(T, V, S) ->
    R = try bcs_asm:T(V, [], S) of B -> {ok, B}
        catch C:E:St ->
            [{_, _, _, Loc} | _] = St,
            {C, E, maps:get(cause, proplists:get_value(error_info, Loc, #{}), none)}
        end,
    io:format("~p ~p ~p: ~p~n", [T, V, S, R]).
