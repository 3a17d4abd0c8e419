#!/usr/bin/env bash
# Usage: tests/dist/capture/capture.sh [OUTDIR]
# Records the distribution packets two erl nodes exchange (capture_scenario.erl) through a TCP
# proxy (capture_proxy.erl) and writes them to OUTDIR (default tests/unit/data/dist):
#   a_to_b.dist.gz, b_to_a.dist.gz  the packets after the handshake as on the wire (4-byte length,
#                                   packet), gzip-compressed
#   a_to_b.expected                 term_to_binary of the messages a sent to b's sink
# Node b listens on a fixed port; node a reaches it through the proxy because its epmd module
# (capture_epmd.erl) gives the proxy's port for b. Everything is on 127.0.0.1 and ends by itself.
# The unit test tests/unit/dist_wire_capture.cpp reads the result; rerun this after changing the
# scenario (the files differ from run to run: pids, creations, tick timing).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(realpath -m "${1:-$here/../../unit/data/dist}")
mkdir -p "$out"
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
erlc -o "$work" "$here"/*.erl
epmd -daemon
port_b=$((20000 + RANDOM % 20000))
port_proxy=$((port_b + 1))
host=$(hostname -s)
cookie=capture_cookie_$$

timeout 120 erl -sname capture_b -setcookie "$cookie" -noshell -pa "$work" \
  -kernel inet_dist_listen_min $port_b inet_dist_listen_max $port_b -s capture_scenario sink &
pids+=($!)
timeout 120 erl -noshell -pa "$work" -s capture_proxy start $port_proxy $port_b "$out" &
proxy=$!
pids+=($proxy)
for _ in $(seq 50); do
  epmd -names | grep -q "name capture_b " && break
  sleep 0.2
done
CAPTURE_TARGET=capture_b CAPTURE_PROXY_PORT=$port_proxy timeout 120 \
  erl -sname capture_a -setcookie "$cookie" -noshell -pa "$work" -epmd_module capture_epmd \
  -s capture_scenario send "capture_b@$host" "$out"
wait "$proxy"
ls -l "$out"
