#!/usr/bin/env bash
# Usage: bench/real_run.sh [--quick] [--runs N] [--best] [--sched "1 2"] [--wall] [--pin CPU] [--emu DIR] [WORKLOAD...]
# The real workloads (issue 29): every module in bench/real/ that exports main/0 (full size) and
# quick/0 (CI size) and prints a checksum line. Runs each, in one run, on erl's JIT, OTP's
# interpreter (emu flavour) and beamvm, at each scheduler count (+S N, default 1 and 2),
# interleaved (for each round: +S 1 jit, emu, beamvm, +S 2 jit, emu, beamvm), checks that every
# VM at every scheduler count prints the same output, and prints
#   1. per scheduler count: the median seconds on each VM and the ratios beamvm/emu and
#      beamvm/jit (below 1: beamvm is faster), with their geometric means;
#   2. the speedup from the first scheduler count to each other one, per VM (time at +S 1
#      divided by time at +S 2: above 1, the second scheduler helped);
#   3. what the work cost the OS process, medians per VM: minor page faults (per compiled module
#      too, for a workload whose output says "N modules") and kernel (system) time, in seconds
#      and as a share of the process's CPU time.
# Times and costs are measured inside the VM by bench_harness (start-up and module loading
# excluded; see bench/run.sh); --wall times the whole command instead. --best reports each
# cell's fastest run instead of its median. This project's 2-core machines drift in speed by
# up to a third, every VM alike, in phases of seconds to minutes; the fastest run is less
# often caught by a slow phase than the median, but a cell's runs follow each other within
# seconds, so a phase can still cover all of them: compare figures across runs, not one table.
# --pin CPU runs every +S 1 cell (every VM alike) on that CPU (taskset): one vCPU of these
# machines has run 1.4-1.6x slower than the other for minutes at a time (session 27: tak took
# 2.15 s pinned to CPU 0 and 1.52 s pinned to CPU 1, in turns), and an unpinned one-scheduler
# run lands on either. Runs with more schedulers are never pinned.
# The VMs are found as bench/run.sh finds them (bench/bench_lib.sh): erl on PATH; --emu DIR or
# OTP_EMU, else ../otp-emu, else ../ext/otp-emu beside the repository; BEAMVM, default
# build/beamvm. Without an interpreter build the emu column stays empty, with a note.
# Env: BEAMVM, OTP_EMU, BENCH_TIMEOUT (seconds per run, default 300).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bench/bench_lib.sh"
beamvm=${BEAMVM:-$root/build/beamvm}
emu_dir=
entry=main
scheds=(1 2)
runs=1
wall=0
stat=median
only=()
pin=
usage() { echo "usage: $0 [--quick] [--runs N] [--best] [--sched \"1 2\"] [--wall] [--pin CPU] [--emu DIR] [WORKLOAD...]" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
    --quick) entry=quick ;;
    --wall) wall=1 ;;
    --best) stat=best ;;
    --emu) [ $# -ge 2 ] || usage; emu_dir=$2; shift ;;
    --pin)
      if [ $# -lt 2 ] || ! [[ $2 =~ ^[0-9]+$ ]]; then usage; fi
      command -v taskset >/dev/null || { echo "--pin needs taskset (util-linux)" >&2; exit 2; }
      pin=$2; shift ;;
    --runs)
      if [ $# -lt 2 ] || ! [[ $2 =~ ^[1-9][0-9]*$ ]]; then usage; fi
      runs=$2; shift ;;
    --sched)
      if [ $# -lt 2 ] || ! [[ $2 =~ ^[1-9][0-9]*( [1-9][0-9]*)*$ ]]; then usage; fi
      read -r -a scheds <<<"$2"; shift ;;
    -*) usage ;;
    *) only+=("$1") ;;
  esac
  shift
done
emu_erl=$(locate_emu "$emu_dir")

