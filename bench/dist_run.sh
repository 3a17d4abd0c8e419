#!/usr/bin/env bash
# Usage: bench/dist_run.sh [--quick] [--runs N] [--pairs "erl-erl beamvm-beamvm ..."] [--proto gen_tcp] [BENCH...]
# Node-to-node benchmarks (issue 25) between two nodes on 127.0.0.1 (-name, a fresh random
# cookie), bench/dist/dist_bench.erl, for each pair of VMs SENDER-RECEIVER in one run:
#   erl-erl  beamvm-beamvm  beamvm-erl  erl-beamvm
# (erl on PATH, BEAMVM default build/beamvm). The receiving node starts first and waits; the
# sending node connects, spawns its receiver there and times only the traffic:
#   small     one-way 3-tuples, windowed by acks every 1,000 (2 windows in flight), msgs/s
#   bin_1mib  one-way 1 MiB binaries, windowed by acks every 4, MB/s (10^6 bytes/s)
#   rtt       ping-pong round trips one at a time, microseconds per round trip (lower is
#             better)
# The last column is beamvm-beamvm against erl-erl as a speed ratio: ABOVE 1, beamvm is
# faster (for rtt the inverse of the times' ratio). Every pair must print the same `check`
# line (the receiver's count); a pair that prints another, fails or exceeds
# DIST_BENCH_TIMEOUT seconds (default 120) is marked FAIL.
# --quick    small counts (a CI size: a few seconds in all per pair)
# --runs N   each measurement N times, interleaved, the median reported
# --pairs    only these pairs (e.g. --pairs erl-erl to check the benchmark itself)
# --proto gen_tcp  both nodes with `-proto_dist gen_tcp` (OTP's gen_tcp_dist example, from
#            Debian's erlang-examples): connections carried by processes (erlang:dist_ctrl_*)
# BENCH...   only these rows
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
beamvm=${BEAMVM:-$root/build/beamvm}
quick=0
runs=1
pairs=(erl-erl beamvm-beamvm beamvm-erl erl-beamvm)
only=()
proto=()
usage() { echo "usage: $0 [--quick] [--runs N] [--pairs \"P...\"] [--proto gen_tcp] [BENCH...]" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1 ;;
    --runs)
      if [ $# -lt 2 ] || ! [[ $2 =~ ^[1-9][0-9]*$ ]]; then usage; fi
      runs=$2; shift ;;
    --pairs) [ $# -ge 2 ] || usage; read -r -a pairs <<<"$2"; shift ;;
    --proto) [ $# -ge 2 ] || usage; proto=(-proto_dist "$2"); shift ;;
    -*) usage ;;
    *) only+=("$1") ;;
  esac
  shift
done
limit=${DIST_BENCH_TIMEOUT:-120}

# name | unit | full count | quick count. Full sizes: about 1-3 s each erl-erl on the
# project's 2-core machine.
benches=(
  "small|msgs/s|300000|30000"
  "bin_1mib|MB/s|500|50"
  "rtt|us/rtt|20000|2000"
)

work=$(mktemp -d)
server_pid=
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
erlc -o "$work" "$root"/bench/dist/*.erl || exit 1
if [ ${#proto[@]} -gt 0 ]; then
  src=$(ls /usr/lib/erlang/lib/kernel-*/examples/"${proto[1]}"_dist/src/"${proto[1]}"_dist.erl 2>/dev/null | head -1)
  [ -n "$src" ] || { echo "no ${proto[1]}_dist.erl (Debian's erlang-examples)" >&2; exit 1; }
  erlc -o "$work" "$src" || exit 1
fi
for p in "${pairs[@]}"; do
  if [[ $p == *beamvm* ]] && [ ! -x "$beamvm" ]; then echo "no beamvm at $beamvm (set BEAMVM)" >&2; exit 1; fi
done

