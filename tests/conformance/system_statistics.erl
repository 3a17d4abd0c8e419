%% statistics/1 items about run queues: one entry per scheduler, then the dirty CPU run queue,
%% then (the _all forms) the dirty I/O one; totals are their sums; the calling process counts
%% as an active task. Printed as shapes, since lengths vary with load and the machine.
-module(system_statistics).
-export([main/0]).

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

shape(L) when is_list(L) ->
    {length(L) - erlang:system_info(schedulers), lists:all(fun(N) -> is_integer(N) andalso N >= 0 end, L)};
shape(N) when is_integer(N), N >= 0 -> non_neg_integer;
shape(Other) -> Other.

main() ->
    Items = [run_queue_lengths, run_queue_lengths_all, total_run_queue_lengths,
             total_run_queue_lengths_all, active_tasks, active_tasks_all, total_active_tasks,
             total_active_tasks_all, scheduler_wall_time, scheduler_wall_time_all],
    [t(I, fun() -> shape(statistics(I)) end) || I <- Items],
    t(self_is_active, fun() -> statistics(total_active_tasks) >= 1 end),
    t(active_all_self, fun() -> lists:sum(statistics(active_tasks_all)) >= 1 end),
    t(sums, fun() -> {lists:sum(statistics(run_queue_lengths_all)) >= 0,
                      is_integer(statistics(total_run_queue_lengths_all))} end),
    t(bad_item, fun() -> statistics(total_bad_item) end),
    t(bad_item_all, fun() -> statistics(bad_item_all) end),
    ok.
