#!/usr/bin/env bash
# Usage: tests/dist/node_args.sh BEAMVM
# The distribution flags reach init as erlexec passes them: for each command line below,
# init:get_arguments() (without root, bindir and progname, which name the VM) and
# init:get_plain_arguments() must print the same on BEAMVM as on erl. Every line has
# `-kernel start_distribution false`, so no node starts distribution and nothing touches the
# network (epmd is started as for any -sname/-name node; -start_epmd false avoids even that).
set -u
[ $# -eq 1 ] || { echo "usage: $0 BEAMVM" >&2; exit 2; }
beamvm=$1
lines=(
  "-sname foo -setcookie abc -hidden -connect_all false"
  "-name foo@127.0.0.1 -proto_dist inet_tcp -epmd_module erl_epmd -kernel inet_dist_listen_min 9100 -kernel inet_dist_listen_max 9105"
  "-sname foo -no_epmd -proto_dist inet_tcp -noinput"
  "-name foo@127.0.0.1 -setcookie c1 -start_epmd false -extra -sname plain"
)
show='io:format("~p~n~p~n", [[A || A = {K, _} <- init:get_arguments(), not lists:member(K, [root, bindir, progname])], init:get_plain_arguments()]), halt().'
status=0
for l in "${lines[@]}"; do
  # shellcheck disable=SC2086
  e=$(timeout 30 erl -start_epmd false -kernel start_distribution false -noshell -eval "$show" $l 2>&1 </dev/null)
  # shellcheck disable=SC2086
  b=$(timeout 30 "$beamvm" -start_epmd false -kernel start_distribution false -noshell -eval "$show" $l 2>&1 </dev/null)
  if [ "$e" = "$b" ]; then
    echo "same: $l"
  else
    echo "differs: $l"; diff <(echo "$e") <(echo "$b"); status=1
  fi
done
exit $status