prog() { if [ "$1" = beamvm ]; then echo "$beamvm"; else echo erl; fi; }
median() { sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
fmt() { if [ -n "$1" ]; then printf '%.1f' "$1"; else echo -; fi; }
# speed ratio of beamvm-beamvm to erl-erl: rates divide one way, times the other
ratio() {
  awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { if (a == "" || b == "" || a <= 0 || b <= 0) print "-";
    else if (t == "time") printf "%.2f", b / a; else printf "%.2f", a / b }'
}

# run_one OUT SENDER RECEIVER BENCH COUNT: prints the rate, leaves the check line in OUT.
run_one() {
  local out=$1 sender=$2 receiver=$3 bench=$4 count=$5 tag cookie rate st=0
  tag=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
  cookie=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
  timeout -k 2 "$limit" "$(prog "$receiver")" -noshell -name "r$tag@127.0.0.1" -setcookie "$cookie" "${proto[@]}" \
    -pa "$work" -eval 'dist_bench:serve()' </dev/null >"$out.server" 2>&1 &
  server_pid=$!
  timeout -k 2 "$limit" "$(prog "$sender")" -noshell -name "s$tag@127.0.0.1" -setcookie "$cookie" "${proto[@]}" \
    -pa "$work" -eval "dist_bench:run('r$tag@127.0.0.1', $bench, $count), halt()." \
    </dev/null >"$out.raw" 2>"$out.err" || st=1
  # The sender halts the receiving node when it is done; a stuck one is stopped here.
  for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
  kill "$server_pid" 2>/dev/null
  wait "$server_pid" 2>/dev/null
  server_pid=
  [ $st = 0 ] || return 1
  rate=$(sed -n 's/^rate \([0-9.]*\) .*/\1/p' "$out.raw")
  [ -n "$rate" ] || return 1
  grep '^check ' "$out.raw" >"$out"
  echo "$rate"
}

echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); size: $([ $quick = 1 ] && echo quick || echo full);" \
     "runs per pair: $runs (median); traffic timed inside the sending node, start-up and connection excluded"
echo "  erl: $(command -v erl); beamvm: $beamvm${proto[1]:+; -proto_dist ${proto[1]}}"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-9s %-7s' bench unit
for p in "${pairs[@]}"; do printf ' %14s' "$p"; done
printf ' %12s\n' "bvm/erl"
status=0
for row in "${benches[@]}"; do
  IFS='|' read -r name unit full small <<<"$row"
  if [ ${#only[@]} -gt 0 ] && [[ " ${only[*]} " != *" $name "* ]]; then continue; fi
  count=$full
  [ $quick = 1 ] && count=$small
  note=
  for p in "${pairs[@]}"; do : >"$work/$name.$p.rates"; done
  rm -f "$work/$name.ref"
  for ((r = 1; r <= runs; r++)); do
    for p in "${pairs[@]}"; do
      if ! rate=$(run_one "$work/$name.$p.out" "${p%-*}" "${p#*-}" "$name" "$count"); then
        [[ $note == *" $p failed"* ]] && continue
        note="$note $p failed: $(cat "$work/$name.$p.out.raw" "$work/$name.$p.out.err" 2>/dev/null |
          grep -v '^check ' | head -c 160 | tr '\n' ' ');"
        continue
      fi
      echo "$rate" >>"$work/$name.$p.rates"
      if [ -f "$work/$name.ref" ]; then
        cmp -s "$work/$name.ref" "$work/$name.$p.out" || note="$note $p check differs: $(cat "$work/$name.$p.out");"
      else
        cp "$work/$name.$p.out" "$work/$name.ref"
      fi
    done
  done
  declare -A m=()
  line=$(printf '%-9s %-7s' "$name" "$unit")
  for p in "${pairs[@]}"; do
    m[$p]=
    [ -s "$work/$name.$p.rates" ] && m[$p]=$(median <"$work/$name.$p.rates")
    line="$line $(printf ' %14s' "$(fmt "${m[$p]}")")"
  done
  kind=rate
  [ "$name" = rtt ] && kind=time
  line="$line $(printf ' %12s' "$(ratio "${m[beamvm-beamvm]:-}" "${m[erl-erl]:-}" $kind)")"
  if [ -n "$note" ]; then status=1; line="$line  FAIL:$note"; fi
  echo "$line"
  unset m
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
exit $status
