# Sourced by bench/run.sh and bench/real_run.sh: where the three VMs are, and how one benchmark
# run is timed. Expects $root (the repository) to be set.

# OTP's interpreter (emu flavour): --emu DIR or OTP_EMU, else $root/../otp-emu (where
# ../shared/tools/build_otp_emu.sh puts it when run without an argument: beside the folder that
# holds shared/), else $root/../ext/otp-emu. locate_emu [DIR] prints DIR/bin/erl of the first
# candidate that has one (or of the explicit one, present or not).
locate_emu() {
  local dir=${1:-${OTP_EMU:-}}
  if [ -z "$dir" ]; then
    for dir in "$root/../otp-emu" "$root/../ext/otp-emu"; do
      [ -x "$dir/bin/erl" ] && break
    done
  fi
  echo "$dir/bin/erl"
}

# is_emu ERL: true when ERL runs and its emulator is the interpreter flavour.
is_emu() {
  [ -x "$1" ] && [ "$("$1" -noshell -eval 'io:format("~p~n", [erlang:system_info(emu_flavor)]), halt().' \
                     </dev/null 2>/dev/null)" = emu ]
}

now() { date +%s.%N; }
load() { cut -d' ' -f1-3 /proc/loadavg; }
# median of the numbers on stdin
median() { sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
fmt() { if [ -n "$1" ]; then printf '%.3f' "$1"; else echo -; fi; }
# ratio A B: A / B to 6 places (the geometric means use these; the tables round to 2), or -
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || a <= 0 || b <= 0) print "-"; else printf "%.6f", a / b }'; }
fmt_ratio() { if [ "$1" = - ]; then echo -; else printf '%.2f' "$1"; fi; }

# time_run OUTFILE PROGRAM EBIN MODULE ENTRY WALL [VM ARGS...]: runs one benchmark through
# bench_harness; prints its seconds (the harness's time, or with WALL=1 the wall time of the
# whole command) and leaves its output, the harness's lines removed, in OUTFILE, and the
# harness's rusage figures "minflt majflt utime_ticks stime_ticks" in OUTFILE.rusage (empty
# when the OS has no /proc/self/stat). Fails if the run fails or prints no time.
# BENCH_TIMEOUT: seconds per run (default 300).
time_run() {
  local out=$1 prog=$2 ebin=$3 mod=$4 entry=$5 wall=$6 start end us
  shift 6
  start=$(now)
  timeout "${BENCH_TIMEOUT:-300}" "$prog" "$@" -noshell -pa "$ebin" -s bench_harness run "$mod" "$entry" \
    -s erlang halt </dev/null >"$out.raw" 2>/dev/null || return 1
  end=$(now)
  us=$(sed -n 's/^{bench_time_us,\([0-9]*\)}\r\?$/\1/p' "$out.raw")  # erl ends it with \r\n
  [ -n "$us" ] || return 1
  sed -n 's/^{bench_rusage,\([0-9]*\),\([0-9]*\),\([0-9]*\),\([0-9]*\)}\r\?$/\1 \2 \3 \4/p' "$out.raw" >"$out.rusage"
  grep -v '^{bench_' "$out.raw" >"$out"
  if [ "$wall" = 1 ]; then
    awk -v a="$start" -v b="$end" 'BEGIN { printf "%.6f", b - a }'
  else
    awk -v u="$us" 'BEGIN { printf "%.6f", u / 1e6 }'
  fi
}
