#!/usr/bin/env bash
# Usage: tests/elixir/elixir.sh BEAMVM
# Debian's Elixir, unmodified, on BEAMVM against erl. Elixir's launchers exec `erl` from PATH
# (ERTS_BIN is empty in /usr/lib/elixir/bin/elixir), so the beamvm runs put a directory whose
# `erl` is a link to BEAMVM first on PATH. Offline: HOME and MIX_HOME are temporary (no hex).
#   elixir -e '...'   the same output and status as on erl;
#   mix new, mix test a tiny project: mix new's output and mix test's summary (timings masked)
#                     and status are erl's;
#   iex on a terminal (tmux, 100x30): `1 + 2`, `i 1` and `h Enum.map` (the docs chunk); the
#                     screen from the first prompt on is erl's;
#   iex -S mix in the project: Tiny.hello, then lib/tiny.ex changed and `recompile()`: the
#                     new version answers, and the screen from the first prompt on is erl's.
# Skipped (77) when elixir or tmux is not installed.
set -u
[ $# -eq 1 ] || { echo "usage: $0 BEAMVM" >&2; exit 2; }
beamvm=$(realpath "$1")
command -v elixir >/dev/null && command -v mix >/dev/null && command -v iex >/dev/null ||
    { echo "elixir not installed (tools/setup.sh installs it)"; exit 77; }
command -v tmux >/dev/null || { echo "tmux not installed"; exit 77; }
source "$(dirname "$0")/../tmux_screen.sh"
work=$(mktemp -d)
trap 'tmux_cleanup; rm -rf "$work"' EXIT
mkdir -p "$work/bin" && ln -s "$beamvm" "$work/bin/erl"
export HOME=$work MIX_HOME=$work/mix HEX_OFFLINE=1 MIX_ENV=test NO_COLOR=1
erl_path=$PATH
beamvm_path=$work/bin:$PATH
onvm() { local vm=$1; shift; if [ "$vm" = erl ]; then PATH=$erl_path "$@"; else PATH=$beamvm_path "$@"; fi; }
status=0
# The newline that the terminal echoes after `System.halt()` races the halt on either VM (erl
# under a loaded test run once ended the screen with "System.halt()EXITED 0"): a screen's
# last command and the shell's EXITED line are compared as one line.
join_halt() { sed -i -e ':a' -e 'N' -e '$!ba' -e 's/System\.halt()\n*EXITED/System.halt()EXITED/' "$1"; }
compare() {  # NAME: $work/erl.NAME against $work/beamvm.NAME
    if cmp -s "$work/erl.$1" "$work/beamvm.$1"; then echo "same: $1 ($(grep -v '^$' "$work/beamvm.$1" | tail -3 | tr '\n' ' '))"
    else echo "DIFFERS: $1"; diff "$work/erl.$1" "$work/beamvm.$1" | head -30; status=1; fi
}
for vm in erl beamvm; do
    (cd "$work" && onvm $vm timeout 60 elixir -e 'IO.puts(Enum.sum(1..10)); IO.inspect(Enum.map([1, 2, 3], &(&1 * 2)))' >"$work/$vm.elixir_e" 2>&1
     echo "status $?" >>"$work/$vm.elixir_e")
done
compare elixir_e
for vm in erl beamvm; do
    mkdir -p "$work/$vm"
    (cd "$work/$vm" && onvm $vm timeout 120 mix new tiny >"$work/$vm.mix_new" 2>&1; echo "status $?" >>"$work/$vm.mix_new")
    # mix test's summary: "Finished in ... seconds", "N doctest, M tests, F failures", the seed line.
    (cd "$work/$vm/tiny" && onvm $vm timeout 240 mix test --seed 0 >"$work/$vm.mix_test_all" 2>&1; echo "status $?" >>"$work/$vm.mix_test_all")
    grep -E '^(Finished in|[0-9]+ (doctest|test)|Randomized with|status )' "$work/$vm.mix_test_all" |
        sed -E 's/[0-9.]+ seconds \([0-9.]+s async, [0-9.]+s sync\)/N seconds/' >"$work/$vm.mix_test"
done
compare mix_new
compare mix_test
grep -q '^status 0$' "$work/beamvm.mix_test" || { echo "mix test on beamvm:"; tail -30 "$work/beamvm.mix_test_all"; status=1; }
# iex on a terminal: an expression and two helpers (i/1 describes a term, h/1 prints docs).
for vm in erl beamvm; do
    "${TMUX_CMD[@]}" new-session -d -s "$vm" -x 100 -y 30 -c "$work" \
        "PATH=$([ $vm = erl ] && echo "$erl_path" || echo "$beamvm_path") iex; echo EXITED \$?; sleep 60"
    wait_for "$vm" '^iex\(1\)> ' 60 || status=1
    "${TMUX_CMD[@]}" send-keys -t "$vm" -l '1 + 2'; "${TMUX_CMD[@]}" send-keys -t "$vm" Enter
    wait_for "$vm" '^iex\(2\)> ' 20 || status=1
    "${TMUX_CMD[@]}" send-keys -t "$vm" -l 'i 1'; "${TMUX_CMD[@]}" send-keys -t "$vm" Enter
    wait_for "$vm" '^iex\(3\)> ' 20 || status=1
    "${TMUX_CMD[@]}" send-keys -t "$vm" -l 'h Enum.map'; "${TMUX_CMD[@]}" send-keys -t "$vm" Enter
    wait_for "$vm" '^iex\(4\)> ' 20 || status=1
    "${TMUX_CMD[@]}" send-keys -t "$vm" -l 'System.halt()'; "${TMUX_CMD[@]}" send-keys -t "$vm" Enter
    wait_for "$vm" 'EXITED' 20 || status=1
    # From the first prompt on (the banner names the emulator).
    screen "$vm" | sed -n '/^iex(1)> /,$p' | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' >"$work/$vm.iex"
    join_halt "$work/$vm.iex"
done
grep -q '^3$' "$work/beamvm.iex" && grep -q 'Enum.map(\[1, 2, 3\]' "$work/beamvm.iex" || status=1
compare iex
# iex -S mix: recompile/0 picks up a changed module.
for vm in erl beamvm; do
    "${TMUX_CMD[@]}" new-session -d -s "mix_$vm" -x 100 -y 30 -c "$work/$vm/tiny" \
        "PATH=$([ $vm = erl ] && echo "$erl_path" || echo "$beamvm_path") iex -S mix; echo EXITED \$?; sleep 60"
    wait_for "mix_$vm" '^iex\(1\)> ' 120 || status=1
    "${TMUX_CMD[@]}" send-keys -t "mix_$vm" -l 'Tiny.hello'; "${TMUX_CMD[@]}" send-keys -t "mix_$vm" Enter
    wait_for "mix_$vm" '^iex\(2\)> ' 20 || status=1
    sed -i 's/^    :world$/    :recompiled/' "$work/$vm/tiny/lib/tiny.ex"
    "${TMUX_CMD[@]}" send-keys -t "mix_$vm" -l 'recompile()'; "${TMUX_CMD[@]}" send-keys -t "mix_$vm" Enter
    wait_for "mix_$vm" '^iex\(3\)> ' 120 || status=1
    "${TMUX_CMD[@]}" send-keys -t "mix_$vm" -l 'Tiny.hello'; "${TMUX_CMD[@]}" send-keys -t "mix_$vm" Enter
    wait_for "mix_$vm" '^iex\(4\)> ' 20 || status=1
    "${TMUX_CMD[@]}" send-keys -t "mix_$vm" -l 'System.halt()'; "${TMUX_CMD[@]}" send-keys -t "mix_$vm" Enter
    wait_for "mix_$vm" 'EXITED' 20 || status=1
    screen "mix_$vm" | sed -n '/^iex(1)> /,$p' | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' >"$work/$vm.iex_mix"
    join_halt "$work/$vm.iex_mix"
done
grep -q '^:recompiled$' "$work/beamvm.iex_mix" || status=1
compare iex_mix
exit $status
