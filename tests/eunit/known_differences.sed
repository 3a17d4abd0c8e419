# Differences between erl and beamvm that tools/eunit_compare.sh masks in both outputs, each
# with its reason; the script says how many lines each run had masked. Remove an entry when
# beamvm stops differing.
#
# Pid numbers printed by ?debugMsg (and ?debugFmt, ?debugVal, ?debugHere): on a host whose
# name has no domain part, erl's kernel start (inet_config) reads the host name through a UDP
# socket and looks it up through a one-shot inet_gethost_native process; beamvm has no inet
# drivers (docs/ports.md), never learns the name and spawns no such process, so every pid made
# after inet_db starts is one lower than on erl (docs/boot.md, "Pids").
s/^([^ :]+\.erl:[0-9]+:)<0\.[0-9]+\.0>: /\1<PID>: /
