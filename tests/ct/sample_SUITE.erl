%% A small common_test suite that exercises what ct_run does: groups with
%% sequence/parallel/shuffle properties, init/end_per_* at every level,
%% timetraps, data_dir/priv_dir, user skips, failures, auto-skips after a
%% failing init_per_group, ct:log/ct:pal/ct:comment. tests/ct/ct_compare.sh
%% runs it on erl and on beamvm and compares the results ct reports.
-module(sample_SUITE).
-include_lib("common_test/include/ct.hrl").
-compile([export_all, nowarn_export_all]).

suite() -> [{timetrap, {seconds, 60}}].

all() ->
    [ok_case, failing_case, user_skip_case, skipped_by_init_case,
     data_dir_case, priv_dir_case, log_case, comment_case, timetrap_case,
     config_case, {group, seq_group}, {group, par_group},
     {group, shuffle_group}, {group, broken_group}, {group, skipped_group},
     {group, outer_group}].

groups() ->
    [{seq_group, [sequence], [seq_first, seq_fails, seq_after_failure]},
     {par_group, [parallel], [par_a, par_b, par_c]},
     {shuffle_group, [{shuffle, {1, 2, 3}}], [shuf_a, shuf_b, shuf_c]},
     {broken_group, [], [never_runs_a, never_runs_b]},
     {skipped_group, [], [never_runs_c]},
     {outer_group, [], [outer_case, {group, inner_group}]},
     {inner_group, [parallel], [inner_a, inner_b]}].

init_per_suite(Config) ->
    ct:log("init_per_suite ~p", [length(Config)]),
    [{suite_value, 42} | Config].

end_per_suite(_Config) ->
    ok.

init_per_group(broken_group, _Config) ->
    erlang:error(broken_on_purpose);
init_per_group(skipped_group, _Config) ->
    {skip, "group skipped on purpose"};
init_per_group(Group, Config) ->
    [{group_name, Group} | Config].

end_per_group(_Group, _Config) ->
    ok.

init_per_testcase(skipped_by_init_case, _Config) ->
    {skip, "skipped by init_per_testcase"};
init_per_testcase(Case, Config) ->
    [{case_name, Case} | Config].

end_per_testcase(_Case, _Config) ->
    ok.

ok_case(Config) ->
    42 = ?config(suite_value, Config),
    ok_case = ?config(case_name, Config),
    ok.

failing_case(Config) ->
    2 = length(lists:duplicate(?config(suite_value, Config) div 42, x)).

user_skip_case(_Config) ->
    {skip, "skipped by the case itself"}.

skipped_by_init_case(_Config) ->
    ok.

data_dir_case(Config) ->
    Dir = ?config(data_dir, Config),
    {ok, <<"hello from data_dir\n">>} =
        file:read_file(filename:join(Dir, "greeting.txt")),
    ok.

priv_dir_case(Config) ->
    Priv = ?config(priv_dir, Config),
    File = filename:join(Priv, "scratch.txt"),
    ok = file:write_file(File, <<"written">>),
    {ok, <<"written">>} = file:read_file(File),
    true = filelib:is_dir(Priv),
    ok.

log_case(_Config) ->
    ct:log("a line for the case log: ~p", [{some, term}]),
    ct:pal("a line for the case log and the console"),
    ct:print("a line for the console only"),
    ok.

comment_case(_Config) ->
    ct:comment("a comment for the html log"),
    ok.

timetrap_case(_Config) ->
    ct:timetrap({seconds, 1}),
    receive never_sent -> ok end.

config_case(Config) ->
    true = is_list(?config(tc_group_properties, Config)) orelse
        undefined =:= ?config(tc_group_properties, Config),
    ok.

seq_first(_Config) -> ok.
seq_fails(_Config) -> exit(sequence_broken).
seq_after_failure(_Config) -> ok.

par_a(Config) -> par_group = ?config(group_name, Config), ok.
par_b(_Config) -> timer:sleep(10), ok.
par_c(_Config) -> {skip, "parallel skip"}.

shuf_a(_Config) -> ok.
shuf_b(_Config) -> ok.
shuf_c(_Config) -> ok.

never_runs_a(_Config) -> ok.
never_runs_b(_Config) -> ok.
never_runs_c(_Config) -> ok.

outer_case(Config) -> outer_group = ?config(group_name, Config), ok.
inner_a(Config) -> inner_group = ?config(group_name, Config), ok.
inner_b(_Config) -> throw(thrown_in_parallel).
