#!/usr/bin/env bash
# Usage: bench/nif_run.sh [--quick] [--runs N] [BENCH...]
# NIF benchmarks (issue 24). Compiles bench/nif/*.erl, builds bench/nif/nif_call.c against the
# installed OTP's erl_nif.h (Debian's erlang-dev) beside them, and runs each benchmark, in the
# same run, on
#   erl     erl on PATH (OTP's JIT)
#   beamvm  BEAMVM, default build/beamvm
# and prints per benchmark the rate on each VM and the ratio beamvm/erl of the rates: ABOVE 1,
# beamvm is faster (as bench/net_run.sh; the reverse of bench/run.sh, which divides times).
#
#   call_add     nif_call: a loop of calls of a two-argument NIF adding integers; Mcall/s
#   call_noop    the same with a NIF of no arguments returning an atom
#   sha256_1k    nif_crypto: crypto:hash(sha256, Bin) on 1 KiB messages; MB/s of input
#   sha256_1m    the same on 1 MiB messages
#   gcm_1k       nif_crypto: crypto:crypto_one_time_aead(aes_256_gcm, ...) encrypting 1 KiB; MB/s
#   gcm_64k      the same on 64 KiB
#   tls_1k       nif_tls: TLS echo over loopback (ssl on both ends, 10 connections), 1 KiB
#                messages; MB/s of payload echoed
#   tls_64k      the same with 64 KiB messages
# Each benchmark runs inside one VM and times its own work, VM start-up, certificate
# generation and handshakes excluded (see each module's header). Every VM must print the same
# `check ...` line; a VM that prints another, fails or exceeds NIF_BENCH_TIMEOUT seconds
# (default 120) is marked FAIL.
#
# --quick    smaller counts (a few seconds in all per VM; a CI size)
# --runs N   runs each benchmark N times per VM, interleaved, and reports the median rate
# BENCH...   only these rows
# Env: BEAMVM, NIF_BENCH_TIMEOUT, CC.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
beamvm=${BEAMVM:-$root/build/beamvm}
quick=0
runs=1
only=()
usage() { echo "usage: $0 [--quick] [--runs N] [BENCH...]" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1 ;;
    --runs)
      if [ $# -lt 2 ] || ! [[ $2 =~ ^[1-9][0-9]*$ ]]; then usage; fi
      runs=$2; shift ;;
    -*) usage ;;
    *) only+=("$1") ;;
  esac
  shift
done
limit=${NIF_BENCH_TIMEOUT:-120}

# name | unit | full-size call | quick call. Full sizes: about 1-3 s each on erl's JIT on the
# project's 2-core machine.
benches=(
  "call_add|Mcall/s|nif_call:run(add, 30000000)|nif_call:run(add, 2000000)"
  "call_noop|Mcall/s|nif_call:run(noop, 30000000)|nif_call:run(noop, 2000000)"
  "sha256_1k|MB/s|nif_crypto:hash(1024, 400000)|nif_crypto:hash(1024, 20000)"
  "sha256_1m|MB/s|nif_crypto:hash(1048576, 400)|nif_crypto:hash(1048576, 20)"
  "gcm_1k|MB/s|nif_crypto:aead(1024, 300000)|nif_crypto:aead(1024, 20000)"
  "gcm_64k|MB/s|nif_crypto:aead(65536, 12000)|nif_crypto:aead(65536, 500)"
  "tls_1k|MB/s|nif_tls:run(1024, 10, 1500)|nif_tls:run(1024, 4, 100)"
  "tls_64k|MB/s|nif_tls:run(65536, 10, 60)|nif_tls:run(65536, 4, 5)"
)

ebin=$(mktemp -d)
trap 'rm -rf "$ebin"' EXIT
erlc -o "$ebin" "$root"/bench/nif/*.erl || exit 1
include=$(erl -noshell -eval 'io:format("~s", [filename:join([code:root_dir(), "usr", "include"])]), halt().')
if [ ! -f "$include/erl_nif.h" ]; then echo "erl_nif.h not in $include: install erlang-dev" >&2; exit 1; fi
# enif_* stay undefined here: the VM that opens the library provides them.
${CC:-cc} -shared -fPIC -O2 -I"$include" -o "$ebin/nif_call.so" "$root/bench/nif/nif_call.c" || exit 1

vms=(erl beamvm) progs=(erl "$beamvm")
if [ ! -x "$beamvm" ]; then echo "no beamvm at $beamvm (set BEAMVM)" >&2; exit 1; fi

median() { sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || a <= 0 || b <= 0) print "-"; else printf "%.2f", a / b }'; }
fmt() { if [ -n "$1" ]; then printf '%.2f' "$1"; else echo -; fi; }

# run_one OUT PROGRAM CALL: runs CALL on PROGRAM; prints the rate, leaves the check line in OUT.
run_one() {
  local out=$1 prog=$2 call=$3 rate
  timeout "$limit" "$prog" -noshell -pa "$ebin" -eval "$call, halt()." \
    </dev/null >"$out.raw" 2>"$out.err" || return 1
  rate=$(sed -n 's/^rate \([0-9.]*\) .*/\1/p' "$out.raw")
  [ -n "$rate" ] || return 1
  # The check line may be wrapped by ~p: joined into one line.
  sed -n '/^check /,/^rate /p' "$out.raw" | grep -v '^rate ' | tr -s ' \n' ' ' >"$out"
  echo "$rate"
}

echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); size: $([ $quick = 1 ] && echo quick || echo full);" \
     "runs per VM: $runs (median); rates measured inside the VM, start-up excluded"
for i in "${!vms[@]}"; do echo "  ${vms[$i]}: ${progs[$i]}"; done
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-11s %-8s %10s %10s %10s\n' bench unit erl beamvm beamvm/erl
status=0
for row in "${benches[@]}"; do
  IFS='|' read -r name unit full small <<<"$row"
  if [ ${#only[@]} -gt 0 ] && [[ " ${only[*]} " != *" $name "* ]]; then continue; fi
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
  line=$(printf '%-11s %-8s %10s %10s %10s' "$name" "$unit" "$(fmt "${m[erl]}")" "$(fmt "${m[beamvm]}")" \
    "$(ratio "${m[beamvm]}" "${m[erl]}")")
  if [ -n "$note" ]; then status=1; line="$line  FAIL:$note"; fi
  echo "$line"
  unset m
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
exit $status
