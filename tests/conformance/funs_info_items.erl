%% erlang:fun_info/2 items pid (the fun's creator, not the caller) and refc (undefined for
%% an export fun).
-module(funs_info_items).
-export([main/0]).
t(L, F) -> erlang:display({L, try F() catch C:R -> {C, R} end}).
main() ->
  Self = self(),
  F = fun(X) -> X end,
  {P, R} = spawn_monitor(fun() -> Self ! {made, fun() -> self() end} end),
  G = receive {made, Fun} -> Fun end,
  receive {'DOWN', R, _, _, _} -> ok end,
  t(own_pid, fun() -> erlang:fun_info(F, pid) =:= {pid, self()} end),
  t(other_pid, fun() -> erlang:fun_info(G, pid) =:= {pid, P} end),
  t(ext_refc, fun() -> erlang:fun_info(fun lists:map/2, refc) end),
  t(ext_pid, fun() -> erlang:fun_info(fun lists:map/2, pid) end),
  ok.
