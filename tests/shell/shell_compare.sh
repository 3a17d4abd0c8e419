#!/usr/bin/env bash
# Eshell on a terminal, erl against beamvm: each scenario (tests/shell/scenarios/*.keys) is
# typed into erl and into beamvm, each running in a tmux window of 80x24, and the screens
# (with their scrollback) are compared once the last step is done. Differences that are
# legitimately not the same (the banner's emulator line, pids, the node's host) are masked.
# After the VM exits, the terminal's mode (stty -g) must be what it was before it started.
#
# usage: shell_compare.sh BEAMVM [SCENARIO...]   (default: every scenario; SHOW=1 prints the screens)
# A scenario is lines of steps:
#   type TEXT      type TEXT literally
#   key K...       press tmux keys (Enter, Left, Up, Tab, C-a, C-g, ...)
#   wait REGEX     wait until the screen matches REGEX (extended grep), 10 s at most
#   waitn N REGEX  wait until N lines of the screen match REGEX
#   settle         wait until the screen stops changing
#   sh CMD         run CMD in the scenario's directory (e.g. to edit a module)
#   start ARGS     the VM's extra arguments (first line only; default none)
#   before CMD     run CMD in the scenario's directory before the VM starts
#   serial         run erl, then beamvm (not both at once: node names would clash)
#   twice          the VM runs again in the same window once it has exited (persistent history)
#   hex BYTES      type raw bytes, in hex (tmux send-keys -H: invalid UTF-8)
#   resize WxH     resize the window (the terminal sends SIGWINCH)
#   signal SIG     send SIG to the VM (kill -SIG)
#   jobcontrol     the VM is started from an interactive bash (job control: ^Z stops it and
#                  `fg` resumes it); the window shows "$ $VM" for either VM
# In every line @ID@ is this run's id (unique node names) and, in sh and before, $OTHER_VM is
# the other VM (beamvm when erl runs, erl when beamvm runs): -remsh from one into the other.
set -u
BEAMVM=$(realpath "$1")
shift
HERE=$(cd "$(dirname "$0")" && pwd)
ERL=${ERL:-erl}
source "$HERE/../tmux_screen.sh"  # screen, settle
SOCK=beamvm-shell-$$
TMUX_CMD=(tmux -L "$SOCK" -f /dev/null)
WORK=$(mktemp -d)
trap '"${TMUX_CMD[@]}" kill-server 2>/dev/null; rm -rf "$WORK"' EXIT

wait_for() {  # session regex [count]
    local i
    for ((i = 0; i < 100; i++)); do
        [ "$(screen "$1" | grep -Ec -- "$2")" -ge "${3:-1}" ] && return 0
        sleep 0.1
    done
    echo "  timed out waiting for /$2/ in $1; the screen ends:" >&2
    screen "$1" | grep -v '^$' | tail -6 | sed 's/^/  | /' >&2
    return 1
}

# The screen with what may differ between the two VMs masked; trailing blank lines dropped.
normalise() {
    sed -E -e 's/Erlang\/OTP 25 \[.*/Erlang\/OTP 25 [banner]/' \
        -e 's/<[0-9]+\.[0-9]+\.[0-9]+>/<pid>/g' \
        -e 's/@[A-Za-z0-9_.-]+/@host/g' \
        -e 's/#Ref<[0-9.]+>/#Ref<ref>/g' |
        sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
}

