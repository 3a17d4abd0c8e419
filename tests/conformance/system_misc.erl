%% Deterministic parts of module_info/0,1 and system_info, make_ref uniqueness, self/0, the
%% process dictionary.
-module(system_misc).
-export([main/0, id/1, exported/2]).

id(X) -> X.

exported(A, B) -> {A, B}.

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

main() ->
    t(module_info_module, fun() -> ?MODULE:module_info(module) end),
    t(module_info_exports, fun() -> lists:sort(?MODULE:module_info(exports)) end),
    t(module_info_keys, fun() -> [K || {K, _} <- ?MODULE:module_info()] end),
    t(module_info_attributes_has_vsn, fun() -> lists:keymember(vsn, 1, ?MODULE:module_info(attributes)) end),
    t(module_info_bad, fun() -> ?MODULE:module_info(id(nonsense)) end),
    t(stdlib_module_info, fun() -> {lists:module_info(module), lists:member({reverse, 1}, lists:module_info(exports))} end),
    t(wordsize, fun() -> erlang:system_info(wordsize) end),
    t(otp_release, fun() -> erlang:system_info(otp_release) end),
    t(machine, fun() -> erlang:system_info(machine) end),
    t(system_info_bad, fun() -> erlang:system_info(id(no_such_item)) end),
    t(make_ref_unique, fun() -> Refs = [make_ref() || _ <- lists:seq(1, 1000)], length(lists:usort(Refs)) end),
    t(make_ref_compare, fun() -> R1 = make_ref(), R2 = make_ref(), {R1 =:= R1, R1 =/= R2, is_reference(R1), R1 == R2} end),
    t(self_is_pid, fun() -> {is_pid(self()), self() =:= self(), node(self()) =:= node()} end),
    t(is_process_alive, fun() -> is_process_alive(self()) end),
    t(node, fun() -> node() end),
    t(pdict_put_get, fun() -> undefined = put(k1, v1), Old = put(k1, v2), {Old, get(k1), get(missing)} end),
    t(pdict_erase, fun() -> put(k2, x), {erase(k2), erase(k2), get(k2)} end),
    t(pdict_keys, fun() -> erase(), put(a, 1), put(b, 2), put(c, 1), {lists:sort(get_keys()), lists:sort(get_keys(1))} end),
    t(pdict_get_all, fun() -> lists:sort(get()) end),
    t(pdict_complex_key, fun() -> put({x, [1]}, <<"v">>), get({x, [1]}) end),
    t(erase_all, fun() -> erase(), get() end),
    t(function_exported, fun() -> {erlang:function_exported(?MODULE, exported, 2), erlang:function_exported(lists, nope, 9)} end),
    t(is_builtin, fun() -> {erlang:is_builtin(erlang, element, 2), erlang:is_builtin(lists, map, 2)} end),
    t(atom_to_term_of_mfa, fun() -> {?MODULE, ?FUNCTION_NAME, ?FUNCTION_ARITY} end),
    ok.
