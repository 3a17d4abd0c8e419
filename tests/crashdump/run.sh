#!/usr/bin/env bash
# erl_crash.dump on erl and on beamvm (docs/crash_dump.md): the same program halts with a
# slogan on both; OTP's crashdump_viewer (on erl, headless: cdv_report.erl) loads both dumps
# and what it reports is compared. Also the stderr lines, the exit status, ERL_CRASH_DUMP,
# the default file name, ERL_CRASH_DUMP_SECONDS=0, halt/2 with {flush,false}, an empty and
# a long slogan, halt(3), and (beamvm only) an internal fatal error.
# Usage: run.sh BEAMVM
set -u
beamvm=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
erlc -o "$work" "$here/cdv_report.erl" "$here/crash_prog.erl" || exit 1
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# run VM MODE DUMPFILE: runs crash_prog; leaves $work/VM.err, $work/VM.rc
run() {
  local vm=$1 cmd=erl
  [ "$vm" = beamvm ] && cmd=$beamvm
  (cd "$work" && env ${3:+ERL_CRASH_DUMP=$3} timeout 30 "$cmd" -noshell -pa "$work" -run crash_prog main "$2" \
      </dev/null >"$work/$vm.out" 2>"$work/$vm.err"; echo $? >"$work/$vm.rc")
}
# report DUMP: what the viewer says about it (the viewer's own crash writes no dump)
report() {
  ERL_CRASH_DUMP_SECONDS=0 timeout 60 erl -noshell -pa "$work" -run cdv_report main "$1" -s erlang halt </dev/null 2>&1
}
same_stderr() { # stderr and status equal once the dump file names are the same
  sed "s|$work/beamvm.dump|DUMP|; s|$work/erl.dump|DUMP|" "$work/erl.err" >"$work/erl.err.n"
  sed "s|$work/beamvm.dump|DUMP|; s|$work/erl.dump|DUMP|" "$work/beamvm.err" >"$work/beamvm.err.n"
  cmp -s "$work/erl.err.n" "$work/beamvm.err.n" || { fail "$1: stderr differs"; od -c "$work/erl.err.n" | head -5; od -c "$work/beamvm.err.n" | head -5; }
  [ "$(cat "$work/erl.rc")" = "$(cat "$work/beamvm.rc")" ] ||
    fail "$1: exit status erl $(cat "$work/erl.rc"), beamvm $(cat "$work/beamvm.rc")"
}

# 1. halt("boom") with ERL_CRASH_DUMP: both dumps load in the viewer and agree.
run erl slogan "$work/erl.dump"
run beamvm slogan "$work/beamvm.dump"
same_stderr "halt(\"boom\")"
[ -s "$work/erl.dump" ] || fail "erl wrote no dump"
[ -s "$work/beamvm.dump" ] || fail "beamvm wrote no dump at \$ERL_CRASH_DUMP"
report "$work/erl.dump" >"$work/erl.report"
report "$work/beamvm.dump" >"$work/beamvm.report"
grep -q '^schedulers_listed' "$work/beamvm.report" || { fail "the viewer did not read beamvm's dump"; cat "$work/beamvm.report"; }
# Facts that must be equal.
for key in slogan taints ets foo_init_func foo_dict foo_msgs foo_stack_has_return memory_keys atoms_listed \
           persistent_terms_listed schedulers_listed proc_details_not_decoded; do
  diff <(grep "^$key:" "$work/erl.report") <(grep "^$key:" "$work/beamvm.report") >"$work/diff" ||
    { fail "viewer's $key differs (< erl, > beamvm)"; cat "$work/diff"; }
done
# Registered processes and their states: every name erl has, beamvm has in the same state.
grep '^registered:' "$work/erl.report" | sort >"$work/erl.reg"
grep '^registered:' "$work/beamvm.report" | sort >"$work/beamvm.reg"
missing=$(comm -23 "$work/erl.reg" "$work/beamvm.reg")
[ -z "$missing" ] || { fail "registered processes (name state) erl has and beamvm's dump does not:"; echo "$missing"; }
# Process count within reason (beamvm runs no erts-internal processes, has its own I/O servers).
np_erl=$(sed -n 's/^num_procs: //p' "$work/erl.report"); np_vm=$(sed -n 's/^num_procs: //p' "$work/beamvm.report")
[ -n "$np_vm" ] && [ "$np_vm" -ge $((np_erl * 2 / 3)) ] && [ "$np_vm" -le $((np_erl * 3 / 2)) ] ||
  fail "process count: erl $np_erl, beamvm $np_vm"
# Loaded modules: what erl has loaded that beamvm has not, within reason (erl preloads erts'
# own modules; beamvm loads on first call as erl's interactive mode does).
grep '^module:' "$work/erl.report" | sort >"$work/erl.mods"
grep '^module:' "$work/beamvm.report" | sort >"$work/beamvm.mods"
for m in crash_prog ets lists gen_server application_controller code_server init; do
  grep -qx "module: $m" "$work/beamvm.mods" || fail "module $m not listed from beamvm's dump"
done
only_erl=$(comm -23 "$work/erl.mods" "$work/beamvm.mods" | wc -l)
[ "$only_erl" -le $(($(wc -l <"$work/erl.mods") / 5)) ] ||
  { fail "$only_erl of erl's modules missing from beamvm's dump"; comm -23 "$work/erl.mods" "$work/beamvm.mods"; }
