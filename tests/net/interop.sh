#!/usr/bin/env bash
# Usage: tests/net/interop.sh [--sides both|server|client] [--work DIR] BEAMVM [PROTOCOL ...]
#   PROTOCOL: tcp udp http (the default set), https tls12 tls13 ssh
# Networking between two VMs (issue 23): a server on one VM serves a client on another, over
# loopback, for TCP in every receiving packet mode (interop_tcp.erl), UDP (interop_udp.erl)
# HTTP, inets' httpc against inets' httpd (interop_http.erl), and (issue 24, OTP's crypto.so
# under ssl and ssh) TLS 1.2 and 1.3 echoes (interop_tls.erl), HTTPS (interop_http.erl's https
# mode) and an SSH daemon with exec and sftp (interop_ssh.erl). For each protocol:
#   reference      erl server, erl client
#   beamvm-server  BEAMVM server, erl client     (--sides both or server)
#   beamvm-client  erl server, BEAMVM client     (--sides both or client)
# and both the server's and the client's output (no ports or times in them) must equal the
# reference's byte for byte. BEAMVM may be `erl` itself, which checks the test's own
# machinery: tests/net/interop.sh erl.
# The server writes its port(s) to a file when it listens; the script waits for it at most
# READY_S seconds (default 20), runs the client for at most RUN_S seconds (default 60), then
# waits for the server to end by itself (it halts after the client's last case) at most
# GRACE_S seconds (default 10) and stops it past that. Exit status 0 when every pair agreed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
sides=both
work=
while [ $# -gt 0 ]; do
  case $1 in
    --sides) sides=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
if [ $# -lt 1 ]; then
  echo "usage: $0 [--sides both|server|client] [--work DIR] BEAMVM [tcp|udp|http|https|tls12|tls13|ssh ...]" >&2
  exit 2
fi
beamvm=$1
shift
protos=("$@")
[ ${#protos[@]} -eq 0 ] && protos=(tcp udp http)
ready_s=${READY_S:-20}
run_s=${RUN_S:-60}
grace_s=${GRACE_S:-10}
if [ -z "$work" ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work/ebin"
erlc -o "$work/ebin" "$here"/interop_*.erl || exit 1

# alive PID: the process runs (an exited child stays a zombie until `wait`, and kill -0 would
# still succeed on it).
alive() { local st; st=$(cat "/proc/$1/stat" 2>/dev/null) || return 1; [[ $st != *") Z "* ]]; }

# run_pair NAME PROTO SERVER_VM CLIENT_VM: leaves NAME.server and NAME.client in $work.
run_pair() {
  local name=$1 proto=$2 server_vm=$3 client_vm=$4 dir=$work/$1 pid i mod=interop_$2 extra=() cextra=()
  rm -rf "$dir"
  mkdir -p "$dir"
  case $proto in
    http) mkdir -p "$dir/docroot"; extra=("$dir/docroot") ;;
    https) mod=interop_http; mkdir -p "$dir/docroot"; extra=("$dir/docroot" https); cextra=(https) ;;
    tls1[23]) mod=interop_tls; extra=("1.${proto#tls1}"); cextra=("${extra[@]}") ;;
    ssh) mkdir -p "$dir/sshd" "$dir/ssh_user"; extra=("$dir/sshd"); cextra=("$dir/ssh_user") ;;
  esac
  timeout -k 5 "$((ready_s + 2 * run_s))" "$server_vm" -noshell -pa "$work/ebin" \
    -run "$mod" server "$dir/port" "${extra[@]}" </dev/null >"$dir/server" 2>&1 &
  pid=$!
  for ((i = 0; i < ready_s * 10; i++)); do
    [ -s "$dir/port" ] && break
    alive $pid || break
    sleep 0.1
  done
  if [ -s "$dir/port" ]; then
    timeout -s KILL "$run_s" "$client_vm" -noshell -pa "$work/ebin" \
      -run "$mod" client "$dir/port" "${cextra[@]}" </dev/null >"$dir/client" 2>&1 ||
      echo "(client exit status $?)" >>"$dir/client"
  else
    echo "(no client: the server wrote no port within ${ready_s} s)" >"$dir/client"
  fi
  # The server halts by itself after the client's last case; if the client died before it,
  # the server is stopped GRACE_S seconds after (timeout passes the TERM on to it).
  for ((i = 0; i < grace_s * 10; i++)); do
    alive $pid || break
    sleep 0.1
  done
  if alive $pid; then
    kill -TERM $pid
    echo "(server still running ${grace_s} s after the client ended: stopped)" >>"$dir/server"
  fi
  wait $pid 2>/dev/null
}

status=0
for proto in "${protos[@]}"; do
  case $proto in tcp|udp|http|https|tls12|tls13|ssh) ;; *) echo "unknown protocol $proto" >&2; exit 2 ;; esac
  run_pair reference "$proto" erl erl
  # A reference that did not run through compares equal to another broken run: require it whole.
  if ! grep -qx 'server done' "$work/reference/server" || ! grep -qx 'client done' "$work/reference/client"; then
    echo "--- $proto: the all-erl reference run did not finish:"
    tail -5 "$work/reference/server" "$work/reference/client"
    status=1
    continue
  fi
  pairs=()
  [ "$sides" != client ] && pairs+=("beamvm-server $beamvm erl")
  [ "$sides" != server ] && pairs+=("beamvm-client erl $beamvm")
  for p in "${pairs[@]}"; do
    read -r name server_vm client_vm <<<"$p"
    run_pair "$name" "$proto" "$server_vm" "$client_vm"
    verdict=ok
    for side in server client; do
      if ! cmp -s "$work/reference/$side" "$work/$name/$side"; then
        verdict=FAIL
        echo "--- $proto $name: the $side's output differs from the all-erl run (< erl, > $name)"
        diff "$work/reference/$side" "$work/$name/$side" | head -40
      fi
    done
    [ $verdict = FAIL ] && status=1
    printf '%-5s %-14s server %-8s client %-8s %s (%d lines)\n' "$proto" "$name" \
      "$(basename "$server_vm")" "$(basename "$client_vm")" $verdict \
      "$(cat "$work/$name/server" "$work/$name/client" | wc -l)"
  done
done
exit $status
