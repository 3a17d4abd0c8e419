#!/usr/bin/env bash
# Usage: bench/run.sh [--quick] [--sched N] [--runs N] [--wall] [--pin CPU] [--emu DIR] [BENCH...]
# Compiles bench/*.erl and runs each benchmark, in the same run, on
#   jit     erl on PATH (OTP's JIT, BeamAsm)
#   emu     OTP's interpreter flavour, DIR/bin/erl, when present (built by the shared tools'
#           build_otp_emu.sh; skipped with a note when absent). DIR: --emu DIR, else OTP_EMU,
#           else $root/../otp-emu (build_otp_emu.sh's default place, beside the folder holding
#           shared/), else $root/../ext/otp-emu
#   beamvm  BEAMVM, default build/beamvm
# checks that every VM prints the same checksum lines, and prints per benchmark the seconds on
# each VM and the ratios beamvm/emu and beamvm/jit (below 1: beamvm is faster); at the end the
# geometric means of both ratios, over every benchmark and without bignum (where erl's
# schoolbook bignum arithmetic against beamvm's GMP would dominate the mean), and the load
# average at start and end.
#
# What is timed: each run is `VM -noshell -s bench_harness run MODULE ENTRY -s erlang halt`;
# bench_harness.erl loads MODULE, then times MODULE:ENTRY() with erlang:monotonic_time and prints
# {bench_time_us, N} after the benchmark's own output. So the figures are the benchmark's work
# alone, without the VM's start-up (erl boots OTP in about 0.15 s, the interpreter longer) or
# the module's loading. The time line is stripped before the outputs are compared.
# --wall uses the wall time of the whole command instead (start-up included).
#
# --quick    runs the smaller workload (M:quick/0 instead of M:main/0).
# --sched N  runs every VM with N schedulers (+S N, erl's syntax), e.g. to measure the parallel
#            speedup: bench/run.sh --sched 1 parallel; bench/run.sh --sched 2 parallel
# --runs N   runs each benchmark N times on each VM, interleaved (jit, emu, beamvm, jit, ...),
#            and reports the median of each VM's N times (default 1).
# --pin CPU  runs every VM on that CPU (taskset): the project's machines have had one vCPU
#            1.4-1.6x slower than the other for minutes at a time (see bench/real_run.sh).
# BENCH...   only these benchmarks (module names), default all of bench/*.erl.
# Env: BEAMVM, OTP_EMU (see above), BENCH_TIMEOUT (seconds per run, default 300).
# The real workloads (bench/real/) have a runner of their own, bench/real_run.sh.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bench/bench_lib.sh"
beamvm=${BEAMVM:-$root/build/beamvm}
emu_dir=
entry=main
sched=()
runs=1
wall=0
pin=
only=()
usage() { echo "usage: $0 [--quick] [--sched N] [--runs N] [--wall] [--pin CPU] [--emu DIR] [BENCH...]" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
    --quick) entry=quick ;;
    --wall) wall=1 ;;
    --emu) [ $# -ge 2 ] || usage; emu_dir=$2; shift ;;
    --pin)
      if [ $# -lt 2 ] || ! [[ $2 =~ ^[0-9]+$ ]]; then usage; fi
      command -v taskset >/dev/null || { echo "--pin needs taskset (util-linux)" >&2; exit 2; }
      pin=$2; shift ;;
    --sched|--runs)
      if [ $# -lt 2 ] || ! [[ $2 =~ ^[1-9][0-9]*$ ]]; then usage; fi
      if [ "$1" = --sched ]; then sched=(+S "$2"); else runs=$2; fi
      shift ;;
    -*) usage ;;
    *) only+=("$1") ;;
  esac
  shift
done
emu_erl=$(locate_emu "$emu_dir")