echo "viewer on beamvm's dump: $np_vm processes (erl $np_erl), $(wc -l <"$work/beamvm.mods") modules (erl $(wc -l <"$work/erl.mods")), $(wc -l <"$work/beamvm.reg") registered names (erl $(wc -l <"$work/erl.reg"))"

# 2. No ERL_CRASH_DUMP: erl_crash.dump in the current directory.
rm -f "$work/erl_crash.dump"
run beamvm slogan ""
[ -s "$work/erl_crash.dump" ] || fail "no erl_crash.dump in the current directory"
grep -q 'Crash dump is being written to: erl_crash.dump...done' "$work/beamvm.err" || fail "default name: stderr $(cat "$work/beamvm.err")"

# 3. ERL_CRASH_DUMP_SECONDS=0: no dump, only the slogan on stderr, status 1.
rm -f "$work/erl.dump" "$work/beamvm.dump"
export ERL_CRASH_DUMP_SECONDS=0
run erl slogan "$work/erl.dump"
run beamvm slogan "$work/beamvm.dump"
unset ERL_CRASH_DUMP_SECONDS
same_stderr "ERL_CRASH_DUMP_SECONDS=0"
[ ! -e "$work/beamvm.dump" ] || fail "ERL_CRASH_DUMP_SECONDS=0 wrote a dump"

# 4. halt("boom", [{flush, false}]): as halt/1.
run erl noflush "$work/erl.dump"
run beamvm noflush "$work/beamvm.dump"
same_stderr "halt(\"boom\", [{flush,false}])"
[ -s "$work/beamvm.dump" ] || fail "halt/2 with a string wrote no dump"

# 5. halt("") and a slogan past erts' 1023 characters: stderr and the dump's Slogan line.
for mode in empty long; do
  run erl $mode "$work/erl.dump"
  run beamvm $mode "$work/beamvm.dump"
  same_stderr "slogan $mode"
  [ "$(grep -a '^Slogan' "$work/erl.dump")" = "$(grep -a '^Slogan' "$work/beamvm.dump")" ] || fail "slogan $mode: Slogan lines differ"
done

# 6. halt(3): no dump, status 3.
rm -f "$work/erl.dump" "$work/beamvm.dump"
run erl status "$work/erl.dump"
run beamvm status "$work/beamvm.dump"
same_stderr "halt(3)"
[ ! -e "$work/beamvm.dump" ] || fail "halt(3) wrote a dump"

# 8. kill -USR1 (erl's default: "Received SIGUSR1", a dump, status 1), once the program waits.
usr1() {
  local vm=$1 cmd=erl
  [ "$vm" = beamvm ] && cmd=$beamvm
  (cd "$work" || exit
   ERL_CRASH_DUMP="$work/$vm.dump" timeout 30 "$cmd" -noshell -pa "$work" -run crash_prog main wait \
      </dev/null >"$work/$vm.out" 2>"$work/$vm.err" &
   echo $! >"$work/$vm.pid"; wait $!; echo $? >"$work/$vm.rc")
}
for vm in erl beamvm; do
  rm -f "$work/$vm.dump"
  usr1 $vm &
  for _ in $(seq 150); do grep -q waiting "$work/$vm.err" 2>/dev/null && break; sleep 0.1; done
  # timeout's child is the VM (erl: erlexec execs beam.smp under the same pid)
  kill -USR1 "$(pgrep -P "$(cat "$work/$vm.pid")" | head -1)"
  wait
  sed -i '/^waiting$/d' "$work/$vm.err"
done
same_stderr "kill -USR1"
[ "$(grep -a '^Slogan' "$work/erl.dump")" = "$(grep -a '^Slogan' "$work/beamvm.dump")" ] || fail "kill -USR1: Slogan lines differ"

# 7. beamvm's internal fatal-error path (vm/fatal_error.hpp), reached through a NIF that hands
# enif_term_type a word that is no term: the message, a dump the viewer reads, abort() (134).
# beamvm only: erl has no such check to compare with.
if cc -shared -fPIC -O1 -I/usr/lib/erlang/usr/include -o "$work/fatal_nif.so" "$here/fatal_nif.c" 2>"$work/cc.err" &&
   erlc -o "$work" "$here/fatal_nif.erl"; then
  (cd "$work" && ERL_CRASH_DUMP="$work/fatal.dump" timeout 30 "$beamvm" -noshell -pa "$work" -s fatal_nif main \
      </dev/null >/dev/null 2>"$work/fatal.err"; echo $? >"$work/fatal.rc") 2>/dev/null  # bash reports the abort
  [ "$(cat "$work/fatal.rc")" = 134 ] || fail "fatal error: exit status $(cat "$work/fatal.rc"), not 134"
  grep -q 'Crash dump is being written to: .*fatal.dump...done' "$work/fatal.err" || { fail "fatal error: stderr"; cat "$work/fatal.err"; }
  report "$work/fatal.dump" >"$work/fatal.report"
  grep -qx 'slogan: invalid term passed to enif_term_type' "$work/fatal.report" || { fail "fatal error: the viewer's slogan"; head -3 "$work/fatal.report"; }
  grep -qx 'registered: bystander Waiting' "$work/fatal.report" || fail "fatal error: bystander not Waiting in the viewer"
else
  echo "fatal-error case skipped: no C compiler or erl_nif.h ($(head -1 "$work/cc.err"))"
fi

[ $failures -eq 0 ] && echo "crash dump: all cases as erl"
exit $((failures > 0))
