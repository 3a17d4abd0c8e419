#!/usr/bin/env bash
# Usage: tests/dist/hostile_peer.sh [--work DIR] VM [PACKETS]
# A hostile distribution peer against a target node t<tag>@127.0.0.1 running on VM (beamvm,
# or erl to check the test itself), tests/dist/dist_hostile.erl playing all roles:
#   target    VM with a random cookie, an echo server and a sink
#   observer  an erl node sending sequence-numbered messages through the target's echo
#             during the attack: none may be lost or reordered
#   attacker  plain erl with gen_tcp (no distribution): epmd lookup, malformed handshakes and
#             a wrong cookie (each must be closed by the target), then PACKETS mutated
#             distribution packets (default $HOSTILE_PACKETS or 3000; issue 25's full run is
#             100000) over correct handshakes, reconnecting when the target closes.
# Passes when the attacker and observer succeed, the target's OS process is still running
# with its memory below 1 GiB, it logged its refusals, and it left no core file.
# Bounded: every node runs under timeout (120 s + 10 ms per packet) and all are killed at
# the end, on failure too. $WORK/outcomes lists "worker packet processed/refused" for each
# mutated packet: runs with one HOSTILE_SEED on erl and on beamvm compare packet by packet.
set -u
here=$(cd "$(dirname "$0")" && pwd)
work=
while [ $# -gt 0 ]; do
  case $1 in
    --work) work=$2; shift 2 ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: $0 [--work DIR] VM [PACKETS]" >&2
  exit 2
fi
vm=$1
case $vm in */*) vm=$(cd "$(dirname "$vm")" && pwd)/$(basename "$vm") ;; esac  # the target runs elsewhere
packets=${2:-${HOSTILE_PACKETS:-3000}}
limit=$((120 + packets / 100))
if [ -z "$work" ]; then
  work=$(mktemp -d)
  trap 'stop_all; rm -rf "$work"' EXIT
else
  rm -rf "$work"
  mkdir -p "$work"
  trap 'stop_all' EXIT
fi
mkdir -p "$work/ebin" "$work/target"
erlc -o "$work/ebin" "$here/dist_hostile.erl" || exit 1

. "$here/node_procs.sh"  # pids, stop_all

tag=$(printf %010d "$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')")  # one length: comparable runs
seed=${HOSTILE_SEED:-$tag}
cookie=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
target=t$tag@127.0.0.1

# The target runs in its own directory so that a core file it leaves is found there.
(cd "$work/target" && ulimit -c unlimited 2>/dev/null
 exec timeout -k 2 "$limit" "$vm" -noshell -name "$target" -setcookie "$cookie" \
   -pa "$work/ebin" -eval 'dist_hostile:target()') </dev/null >"$work/target.log" 2>&1 &
pids+=($!)
tpid=$!
disown $!  # killed at the end: no "Killed" note from bash
for _ in $(seq 300); do
  grep -q "^target .* up" "$work/target.log" && break
  sleep 0.1
done
vmpid=$(pgrep -P "$tpid" | head -1)
if ! grep -q "^target .* up" "$work/target.log" || [ -z "$vmpid" ]; then
  echo "== target did not come up"; cat "$work/target.log"; exit 1
fi

timeout -k 2 "$limit" erl -noshell -name "o$tag@127.0.0.1" -setcookie "$cookie" -pa "$work/ebin" \
  -eval 'dist_hostile:observer()' -extra "$target" "$work/stop" </dev/null >"$work/observer.log" 2>&1 &
pids+=($!)
opid=$!
sleep 1

start=$(date +%s)
is_erl=0
[ "$(basename "$vm")" = erl ] && is_erl=1  # skips the input erl 25.2.3 dies of
HOSTILE_TARGET_ERL=$is_erl timeout -k 2 "$limit" erl -noshell -pa "$work/ebin" -eval 'dist_hostile:attack()' \
  -extra "$target" "$cookie" "$packets" "$seed" "$work/outcomes" </dev/null >"$work/attacker.log" 2>&1
astatus=$?
touch "$work/stop"
wait "$opid"
ostatus=$?
secs=$(($(date +%s) - start))

status=0
alive=yes
kill -0 "$vmpid" 2>/dev/null || { alive=no; status=1; }
cores=$(find "$work/target" -name 'core*' -o -name erl_crash.dump | wc -l)  # erl's own crash dump too
[ "$cores" = 0 ] || status=1
[ $astatus = 0 ] || status=1
[ $ostatus = 0 ] || status=1
# erl and beamvm both log a refused challenge reply as dist_util does ("Connection attempt
# from node ... rejected") and bad data on a connection (erl: "Invalid distribution message"
# or nothing for an undecodable header; beamvm: "Got invalid data on distribution channel").
# The wrong cookie is tried 3 times (dist_hostile.erl): 3 such lines, as erl prints.
badcookie=$(grep -c 'Connection attempt from node .* rejected. Invalid challenge reply' "$work/target.log")
invalid=$(grep -c 'Invalid distribution message\|invalid data on distribution channel' "$work/target.log")
[ "$badcookie" = 3 ] || status=1
[ "$invalid" -gt 0 ] || status=1  # at least the fixed input {} (dist_hostile:fixed_inputs_refused/1)

echo "== hostile peer against $(basename "$vm"), seed $seed, ${secs}s"
grep '^attacker' "$work/attacker.log"
grep '^observer' "$work/observer.log"
echo "target: alive $alive, core or crash dump files $cores, log lines: $badcookie wrong cookie, $invalid invalid data"
if [ $status != 0 ] || [ -n "${VERBOSE:-}" ]; then
  for f in attacker observer target; do
    echo "---- $f.log (last 30 lines)"; tail -30 "$work/$f.log"
  done
fi
echo "== $([ $status = 0 ] && echo passed || echo FAILED)"
exit $status
