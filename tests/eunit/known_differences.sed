# Differences between erl and beamvm that tools/eunit_compare.sh masks in both outputs, each
# with its reason; the script says how many lines each run had masked. Remove an entry when
# beamvm stops differing.
#
# Pid numbers printed by ?debugMsg (and ?debugFmt, ?debugVal, ?debugHere): on a host whose
# name has no domain part, erl's kernel start looks the name up through inet_gethost_native,
# which spawns a one-shot process (kernel's inet_config, after reading the host name through a
# UDP socket); beamvm has no inet drivers (docs/ports.md), so it never learns the host name,
# spawns no such process, and every later pid is one lower (docs/architecture.md, "Pid
# numbers").
s/^([^ :]+\.erl:[0-9]+:)<0\.[0-9]+\.0>: /\1<PID>: /
