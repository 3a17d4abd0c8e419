#!/usr/bin/env bash
# Usage: tests/cmdline/erl_args.sh BEAMVM
# erl's command line on BEAMVM against erl, each case run on both and the outputs compared:
#  - what init gets: init:get_arguments() (root, bindir and progname aside: they name the VM)
#    and init:get_plain_arguments(), with ERL_AFLAGS/ERL_FLAGS/ERL_ZFLAGS, nested -args_file
#    with comments and quotes, -extra in several places, -env, -boot_var, -mode;
#  - system_info and friends under the emulator flags beamvm honours (+P, +Q, +t, +A, +S,
#    +SDcpu, +SDio, +hms, +hmbs, +hmax, +hmaxk, +R, +C, +c, +zdbbl, +spp, +sbt, +fn*, +pc, +W);
#  - every emulator flag of erl's manual, with a value, starts the node (prints "up");
#  - bad flags and values: erl's message (its first line; the program's path masked) and exit
#    status.
set -u
[ $# -eq 1 ] || { echo "usage: $0 BEAMVM" >&2; exit 2; }
beamvm=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 2
unset ERL_AFLAGS ERL_FLAGS ERL_ZFLAGS ERL_LIBS
status=0
same() {  # tag, erl output, beamvm output
  if [ "$2" = "$3" ]; then echo "same: $1"; else echo "DIFFERS: $1"; diff <(echo "$2") <(echo "$3"); status=1; fi
}

# --- what init gets ---
printf -- '-af1 one # a comment\n-af2 "two words" '"'"'x y'"'"' a\\ b\n-args_file inner.txt -extra file_plain\n' >outer.txt
printf -- '# only flags here\n-inner 1 +A 3\n-extra inner_plain\n' >inner.txt
args='io:format("~p~n~p~n", [[A || A = {K, _} <- init:get_arguments(), not lists:member(K, [root, bindir, progname, home])], init:get_plain_arguments()]), halt().'
run_args() {  # tag, env assignments (space separated VAR=VALUE, no spaces in values), flags...
  local tag=$1 envs=$2; shift 2
  # shellcheck disable=SC2086
  local e b
  e=$(env $envs timeout 30 erl -noshell -eval "$args" "$@" 2>&1 </dev/null)
  b=$(env $envs timeout 30 "$beamvm" -noshell -eval "$args" "$@" 2>&1 </dev/null)
  same "args: $tag" "$e" "$b"
}
run_args "plain flags" "" -a 1 2 -b -- -c 3 -extra x -y
run_args "ERL_*FLAGS" "ERL_AFLAGS=-aa ERL_FLAGS=-ff ERL_ZFLAGS=-zz" -cmd 1
ERL_FLAGS="-f1 y -extra e1" ERL_AFLAGS="-a1 x" ERL_ZFLAGS="-z1 z +A 2" \
  run_args "ERL_*FLAGS with -extra" "" -cmd 1 -extra p1
run_args "-args_file nested" "" -args_file outer.txt -after 1 -extra p
ERL_FLAGS="-args_file outer.txt" run_args "-args_file from ERL_FLAGS" ""
run_args "-env -boot_var -mode" "" -env MYVAR hello -boot_var MYLIB /tmp -mode interactive
run_args "-env read back" "" -env MYVAR hello -eval 'io:format("~s~n",[os:getenv("MYVAR")])'

# ERL_LIBS: the code server adds each application's ebin to the path.
mkdir -p libs/erl_libs_app-1.0/ebin
printf -- '-module(erl_libs_app).\n-export([hi/0]).\nhi() -> hello.\n' >erl_libs_app.erl
erlc -o libs/erl_libs_app-1.0/ebin erl_libs_app.erl
libs='io:format("~p ~p~n", [filename:basename(code:lib_dir(erl_libs_app)), erl_libs_app:hi()]), halt().'
e=$(ERL_LIBS=$work/libs timeout 30 erl -noshell -eval "$libs" 2>&1 </dev/null)
b=$(ERL_LIBS=$work/libs timeout 30 "$beamvm" -noshell -eval "$libs" 2>&1 </dev/null)
same "ERL_LIBS" "$e" "$b"
run_args "-init_debug -mode embedded" "" -init_debug -mode embedded

# --- -heart: kernel's heart runs OTP's heart program (found on PATH in erts' bin directory) ---
heart='io:format("~p~n", [{is_pid(whereis(heart)), heart:get_cmd(), heart:set_cmd("echo hi"), heart:get_cmd(), heart:clear_cmd(), heart:get_cmd()}]), init:stop().'
hmask() { sed -E -e 's/heart_beat_kill_pid = [0-9]+/heart_beat_kill_pid = PID/' -e 's/^heart: .*: /heart: DATE: /'; }
e=$(HEART_COMMAND="true restart" timeout 30 erl -heart -noshell -eval "$heart" 2>&1 </dev/null | hmask)
b=$(HEART_COMMAND="true restart" timeout 30 "$beamvm" -heart -noshell -eval "$heart" 2>&1 </dev/null | hmask)
same "-heart with HEART_COMMAND, set_cmd, get_cmd, clear_cmd" "$e" "$b"

# --- system_info under honoured flags ---
info='io:format("~p~n", [[catch erlang:system_info(X) || X <- [process_limit, port_limit, atom_limit, thread_pool_size, min_heap_size, min_bin_vheap_size, max_heap_size, compat_rel, time_warp_mode, time_correction, dist_buf_busy_limit, port_parallelism, scheduler_bind_type, schedulers, schedulers_online, dirty_cpu_schedulers, dirty_cpu_schedulers_online, dirty_io_schedulers, ets_limit, kernel_poll]] ++ [file:native_name_encoding(), io:printable_range(), error_logger:warning_map(), io_lib:format("~p", [[1024]])]]), halt().'
for flags in "" "+P 5000 +Q 5000 +t 10000 +A 7" "+hms 1000 +hmbs 5000 +hmax 100000 +hmaxk false" \
             "+R 24 +C multi_time_warp +c false +zdbbl 2048 +spp true" "+sbt db +fnl +pc unicode +Wi" \
             "+S 2:1 +SDcpu 2:1 +SDio 3" "+S 1" "+SP 50:50" "+P1024 +A1 +sbtu +hms500 +fnu +Ww +c"; do
  # shellcheck disable=SC2086
  e=$(timeout 30 erl $flags -noshell -eval "$info" 2>&1 </dev/null)
  # shellcheck disable=SC2086
  b=$(timeout 30 "$beamvm" $flags -noshell -eval "$info" 2>&1 </dev/null)
  same "system_info: ${flags:-(none)}" "$e" "$b"
done
limit='R = (catch [spawn(fun() -> receive _ -> ok end end) || _ <- lists:seq(1, 1100)]), io:format("~p~n", [element(1, element(2, R))]), timer:sleep(300), halt().'
e=$(timeout 30 erl +P 1024 -noshell -eval "$limit" 2>&1 </dev/null)
b=$(timeout 30 "$beamvm" +P 1024 -noshell -eval "$limit" 2>&1 </dev/null)
tmask() { sed -E 's/^=ERROR REPORT==== .* ===$/=ERROR REPORT==== TIME ===/'; }
same "+P 1024: spawn past the limit raises system_limit" "$(echo "$e" | tmask)" "$(echo "$b" | tmask)"
e=$(LC_ALL=C timeout 30 erl -noshell -eval 'io:format("~p~n",[file:native_name_encoding()]),halt().' 2>&1)
b=$(LC_ALL=C timeout 30 "$beamvm" -noshell -eval 'io:format("~p~n",[file:native_name_encoding()]),halt().' 2>&1)
same "+fna (default) under LC_ALL=C" "$e" "$b"

# +fnu/+fnl/+fnue/+fnui: how file names that are not UTF-8 are listed, encoded and decoded.
mkdir names && printf x >"names/$(printf 'caf\xe9')" && printf y >"names/$(printf 'na\xc3\xafve')"
names='{ok, D} = file:get_cwd(), ok = file:set_cwd(D ++ "/names"), R = file:list_dir("."), io:format("~w ~w~n", [case R of {ok, L} -> lists:sort(L); Err -> Err end, [catch prim_file:internal_name2native([16#100]), prim_file:is_translatable(<<233>>), file:native_name_encoding()]]), timer:sleep(300), halt().'
wmask() { sed -E 's/^=WARNING REPORT==== .* ===$/=WARNING REPORT==== TIME ===/'; }
for flags in "+fnu" "+fnl" "+fnue" "+fnui"; do
  e=$(timeout 30 erl $flags -noshell -eval "$names" 2>&1 </dev/null | wmask)
  b=$(timeout 30 "$beamvm" $flags -noshell -eval "$names" 2>&1 </dev/null | wmask)
  same "file names under $flags" "$e" "$b"
done

# --- every emulator flag of erl's manual, with a value, is accepted ---
# Fed in groups (one start-up each, to keep the test short); a group that differs is split.
accepted=("+a 64 +A 4 +A4 +B +Bc +Bd +Bi +B i +c +c true +cfalse +C no_time_warp +d +dcg4 +e 4096 +ec +fnu +fnl +fna +fnue +fnai"
  "+hms 300 +hmbs 40000 +hmax 0 +hmaxk true +hmaxel false +hpds 16 +hmqd off_heap +IOt 1 +IOp 1 +IOPt 100 +IOPp 100 +JPperf false +JDdump false +K true +L"
  "+MBas bf +MBasbf +MMscs 0 +Mea min +MIscs 1024 +Mlpm all +MHacul de +n d +P 1048576 +pc latin1 +Q 4096 +R 25 +r +rg 4"
  "+S 1:1 +S :1 +SP 100:100 +SDcpu 1:1 +SDPcpu 50:50 +SDio 5 +sbt u +sbtu +sbwt none +sbwtdcpu short +sbwtdio long +scl false +secio true +sfwi 100 +spp false"
  "+sss 128 +sssdcpu 40 +sssdio 40 +stbt u +sub false +swct eager +sws default +swt low +swtdcpu medium +swtdio high +t 1048576 +T 0 +v +W w +We"
  "+zdbbl 1024 +zdntgc 10 +zebwt short +zosrl 100 +sbtu +A1")
up='io:format("up~n"), halt().'
for flags in "${accepted[@]}"; do
  # shellcheck disable=SC2086
  e=$(timeout 30 erl $flags -noshell -eval "$up" 2>&1 </dev/null; echo "status $?")
  # shellcheck disable=SC2086
  b=$(timeout 30 "$beamvm" $flags -noshell -eval "$up" 2>&1 </dev/null; echo "status $?")
  same "accepted: $flags" "$e" "$b"
done

# --- bad flags: erl's message and status ---
bad=("+xyz" "+P abc" "+P 10" "+t 10" "+Q 100" "+sbt x" "+hmsx" "+hmax -1" "+fnx" "+fnuq" "+MBxx 1" "+Mxyz 1"
  "+sfoo 1" "+zfoo 1" "+W x" "+C foo" "+cfoo" "+R 20" "+S 3:4" "+S x" "+A 2000" "+SDio 0" "+zdbbl 0"
  "+pc foo" "+hmaxk x" "+T 12" "+sbwt x" "+swt x" "+spp x" "+hmqd x" "+Jxyz 1"
  "-args_file /nonexistent/args" "-args_file")
for flags in "${bad[@]}"; do
  # shellcheck disable=SC2086
  e=$(timeout 30 erl -noshell -eval "$up" $flags 2>&1 >/dev/null </dev/null; echo "status $?")
  # shellcheck disable=SC2086
  b=$(timeout 30 "$beamvm" -noshell -eval "$up" $flags 2>&1 >/dev/null </dev/null; echo "status $?")
  e=$(echo "$e" | sed -n '1p;$p'); b=$(echo "$b" | sed -n '1p;$p')  # the message and the status
  mask() { sed -E 's#^[^ ]*/[^ ]* unknown flag#PROGRAM unknown flag#'; }
  same "bad: $flags" "$(echo "$e" | mask)" "$(echo "$b" | mask)"
done

# --- -version: the emulator's version line on stderr, exit 0; beamvm's adds "[beamvm, OTP 25]" ---
b=$(timeout 30 "$beamvm" -version 2>&1 </dev/null; echo "status $?")
e=$(timeout 30 erl -version 2>&1 </dev/null; echo "status $?")
same "-version" "$(echo "$e" | sed -E 's/$//')" "$(echo "$b" | sed -E 's/ \[beamvm, OTP [0-9]+\]//')"
exit $status
