#!/usr/bin/env bash
# Usage: bench/net_run.sh [--quick] [--runs N] [--no-idle] [BENCH...]
# Network benchmarks (issue 23), loopback only, each bounded in count and in time. Compiles
# bench/net/*.erl and runs each benchmark, in the same run, on
#   jit     erl on PATH (OTP's JIT)
#   emu     OTP's interpreter flavour, when present (found as bench/run.sh finds it: OTP_EMU, else
#           ../otp-emu or ../ext/otp-emu beside the repository)
#   beamvm  BEAMVM, default build/beamvm
# and prints per benchmark the rate on each VM and the ratios beamvm/emu and beamvm/jit of the
# rates: ABOVE 1, beamvm is faster (the reverse of bench/run.sh, which divides times).
#
#   tcp_echo_1k    net_tcp_echo: 100 connections, {packet,4}, {active,once}, 1 KiB messages, MB/s
#   tcp_echo_64k   the same with 64 KiB messages
#   tcp_echo_*_so  the same two over the socket module ({inet_backend, socket})
#   accept         net_accept: connect, accept into a process, close; 10 connectors; connections/s
#   udp_rtt        net_udp_rtt: 4 clients, 64-byte datagrams, one echo socket; round trips/s
#   http_gen_tcp   net_http: a gen_tcp {packet,http_bin} HTTP/1.1 server, 10 keep-alive
#                  connections; requests/s
#   http_httpd     the same client against inets' httpd (when erlang-inets is installed)
# Each benchmark runs inside one VM (server and clients) and times its own work, connection
# set-up and the VM's start-up excluded (see each module's header). Every VM must print the
# same `check ...` line (counts of what was echoed or answered correctly); a VM that prints
# another, fails or exceeds NET_BENCH_TIMEOUT seconds (default 120) is marked FAIL.
# After the table, bench/net_idle.sh measures 10,000 idle connections (--no-idle skips it;
# with --quick it holds 1,000 for 3 s).
#
# --quick    smaller counts (a few seconds in all per VM; a CI size)
# --runs N   runs each benchmark N times per VM, interleaved, and reports the median rate
# BENCH...   only these rows
# Env: BEAMVM, OTP_EMU, NET_BENCH_TIMEOUT.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bench/bench_lib.sh"
beamvm=${BEAMVM:-$root/build/beamvm}
emu_erl=$(locate_emu)
quick=0
runs=1
idle=1
only=()
usage() { echo "usage: $0 [--quick] [--runs N] [--no-idle] [BENCH...]" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1 ;;
    --no-idle) idle=0 ;;
    --runs)
      if [ $# -lt 2 ] || ! [[ $2 =~ ^[1-9][0-9]*$ ]]; then usage; fi
      runs=$2; shift ;;
    -*) usage ;;
    *) only+=("$1") ;;
  esac
  shift
done
limit=${NET_BENCH_TIMEOUT:-120}

# name | unit | full-size call | quick call. Sizes: about 1.5-3.5 s each on erl's JIT on the
# project's 2-core machine.
benches=(
  "tcp_echo_1k|MB/s|net_tcp_echo:run(1024, 100, 300)|net_tcp_echo:run(1024, 100, 30)"
  "tcp_echo_64k|MB/s|net_tcp_echo:run(65536, 100, 40)|net_tcp_echo:run(65536, 100, 4)"
  "tcp_echo_1k_so|MB/s|net_tcp_echo:run(1024, 100, 300, socket)|net_tcp_echo:run(1024, 100, 30, socket)"
  "tcp_echo_64k_so|MB/s|net_tcp_echo:run(65536, 100, 40, socket)|net_tcp_echo:run(65536, 100, 4, socket)"
  "accept|conn/s|net_accept:run(5000, 10)|net_accept:run(1000, 10)"
  "udp_rtt|rtt/s|net_udp_rtt:run(64, 4, 10000)|net_udp_rtt:run(64, 4, 1000)"
  "http_gen_tcp|req/s|net_http:run(gen_tcp, 10, 2000)|net_http:run(gen_tcp, 10, 200)"
  "http_httpd|req/s|net_http:run(httpd, 10, 500)|net_http:run(httpd, 10, 50)"
)

