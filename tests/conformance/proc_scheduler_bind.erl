%% process_flag(scheduler, N): binds the process to scheduler N (1..schedulers), 0 unbinds,
%% the old binding is returned, anything else is badarg; a bound process runs only there.
-module(proc_scheduler_bind).
-export([main/0]).
t(L, F) -> erlang:display({L, try F() catch C:R -> {C, R} end}).
spin(0) -> ok; spin(N) -> spin(N - 1).
main() ->
  N = erlang:system_info(schedulers),
  t(bind_1, fun() -> process_flag(scheduler, 1) end),
  t(old_is_1, fun() -> process_flag(scheduler, 1) end),
  t(runs_on_1, fun() -> lists:usort([begin spin(10000), erlang:yield(), erlang:system_info(scheduler_id) end || _ <- lists:seq(1, 50)]) -- [1] end),
  t(unbind, fun() -> process_flag(scheduler, 0) end),
  t(bind_last, fun() -> process_flag(scheduler, N) end),
  t(runs_on_last, fun() -> lists:usort([begin spin(10000), erlang:yield(), erlang:system_info(scheduler_id) end || _ <- lists:seq(1, 50)]) -- [N] end),
  t(too_big, fun() -> process_flag(scheduler, N + 1) end),
  t(negative, fun() -> process_flag(scheduler, -1) end),
  t(atom, fun() -> process_flag(scheduler, x) end),
  t(many_bound, fun() ->
      Self = self(),
      Ps = [spawn(fun() -> process_flag(scheduler, 1 + (I rem N)), spin(200000), erlang:yield(), Self ! {self(), I, erlang:system_info(scheduler_id)} end) || I <- lists:seq(1, 8)],
      lists:sort([receive {P, I, S} -> S =:= 1 + (I rem N) end || P <- Ps]) end),
  t(unbind_end, fun() -> process_flag(scheduler, 0) end),
  ok.
