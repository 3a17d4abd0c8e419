#!/usr/bin/env bash
# Usage: tests/dist/cluster.sh [--work DIR] [--layouts "ref mixed"] [--proto gen_tcp|inet_tls] BEAMVM GROUP
#   GROUP: spawn rpc messages pg failover cookie (see dist_driver.erl's group/3)
# A cluster of three named nodes a, b and c on 127.0.0.1 (-name, a fresh random cookie)
# and a hidden erl driver node that runs GROUP's cases (tests/dist/dist_cases.erl) on each
# node towards each other node and prints what they returned, node names, pids, refs and
# ports replaced by the role of their node. It runs on two layouts:
#   ref    a, b, c on erl
#   mixed  a and b on $VM_A and $VM_B (default BEAMVM), c on $VM_C (default erl)
# and the driver's output on mixed must equal ref's byte for byte. BEAMVM may be `erl`
# itself, which checks the test's own machinery. The cookie group adds node w (a cookie
# the others do not know, on $VM_B) and node v (no -setcookie and an empty $HOME, on $VM_A).
# Bounded: each node halts itself after 300 s (dist_node.erl) and runs under timeout; the
# driver waits at most 30 s for the nodes to come up and 20 s per case; every node left is
# killed when the script ends, on failure too. Exit status 0 when the outputs agree.
# --proto gen_tcp: every node (and the driver) runs with `-proto_dist gen_tcp`, OTP's
# gen_tcp_dist example (Debian's erlang-examples, compiled here): each connection is carried
# by a process through erlang:dist_ctrl_* instead of by a port. --proto inet_tls: TLS
# distribution (ssl's inet_tls_dist, also process-carried: tls_sender and ssl_gen_statem),
# with certificates from a test CA made for the run (dist_tls_certs.erl), verified both ways.
set -u
here=$(cd "$(dirname "$0")" && pwd)
work=
layouts="ref mixed"
proto=()
while [ $# -gt 0 ]; do
  case $1 in
    --work) work=$2; shift 2 ;;
    --layouts) layouts=$2; shift 2 ;;
    --proto) proto=(-proto_dist "$2"); shift 2 ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
if [ $# -ne 2 ]; then
  echo "usage: $0 [--work DIR] [--layouts \"ref mixed\"] [--proto gen_tcp|inet_tls] BEAMVM spawn|rpc|messages|pg|failover|cookie" >&2
  exit 2
fi
beamvm=$1
group=$2
node_limit=${NODE_LIMIT_S:-$((300 * ${BEAMVM_TEST_TIME_SCALE:-1}))}
if [ -z "$work" ]; then
  work=$(mktemp -d)
  trap 'stop_all; rm -rf "$work"' EXIT
else
  trap 'stop_all' EXIT
fi
. "$here/node_procs.sh"  # pids, stop_all

mkdir -p "$work/ebin"
erlc -o "$work/ebin" "$here"/dist_*.erl || exit 1
case ${proto[1]:-} in
  "") ;;
  inet_tls)
    erl -noshell -pa "$work/ebin" -run dist_tls_certs main "$work/tls_dist.conf" || exit 1
    proto+=(-ssl_dist_optfile "$work/tls_dist.conf") ;;
  *)
    src=$(ls /usr/lib/erlang/lib/kernel-*/examples/"${proto[1]}"_dist/src/"${proto[1]}"_dist.erl 2>/dev/null | head -1)
    [ -n "$src" ] || { echo "no ${proto[1]}_dist.erl (Debian's erlang-examples)" >&2; exit 1; }
    erlc -o "$work/ebin" "$src" || exit 1 ;;
esac

random_cookie() { od -An -N12 -tx1 /dev/urandom | tr -d ' \n'; }

# start_node DIR ROLE VM TAG COOKIE [ENV...]: a node named ROLE<TAG>@127.0.0.1; COOKIE "-"
# for none.
start_node() {
  local dir=$1 role=$2 vm=$3 tag=$4 cookie=$5 cookie_args=()
  shift 5
  [ "$cookie" != - ] && cookie_args=(-setcookie "$cookie")
  env "$@" timeout -k 2 "$node_limit" "$vm" -noshell -name "$role$tag@127.0.0.1" "${cookie_args[@]}" "${proto[@]}" \
    -pa "$work/ebin" -eval 'dist_node:start()' </dev/null >"$dir/$role.log" 2>&1 &
  pids+=($!)
  disown $!  # the failover group kills nodes: no "Killed" notes from bash
}

# run_layout NAME VM_A VM_B VM_C: leaves the driver's output in $work/NAME/out.
run_layout() {
  local name=$1 vma=$2 vmb=$3 vmc=$4 dir=$work/$1 tag cookie args=() wcookie
  rm -rf "$dir"
  mkdir -p "$dir"
  tag=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
  cookie=$(random_cookie)
  start_node "$dir" a "$vma" "$tag" "$cookie"
  start_node "$dir" b "$vmb" "$tag" "$cookie"
  start_node "$dir" c "$vmc" "$tag" "$cookie"
  args=("a=a$tag@127.0.0.1" "b=b$tag@127.0.0.1" "c=c$tag@127.0.0.1")
  if [ "$group" = cookie ]; then
    wcookie=$(random_cookie)
    mkdir -p "$dir/home_v"
    start_node "$dir" w "$vmb" "$tag" "$wcookie"
    start_node "$dir" v "$vma" "$tag" - HOME="$dir/home_v"
    args+=("w=w$tag@127.0.0.1" "v=v$tag@127.0.0.1" "wcookie=$wcookie" "vhome=$dir/home_v")
  fi
  timeout -k 2 "$node_limit" erl -noshell -hidden -name "t$tag@127.0.0.1" -setcookie "$cookie" "${proto[@]}" \
    -pa "$work/ebin" -eval 'dist_driver:main()' -extra "$group" "${args[@]}" \
    </dev/null >"$dir/out" 2>"$dir/driver.err" || echo "(driver exit status $?)" >>"$dir/out"
  stop_all
}

status=0
for layout in $layouts; do
  case $layout in
    ref) run_layout ref erl erl erl ;;
    mixed) run_layout mixed "${VM_A:-$beamvm}" "${VM_B:-$beamvm}" "${VM_C:-erl}" ;;
    *) echo "unknown layout $layout" >&2; exit 2 ;;
  esac
done
set -- $layouts
first=$1
for layout in $layouts; do
  if [ "$layout" = "$first" ]; then
    echo "== $group on $layout: $(wc -l <"$work/$layout/out") lines"
    [ -n "$(cat "$work/$layout/out")" ] || status=1
  elif cmp -s "$work/$first/out" "$work/$layout/out"; then
    echo "== $group on $layout: same output as $first"
  else
    status=1
    echo "== $group on $layout differs from $first:"
    diff "$work/$first/out" "$work/$layout/out" | head -40
  fi
done
# The erl-only output itself must show no crash or timeout (the cases' own failure marks).
if grep -q 'crashed\|missing\|driver failed\|driver exit status\|not_seen' "$work/$first/out"; then
  echo "== $first output has failures:"
  grep 'crashed\|missing\|driver failed\|driver exit status\|not_seen' "$work/$first/out" | head -20
  status=1
fi
if [ $status != 0 ] || [ -n "${VERBOSE:-}" ]; then
  for layout in $layouts; do
    echo "---- $layout: driver output"; cat "$work/$layout/out"
    for f in "$work/$layout"/*.log "$work/$layout/driver.err"; do
      [ -s "$f" ] && { echo "---- $layout: $(basename "$f")"; tail -20 "$f"; }
    done
  done
fi
exit $status
