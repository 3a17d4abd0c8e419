# Sourced by terminal tests: one private tmux server per test run ($TMUX_CMD), a screen reader
# and a bounded wait. The caller sets an EXIT trap that runs tmux_cleanup.
TMUX_CMD=(tmux -L "beamvm-$(basename "$0" .sh)-$$" -f /dev/null)
tmux_cleanup() { "${TMUX_CMD[@]}" kill-server 2>/dev/null; }
screen() { "${TMUX_CMD[@]}" capture-pane -p -J -S - -t "$1" 2>/dev/null; }
# BEAMVM_TEST_TIME_SCALE (tools/tsan.sh: the instrumented VM is 5-15x slower) multiplies the waits.
time_scale=${BEAMVM_TEST_TIME_SCALE:-1}
# wait_for SESSION REGEX [SECONDS]: until the screen matches (extended grep); 1 when it never does.
wait_for() {
    local i
    for ((i = 0; i < ${3:-20} * 10 * time_scale; i++)); do
        screen "$1" | grep -Eq -- "$2" && return 0
        sleep 0.1
    done
    echo "  timed out waiting for /$2/ in $1; the screen ends:" >&2
    screen "$1" | grep -v '^$' | tail -8 | sed 's/^/  | /' >&2
    return 1
}
# settle SESSION [ROUNDS]: until two captures 0.3 s apart are the same (at most ROUNDS, 40).
settle() {
    local a b i
    a=$(screen "$1")
    for ((i = 0; i < ${2:-40} * time_scale; i++)); do
        sleep 0.3
        b=$(screen "$1")
        [ "$a" = "$b" ] && return 0
        a=$b
    done
}