ebin=$(mktemp -d)
trap 'rm -rf "$ebin"' EXIT
erlc -o "$ebin" "$root"/bench/*.erl || exit 1

# The VMs of this run: names and programs, in the order each round runs them.
vms=(jit) progs=(erl)
if is_emu "$emu_erl"; then
  vms+=(emu) progs+=("$emu_erl")
else
  echo "note: no OTP interpreter (emu flavour) at $emu_erl (--emu DIR or OTP_EMU); emu column left empty"
fi
vms+=(beamvm) progs+=("$beamvm")
if [ ! -x "$beamvm" ]; then echo "no beamvm at $beamvm (set BEAMVM)" >&2; exit 1; fi

echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); entry: $entry/0; runs per VM: $runs (median);" \
     "time: $([ $wall = 1 ] && echo 'wall, start-up included' || echo 'inside the VM, start-up excluded')${pin:+; pinned to CPU $pin}"
for i in "${!vms[@]}"; do echo "  ${vms[$i]}: ${progs[$i]}"; done
[ ${#sched[@]} -gt 0 ] && echo "schedulers: ${sched[1]} (+S ${sched[1]} on every VM)"
echo "load average at start: $(load)"
printf '%-18s %8s %8s %8s %10s %10s\n' bench jit_s emu_s beamvm_s beamvm/emu beamvm/jit
status=0
ratios=$ebin/ratios   # lines: bench vm_over_emu vm_over_jit
: >"$ratios"
for src in "$root"/bench/*.erl; do
  mod=$(basename "$src" .erl)
  [ "$mod" = bench_harness ] && continue
  if [ ${#only[@]} -gt 0 ] && [[ " ${only[*]} " != *" $mod "* ]]; then continue; fi
  note=
  for vm in "${vms[@]}"; do : >"$ebin/$mod.$vm.times"; done
  for ((r = 1; r <= runs; r++)); do
    for i in "${!vms[@]}"; do
      vm=${vms[$i]}
      launch=("${progs[$i]}")
      [ -n "$pin" ] && launch=(taskset -c "$pin" "${progs[$i]}")
      if ! s=$(time_run "$ebin/$mod.$vm.out" "${launch[0]}" "$ebin" "$mod" "$entry" "$wall" "${launch[@]:1}" "${sched[@]}"); then
        note="$note $vm failed;"
        continue
      fi
      echo "$s" >>"$ebin/$mod.$vm.times"
      if [ -f "$ebin/$mod.ref" ]; then
        cmp -s "$ebin/$mod.ref" "$ebin/$mod.$vm.out" || note="$note $vm output differs;"
      else
        cp "$ebin/$mod.$vm.out" "$ebin/$mod.ref"
      fi
    done
  done
  declare -A t=()
  for vm in "${vms[@]}"; do
    if [ -s "$ebin/$mod.$vm.times" ]; then t[$vm]=$(median <"$ebin/$mod.$vm.times"); else t[$vm]=; fi
  done
  rm -f "$ebin/$mod.ref"
  if [ -n "$note" ]; then
    status=1
    printf '%-18s %8s %8s %8s %10s %10s  FAIL:%s\n' "$mod" "$(fmt "${t[jit]}")" "$(fmt "${t[emu]:-}")" \
      "$(fmt "${t[beamvm]}")" - - "$note"
    unset t
    continue
  fi
  re=$(ratio "${t[beamvm]}" "${t[emu]:-}")
  rj=$(ratio "${t[beamvm]}" "${t[jit]}")
  echo "$mod $re $rj" >>"$ratios"
  printf '%-18s %8s %8s %8s %10s %10s\n' "$mod" "$(fmt "${t[jit]}")" "$(fmt "${t[emu]:-}")" \
    "$(fmt "${t[beamvm]}")" "$(fmt_ratio "$re")" "$(fmt_ratio "$rj")"
  unset t
done
# geomean FIELD FILTER: geometric mean of column FIELD of $ratios over the rows FILTER keeps
geomean() {
  awk -v f="$1" -v skip="$2" '$1 !~ skip && $f != "-" { s += log($f); n++ }
    END { if (n) printf "%.3f (%d benchmarks)", exp(s / n), n; else printf "-" }' "$ratios"
}
echo "geometric mean beamvm/emu: $(geomean 2 '^$'), without bignum: $(geomean 2 '^bignum')"
echo "geometric mean beamvm/jit: $(geomean 3 '^$'), without bignum: $(geomean 3 '^bignum')"
echo "load average at end: $(load)"
exit $status
