#!/usr/bin/env bash
# The break menu's answers whose figures differ by design between VMs (pids, addresses, sizes,
# counts), checked by their structure instead of compared byte for byte: the same checks run
# on erl (the specification: a check erl fails is a wrong check) and on beamvm.
#   p  every process's =proc section (State, Spawned as, Message queue length, Stack dump,
#      Internal State), init's and a registered process's among them, then the =port sections;
#   o  =port sections, the terminal's tty_sl driver among them;
#   D  =ets sections, a named public table's with its one object in a bucket line;
#   i  =memory with its figures, =index_table:atom_tab;
#   l  the code totals, then one "module size" line each;
#   k  the processes one by one: the registered process is killed from the menu, (r)eturn,
#      and whereis/1 no longer finds it.
# After each answer the system goes on (erl does not show the menu again): the shell answers.
#
# usage: break_info_check.sh BEAMVM
set -u
[ $# -eq 1 ] || { echo "usage: $0 BEAMVM" >&2; exit 2; }
BEAMVM=$(realpath "$1")
ERL=${ERL:-erl}
command -v tmux >/dev/null || { echo "tmux not installed"; exit 77; }
source "$(dirname "$0")/../tmux_screen.sh"
WORK=$(mktemp -d)
trap 'tmux_cleanup; rm -rf "$WORK"' EXIT
echo 'set -g history-limit 500000' > "$WORK/tmux.conf"
TMUX_CMD=(tmux -L "beamvm-break-info-$$" -f "$WORK/tmux.conf")

type_line() { "${TMUX_CMD[@]}" send-keys -t "$1" -l "$2"; "${TMUX_CMD[@]}" send-keys -t "$1" Enter; }
count() { screen "$1" | grep -Ec -- "$2"; }
# wait_count SESSION REGEX N: until N lines match
wait_count() {
    local i
    for ((i = 0; i < 200; i++)); do
        [ "$(count "$1" "$2")" -ge "$3" ] && return 0
        sleep 0.1
    done
    echo "  timed out waiting for $3 x /$2/ in $1" >&2
    return 1
}
# What the last answer printed: the screen after the last menu.
answer_text() { screen "$1" | awk '/^BREAK: /{buf=""; next} {buf = buf $0 "\n"} END{printf "%s", buf}'; }

fails=0
expect() {  # VM WHAT FILE REGEX: a line of FILE matches
    if ! grep -Eq -- "$4" "$3"; then
        echo "  $1: $2: no line matches /$4/"
        fails=$((fails + 1))
    fi
}
# Within each "=proc:" section of FILE, the lines every section has.
proc_sections_complete() {
    awk '/^=proc:/{if (sec && need) bad++; sec=1; need=5; seen=""}
         sec && /^State: /{need--} sec && /^Spawned as: /{need--} sec && /^Message queue length: /{need--}
         sec && /^Stack dump:$/{need--} sec && /^Internal State: /{need--; if (need == 0) sec=0}
         END{if (sec && need) bad++; exit bad ? 1 : 0}' "$1"
}

check_vm() {  # NAME COMMAND
    local s=$1 out="$WORK/$1"
    "${TMUX_CMD[@]}" new-session -d -s "$s" -x 200 -y 50 -c "$WORK" \
        "env -i PATH=$PATH TERM=screen LANG=C.UTF-8 HOME=$WORK $2; echo EXITED; sleep 60"
    wait_for "$s" '^1> ' 30 || { fails=$((fails + 1)); return; }
    type_line "$s" 'ets:new(brk_tab, [named_table, public]), ets:insert(brk_tab, {a,1}), register(brk_proc, spawn(fun() -> receive after infinity -> ok end end)).'
    wait_for "$s" '^2> ' || { fails=$((fails + 1)); return; }
    local n=0 key
    for key in p o D i l; do
        n=$((n + 1))
        "${TMUX_CMD[@]}" send-keys -t "$s" C-c
        wait_count "$s" '^BREAK: ' $n || { fails=$((fails + 1)); return; }
        type_line "$s" "$key"
        settle "$s"
        answer_text "$s" > "$out.$key"
    done
    expect $s p "$out.p" '^=proc:<0\.0\.0>$'
    expect $s p "$out.p" '^Name: init$'
    expect $s p "$out.p" '^Name: brk_proc$'
    expect $s p "$out.p" '^Program counter: 0x[0-9a-f]+ \('
    expect $s p "$out.p" '^y\(0\) +'
    expect $s p "$out.p" '^=port:#Port<0\.[0-9]+>$'
    proc_sections_complete "$out.p" || { echo "  $s: p: a =proc section lacks State, Spawned as, Message queue length, Stack dump or Internal State"; fails=$((fails + 1)); }
    [ "$(grep -c '^=proc:' "$out.p")" -ge 20 ] || { echo "  $s: p: fewer than 20 processes"; fails=$((fails + 1)); }
    expect $s o "$out.o" '^=port:#Port<0\.[0-9]+>$'
    expect $s o "$out.o" '^Port controls linked-in driver: tty_sl -c -e$'
    expect $s o "$out.o" '^Connected: <0\.[0-9]+\.0>$'
    grep -q '^=proc:' "$out.o" && { echo "  $s: o: printed processes"; fails=$((fails + 1)); }
    expect $s D "$out.D" '^=ets:<0\.[0-9]+\.0>$'
    expect $s D "$out.D" '^Table: brk_tab$'
    expect $s D "$out.D" '^[0-9]+: \[\{a,1\}\]$'
    expect $s D "$out.D" '^Chain Length Avg: [0-9]+\.[0-9]{6}$'
    expect $s D "$out.D" '^Protection: public$'
    expect $s D "$out.D" '^Ordered set \(AVL tree\), Elements: [0-9]+$'
    expect $s i "$out.i" '^=memory$'
    expect $s i "$out.i" '^total: [0-9]+$'
    expect $s i "$out.i" '^processes_used: [0-9]+$'
    expect $s i "$out.i" '^=index_table:atom_tab$'
    expect $s l "$out.l" '^Current code: [0-9]+$'
    expect $s l "$out.l" '^Old code: [0-9]+$'
    expect $s l "$out.l" '^lists [0-9]+$'
    expect $s l "$out.l" '^erlang [0-9]+$'
    # The system went on after each: the shell answers (its prompt is not drawn again).
    type_line "$s" '6*7.'
    wait_for "$s" '^42$' || fails=$((fails + 1))
    # (k)ill: (n)ext until the registered process is shown, (k)ill it, then (r)eturn.
    n=$((n + 1))
    "${TMUX_CMD[@]}" send-keys -t "$s" C-c
    wait_count "$s" '^BREAK: ' $n || { fails=$((fails + 1)); return; }
    type_line "$s" k
    local asked=1 killed=0 i
    for ((i = 0; i < 300; i++)); do
        wait_count "$s" '^\(k\)ill \(n\)ext \(r\)eturn:$' $asked || break
        if [ $killed -eq 1 ]; then type_line "$s" r; break; fi
        if answer_text "$s" | awk '/^=proc:/{name=""} /^Name: /{name=$2} END{exit name == "brk_proc" ? 0 : 1}'; then
            type_line "$s" k
            killed=1
        else
            type_line "$s" n
        fi
        asked=$((asked + 1))
    done
    [ $killed -eq 1 ] || { echo "  $s: k: brk_proc was never offered"; fails=$((fails + 1)); }
    settle "$s"
    type_line "$s" 'whereis(brk_proc).'
    wait_for "$s" '^undefined$' || { echo "  $s: k: brk_proc still registered"; fails=$((fails + 1)); }
    type_line "$s" 'q().'
    wait_for "$s" 'EXITED$' || fails=$((fails + 1))
}

for vm in erl beamvm; do
    before=$fails
    if [ $vm = erl ]; then check_vm erl "$ERL"; else check_vm beamvm "$BEAMVM"; fi
    if [ $fails -eq $before ]; then echo "ok   $vm"; else echo "FAIL $vm"; fi
done
exit $((fails > 0))
