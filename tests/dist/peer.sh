#!/usr/bin/env bash
# Usage: tests/dist/peer.sh BEAMVM nodist|dist
# OTP's peer started from BEAMVM and from erl (tests/dist/dist_peer.erl): the peer is the
# starting VM by default (init's progname), over peer's alternative connections (nodist:
# standard_io, {IP, Port} with -detached; no distribution on either side) or over
# distribution (dist: the starting node is -name p<tag>@127.0.0.1 with a fresh random cookie,
# the peers get names as ?CT_PEER gives them, and one peer is erl). BEAMVM's output must equal
# erl's. Bounded by timeout (120 s per VM); peers halt when their origin goes away.
set -u
here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 2 ] || { echo "usage: $0 BEAMVM nodist|dist" >&2; exit 2; }
beamvm=$1
mode=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
erlc -o "$work" "$here/dist_peer.erl" || exit 1
run() {
  local vm=$1 out=$2 name=()
  if [ "$mode" = dist ]; then
    name=(-name "p$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')@127.0.0.1"
          -setcookie "$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')")
  fi
  # Only dist_peer's own lines ("peer ...") are compared: the log's reports carry times.
  timeout -k 2 120 "$vm" -noshell "${name[@]}" -pa "$work" -run dist_peer main "$mode" \
    </dev/null >"$out.all" 2>"$out.err" || echo "peer (exit status $?)" >>"$out.all"
  grep '^peer ' "$out.all" >"$out"
}
run erl "$work/erl"
run "$beamvm" "$work/beamvm"
status=0
if grep -q 'failed\|exit status' "$work/erl"; then echo "erl's run failed:"; status=1; fi
if cmp -s "$work/erl" "$work/beamvm"; then
  echo "peer $mode: same output on $beamvm as on erl ($(wc -l <"$work/erl") peers)"
else
  echo "peer $mode: $beamvm differs from erl:"; diff "$work/erl" "$work/beamvm"; status=1
fi
if [ $status != 0 ] || [ -n "${VERBOSE:-}" ]; then
  for v in erl beamvm; do echo "---- $v"; cat "$work/$v.all"; tail -5 "$work/$v.err"; done
fi
exit $status