ebin=$(mktemp -d)
trap 'rm -rf "$ebin"' EXIT
erlc -o "$ebin" "$root"/bench/net/*.erl || exit 1

vms=(jit) progs=(erl)
flavor='io:format("~p~n", [erlang:system_info(emu_flavor)]), halt().'
if [ -x "$emu_erl" ] && [ "$("$emu_erl" -noshell -eval "$flavor" </dev/null 2>/dev/null)" = emu ]; then
  vms+=(emu) progs+=("$emu_erl")
else
  echo "note: no OTP interpreter (emu flavour) at $emu_erl (set OTP_EMU); emu column left empty"
fi
vms+=(beamvm) progs+=("$beamvm")
if [ ! -x "$beamvm" ]; then echo "no beamvm at $beamvm (set BEAMVM)" >&2; exit 1; fi
has_inets=0
erl -noshell -eval 'halt(case code:lib_dir(inets) of {error, _} -> 1; _ -> 0 end).' \
  </dev/null >/dev/null 2>&1 && has_inets=1

median() { sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || a <= 0 || b <= 0) print "-"; else printf "%.2f", a / b }'; }
fmt() { if [ -n "$1" ]; then printf '%.1f' "$1"; else echo -; fi; }

# run_one OUT PROGRAM CALL: runs CALL on PROGRAM; prints the rate, leaves the check line in OUT.
run_one() {
  local out=$1 prog=$2 call=$3 rate
  timeout "$limit" "$prog" -noshell -pa "$ebin" -eval "$call, halt()." \
    </dev/null >"$out.raw" 2>"$out.err" || return 1
  rate=$(sed -n 's/^rate \([0-9.]*\) .*/\1/p' "$out.raw")
  [ -n "$rate" ] || return 1
  grep '^check ' "$out.raw" >"$out"
  echo "$rate"
}

echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); size: $([ $quick = 1 ] && echo quick || echo full);" \
     "runs per VM: $runs (median); rates measured inside the VM, start-up excluded"
for i in "${!vms[@]}"; do echo "  ${vms[$i]}: ${progs[$i]}"; done
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-15s %-7s %10s %10s %10s %10s %10s\n' bench unit jit emu beamvm beamvm/emu beamvm/jit
status=0
for row in "${benches[@]}"; do
  IFS='|' read -r name unit full small <<<"$row"
  if [ ${#only[@]} -gt 0 ] && [[ " ${only[*]} " != *" $name "* ]]; then continue; fi
  if [ "$name" = http_httpd ] && [ $has_inets = 0 ]; then
    printf '%-15s %-7s  skipped: erlang-inets is not installed\n' "$name" "$unit"
    continue
  fi
  call=$full
  [ $quick = 1 ] && call=$small
  note=
  for vm in "${vms[@]}"; do : >"$ebin/$name.$vm.rates"; done
  rm -f "$ebin/$name.ref"
  for ((r = 1; r <= runs; r++)); do
    for i in "${!vms[@]}"; do
      vm=${vms[$i]}
      if ! rate=$(run_one "$ebin/$name.$vm.out" "${progs[$i]}" "$call"); then
        [[ $note == *" $vm failed"* ]] && continue   # said once per VM
        note="$note $vm failed: $(cat "$ebin/$name.$vm.out.raw" "$ebin/$name.$vm.out.err" 2>/dev/null |
          grep -v '^check ' | head -c 160 | tr '\n' ' ');"
        continue
      fi
      echo "$rate" >>"$ebin/$name.$vm.rates"
      if [ -f "$ebin/$name.ref" ]; then
        cmp -s "$ebin/$name.ref" "$ebin/$name.$vm.out" ||
          note="$note $vm check differs: $(cat "$ebin/$name.$vm.out");"
      else
        cp "$ebin/$name.$vm.out" "$ebin/$name.ref"
      fi
    done
  done
  declare -A m=()
  for vm in "${vms[@]}"; do
    m[$vm]=
    [ -s "$ebin/$name.$vm.rates" ] && m[$vm]=$(median <"$ebin/$name.$vm.rates")
  done
  line=$(printf '%-15s %-7s %10s %10s %10s %10s %10s' "$name" "$unit" "$(fmt "${m[jit]}")" \
    "$(fmt "${m[emu]:-}")" "$(fmt "${m[beamvm]}")" "$(ratio "${m[beamvm]}" "${m[emu]:-}")" \
    "$(ratio "${m[beamvm]}" "${m[jit]}")")
  if [ -n "$note" ]; then status=1; line="$line  FAIL:$note"; fi
  echo "$line"
  unset m
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ $idle = 1 ]; then
  echo
  if [ $quick = 1 ]; then
    BEAMVM=$beamvm "$root/bench/net_idle.sh" 1000 3 || status=1
  else
    BEAMVM=$beamvm "$root/bench/net_idle.sh" || status=1
  fi
fi
exit $status