# run VMNAME COMMAND SCENARIO: the normalised screen in $WORK/VMNAME.screen
run() {
    local name=$1 cmd=$2 scen=$3 dir="$WORK/$1"
    rm -rf "$dir" && mkdir -p "$dir"
    local args=""
    args=$(sed -n 's/^start //p' "$scen" | sed "s/@ID@/$$/g" | head -1)
    local other=$BEAMVM
    [ "$name" = beamvm ] && other=$(command -v "$ERL")
    export OTHER_VM=$other
    while IFS= read -r line; do
        (cd "$dir" && eval "$line")
    done < <(sed -n 's/^before //p' "$scen" | sed "s/@ID@/$$/g")
    local run_vm="$cmd $args"
    grep -q '^twice$' "$scen" && run_vm="$cmd $args; $cmd $args"
    local jobs=0
    grep -q '^jobcontrol$' "$scen" && jobs=1
    if [ $jobs -eq 0 ]; then
        # The VM runs under sh, which records the terminal's mode before and after it (and
        # its own pid: the VM is its child).
        "${TMUX_CMD[@]}" new-session -d -s "$name" -x 80 -y 24 -c "$dir" \
            "env -i PATH=$PATH TERM=screen LANG=C.UTF-8 HOME=$dir sh -c 'echo \$\$ > sh.pid; stty -g > stty.before; $run_vm; stty -g > stty.after; echo \"[exited \$?]\"; sleep 30'"
    else
        # An interactive bash, where the VM is a job; the same lines are typed for either VM.
        "${TMUX_CMD[@]}" new-session -d -s "$name" -x 80 -y 24 -c "$dir" \
            "env -i PATH=$PATH TERM=screen LANG=C.UTF-8 HOME=$dir VM='$run_vm' PS1='$ ' bash --norc --noprofile -i"
        wait_for "$name" '^\$ $'
        "${TMUX_CMD[@]}" send-keys -t "$name" -l 'echo $$ > sh.pid; stty -g > stty.before; $VM'
        "${TMUX_CMD[@]}" send-keys -t "$name" Enter
    fi
    local ok=0 line
    while IFS= read -r line; do
        case "$line" in
        "type "*) "${TMUX_CMD[@]}" send-keys -t "$name" -l -- "${line#type }" ;;
        "key "*)  # one at a time, as typed: a burst of escape sequences in one read loses keys on erl too
            for k in ${line#key }; do
                "${TMUX_CMD[@]}" send-keys -t "$name" "$k"
                sleep 0.15
            done ;;
        "wait "*) wait_for "$name" "${line#wait }" || { ok=1; break; } ;;
        "waitn "*)
            local rest=${line#waitn }
            wait_for "$name" "${rest#* }" "${rest%% *}" || { ok=1; break; } ;;
        settle) settle "$name" ;;
        "sh "*) (cd "$dir" && eval "${line#sh }") ;;
        "hex "*) "${TMUX_CMD[@]}" send-keys -t "$name" -H ${line#hex } ;;
        "resize "*)
            local size=${line#resize }
            "${TMUX_CMD[@]}" resize-window -t "$name" -x "${size%x*}" -y "${size#*x}" ;;
        "signal "*) pkill "-${line#signal }" -P "$(cat "$dir/sh.pid")" ;;
        *) ;;
        esac
    done < <(grep -v -e '^#' -e '^start ' -e '^before ' -e '^twice$' -e '^serial$' -e '^jobcontrol$' -e '^$' "$scen" | sed "s/@ID@/$$/g")
    settle "$name"
    if [ $jobs -eq 1 ]; then  # bash records the mode after the VM
        # Once the VM has exited (bash, whose pid is in sh.pid, has no child left; 10 s at
        # most): a VM still halting when the screen settled took these keys as its own input
        # (shell_tmux's suspend scenario under load).
        local waited=0
        while pgrep -P "$(cat "$dir/sh.pid")" >/dev/null && [ $waited -lt 100 ]; do
            sleep 0.1
            waited=$((waited + 1))
        done
        settle "$name"
        "${TMUX_CMD[@]}" send-keys -t "$name" -l 'stty -g > stty.after'
        "${TMUX_CMD[@]}" send-keys -t "$name" Enter
        settle "$name"
    fi
    screen "$name" | normalise > "$WORK/$name.screen"
    if [ -f "$dir/stty.after" ] && ! cmp -s "$dir/stty.before" "$dir/stty.after"; then
        echo "  $name left the terminal in another mode: $(cat "$dir/stty.before") -> $(cat "$dir/stty.after")" >&2
        ok=1
    fi
    "${TMUX_CMD[@]}" kill-session -t "$name" 2>/dev/null
    return $ok
}

scenarios=("$@")
[ ${#scenarios[@]} -eq 0 ] && scenarios=("$HERE"/scenarios/*.keys)
fail=0
for scen in "${scenarios[@]}"; do
    n=$(basename "$scen" .keys)
    start=$SECONDS
    run_ok=0
    # Both VMs at once, each in its own window: every step waits for what it expects.
    # (A scenario marked `serial` uses fixed node names: one VM after the other.)
    if grep -q '^serial$' "$scen"; then
        run erl "$ERL" "$scen" || run_ok=1
        run beamvm "$BEAMVM" "$scen" || run_ok=1
    else
        run erl "$ERL" "$scen" &
        erl_job=$!
        run beamvm "$BEAMVM" "$scen" || run_ok=1
        wait $erl_job || run_ok=1
    fi
    if [ $run_ok -eq 0 ] && cmp -s "$WORK/erl.screen" "$WORK/beamvm.screen"; then
        echo "ok   $n ($((SECONDS - start)) s)"
        [ -n "${SHOW:-}" ] && sed 's/^/  | /' "$WORK/beamvm.screen"
    else
        echo "FAIL $n: erl (<) and beamvm (>) screens differ"
        diff "$WORK/erl.screen" "$WORK/beamvm.screen" | head -40
        fail=1
    fi
done
exit $fail