ebin=$(mktemp -d)
trap 'rm -rf "$ebin"' EXIT
erlc -o "$ebin" "$root"/bench/bench_harness.erl "$root"/bench/real/*.erl || exit 1

vms=(jit) progs=(erl)
if is_emu "$emu_erl"; then
  vms+=(emu) progs+=("$emu_erl")
else
  echo "note: no OTP interpreter (emu flavour) at $emu_erl (--emu DIR or OTP_EMU); emu column left empty"
fi
vms+=(beamvm) progs+=("$beamvm")
if [ ! -x "$beamvm" ]; then echo "no beamvm at $beamvm (set BEAMVM)" >&2; exit 1; fi
ticks=$(getconf CLK_TCK 2>/dev/null || echo 100)

# The workloads: modules of bench/real/ exporting main/0 (helper modules may sit beside them).
mods=()
for src in "$root"/bench/real/*.erl; do
  mod=$(basename "$src" .erl)
  grep -q 'main/0' "$src" || continue
  if [ ${#only[@]} -gt 0 ] && [[ " ${only[*]} " != *" $mod "* ]]; then continue; fi
  mods+=("$mod")
done

echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); entry: $entry/0; runs per VM: $runs ($([ $stat = best ] && echo fastest || echo median));" \
     "schedulers: ${scheds[*]}; time: $([ $wall = 1 ] && echo 'wall, start-up included' || echo 'inside the VM, start-up excluded')${pin:+; +S 1 pinned to CPU $pin}"
for i in "${!vms[@]}"; do echo "  ${vms[$i]}: ${progs[$i]}"; done
echo "load average at start: $(load)"

# Every run: times in $ebin/MOD.S.VM.times, rusage lines in $ebin/MOD.S.VM.rusage.
status=0
declare -A note=()
for mod in "${mods[@]}"; do
  note[$mod]=
  for s in "${scheds[@]}"; do
    for vm in "${vms[@]}"; do : >"$ebin/$mod.$s.$vm.times"; : >"$ebin/$mod.$s.$vm.rusage"; done
  done
  for ((r = 1; r <= runs; r++)); do
    for s in "${scheds[@]}"; do
      for i in "${!vms[@]}"; do
        vm=${vms[$i]} out=$ebin/$mod.out
        launch=("${progs[$i]}")
        [ -n "$pin" ] && [ "$s" = 1 ] && launch=(taskset -c "$pin" "${progs[$i]}")
        if ! t=$(time_run "$out" "${launch[0]}" "$ebin" "$mod" "$entry" "$wall" "${launch[@]:1}" +S "$s"); then
          note[$mod]="${note[$mod]} $vm +S $s failed;"
          continue
        fi
        echo "$t" >>"$ebin/$mod.$s.$vm.times"
        cat "$out.rusage" >>"$ebin/$mod.$s.$vm.rusage"
        if [ -f "$ebin/$mod.ref" ]; then
          cmp -s "$ebin/$mod.ref" "$out" || note[$mod]="${note[$mod]} $vm +S $s output differs;"
        else
          cp "$out" "$ebin/$mod.ref"
        fi
      done
    done
  done
  [ -n "${note[$mod]}" ] && status=1
  echo "$(head -n 1 "$ebin/$mod.ref" 2>/dev/null)${note[$mod]:+  $mod FAIL:${note[$mod]}}"
done

# med MOD S VM: median (or, with --best, fastest) seconds of that cell, or empty
med() {
  [ -s "$ebin/$1.$2.$3.times" ] || return 1
  if [ "$stat" = best ]; then sort -g "$ebin/$1.$2.$3.times" | head -n 1; else median <"$ebin/$1.$2.$3.times"; fi
}
# med_field MOD S VM FIELD: median of one rusage column (1 minflt, 2 majflt, 3 utime, 4 stime)
med_field() { [ -s "$ebin/$1.$2.$3.rusage" ] && cut -d' ' -f"$4" "$ebin/$1.$2.$3.rusage" | median; }
has() { [[ " ${vms[*]} " == *" $1 "* ]]; }

for s in "${scheds[@]}"; do
  echo
  printf '+S %-15s %8s %8s %8s %10s %10s\n' "$s" jit_s emu_s beamvm_s beamvm/emu beamvm/jit
  : >"$ebin/ratios.$s"
  for mod in "${mods[@]}"; do
    tj=$(med "$mod" "$s" jit) te=$(has emu && med "$mod" "$s" emu) tb=$(med "$mod" "$s" beamvm)
    re=$(ratio "$tb" "$te") rj=$(ratio "$tb" "$tj")
    [ -z "${note[$mod]}" ] && echo "$mod $re $rj" >>"$ebin/ratios.$s"
    printf '%-18s %8s %8s %8s %10s %10s%s\n' "$mod" "$(fmt "$tj")" "$(fmt "$te")" "$(fmt "$tb")" \
      "$(fmt_ratio "$re")" "$(fmt_ratio "$rj")" "${note[$mod]:+  FAIL}"
  done
  awk '$2 != "-" { se += log($2); ne++ } $3 != "-" { sj += log($3); nj++ }
    END { printf "%-18s %8s %8s %8s %10s %10s\n", "geomean", "", "", "",
            ne ? sprintf("%.2f", exp(se / ne)) : "-", nj ? sprintf("%.2f", exp(sj / nj)) : "-" }' \
    "$ebin/ratios.$s"
done

if [ ${#scheds[@]} -gt 1 ]; then
  s1=${scheds[0]}
  for s in "${scheds[@]:1}"; do
    echo
    printf 'speedup +S %s -> +S %-3s %8s %8s %8s\n' "$s1" "$s" jit emu beamvm
    for mod in "${mods[@]}"; do
      printf '%-24s' "$mod"
      for vm in jit emu beamvm; do
        a=$(has "$vm" && med "$mod" "$s1" "$vm") b=$(has "$vm" && med "$mod" "$s" "$vm")
        printf ' %8s' "$(fmt_ratio "$(ratio "$a" "$b")")"
      done
      echo
    done
  done
fi

echo
echo "OS cost of the work (medians): minor page faults; kernel seconds and kernel share of CPU time"
printf '%-18s %4s %10s %10s %10s %16s %16s %16s\n' workload +S flt_jit flt_emu flt_beamvm \
  sys_jit sys_emu sys_beamvm
for mod in "${mods[@]}"; do
  units=$(sed -n 's/^[^:]*: \([0-9][0-9]*\) modules.*/\1/p' "$ebin/$mod.ref" 2>/dev/null | head -n 1)
  for s in "${scheds[@]}"; do
    flt=() sys=() per=()
    for vm in jit emu beamvm; do
      f=$(has "$vm" && med_field "$mod" "$s" "$vm" 1)
      u=$(has "$vm" && med_field "$mod" "$s" "$vm" 3) k=$(has "$vm" && med_field "$mod" "$s" "$vm" 4)
      flt+=("${f:--}")
      if [ -n "$k" ]; then
        sys+=("$(awk -v u="$u" -v k="$k" -v t="$ticks" 'BEGIN { printf "%.2f s %4.1f%%", k / t, (u + k) ? 100 * k / (u + k) : 0 }')")
      else
        sys+=(-)
      fi
      [ -n "$units" ] && [ -n "$f" ] && per+=("$vm $(awk -v f="$f" -v n="$units" 'BEGIN { printf "%.0f", f / n }')")
    done
    printf '%-18s %4s %10s %10s %10s %16s %16s %16s\n' "$mod" "$s" "${flt[@]}" "${sys[@]}"
    [ ${#per[@]} -gt 0 ] && echo "  minor faults per compiled module ($units modules), +S $s: $(IFS=,; echo "${per[*]}" | sed 's/,/, /g')"
  done
done
echo "load average at end: $(load)"
exit $status
