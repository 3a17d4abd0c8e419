#!/usr/bin/env bash
# Usage: tests/dist/this_node.sh BEAMVM
# This node's own life as a distributed node (dist_this_node.erl), run on erl and on BEAMVM
# against the same erl peer node: net_kernel:start/stop with monitor_nodes subscribers and a
# connection up, then a dynamically named node (-sname undefined). The outputs must be equal.
# Bounded: the peer halts itself after 60 s, every run is under timeout, and the peer is
# killed when the script ends.
set -u
[ $# -eq 1 ] || { echo "usage: $0 BEAMVM" >&2; exit 2; }
beamvm=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
peer_pid=
trap '[ -n "$peer_pid" ] && kill "$peer_pid" 2>/dev/null; rm -rf "$work"' EXIT
erlc -o "$work" "$here/dist_this_node.erl" || exit 1
tag=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
cookie=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
peer="p$tag@$(hostname -s)"
timeout -k 2 60 erl -noshell -sname "p$tag" -setcookie "$cookie" -eval 'timer:sleep(60000), halt().' \
  </dev/null >/dev/null 2>&1 &
peer_pid=$!
for _ in $(seq 50); do epmd -names 2>/dev/null | grep -q "name p$tag " && break; sleep 0.1; done
cd "$work" || exit 1  # a crashing run leaves its erl_crash.dump there
status=0
for mode in static dynamic; do
  args=()
  [ $mode = dynamic ] && args=(-sname undefined)
  e=$(timeout 30 erl -noshell -setcookie "$cookie" "${args[@]}" -pa "$work" -run dist_this_node main $mode "$peer" 2>&1 </dev/null)
  b=$(timeout 30 "$beamvm" -noshell -setcookie "$cookie" "${args[@]}" -pa "$work" -run dist_this_node main $mode "$peer" 2>&1 </dev/null)
  if [ "$e" = "$b" ] && [ -n "$e" ] && ! grep -q "init terminating" <<<"$e"; then
    echo "same ($mode): $(echo "$e" | wc -l) lines"
    [ -n "${VERBOSE:-}" ] && echo "$e"
  else
    echo "differs, or failed ($mode):"; diff <(echo "$e") <(echo "$b"); echo "--- erl:"; echo "$e"; status=1
  fi
done
exit $status
