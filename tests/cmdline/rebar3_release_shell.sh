#!/usr/bin/env bash
# Usage: tests/cmdline/rebar3_release_shell.sh BEAMVM
# Debian's rebar3 on BEAMVM against erl, offline (HOME in a temporary directory): `rebar3 release`
# (relx) assembles a release of a tiny library, with erl's output, the same files and the same
# boot script; `rebar3 shell` on a terminal (tmux, 100x30) evaluates an expression that calls the
# project's module, and the screen from the expression on is erl's. Skipped (77) without rebar3/tmux.
set -u
[ $# -eq 1 ] || { echo "usage: $0 BEAMVM" >&2; exit 2; }
beamvm=$(realpath "$1")
rebar3=$(command -v rebar3) || { echo "rebar3 not installed (tools/setup.sh installs it)"; exit 77; }
command -v tmux >/dev/null || { echo "tmux not installed"; exit 77; }
source "$(dirname "$0")/../tmux_screen.sh"
work=$(mktemp -d)
trap 'tmux_cleanup; rm -rf "$work"' EXIT
export HOME=$work REBAR_OFFLINE=1 REBAR_COLOR=none
status=0
# One project per VM, so that neither reuses what the other built.
for vm in erl beamvm; do
    mkdir -p "$work/$vm" && (cd "$work/$vm" && timeout $((60 * time_scale)) rebar3 new lib tiny >/dev/null 2>&1) || { echo "FAILED: rebar3 new lib"; exit 1; }
    printf -- '-module(tiny).\n-export([hello/0]).\nhello() -> {hello, lists:sum([1, 2, 3])}.\n' >"$work/$vm/tiny/src/tiny.erl"
    printf '{erl_opts, [debug_info]}.\n{deps, []}.\n{relx, [{release, {tiny, "0.1.0"}, [tiny]}, {dev_mode, false}, {include_erts, false}]}.\n' >"$work/$vm/tiny/rebar.config"
done
run() { if [ "$1" = erl ]; then echo "$rebar3"; else echo "$beamvm $rebar3"; fi; }
for vm in erl beamvm; do
    (cd "$work/$vm/tiny" && timeout $((120 * time_scale)) $(run $vm) release >"$work/$vm.release" 2>&1; echo "status $?" >>"$work/$vm.release")
    (cd "$work/$vm/tiny/_build/default/rel" && find . | sort >"$work/$vm.files")
done
if cmp -s "$work/erl.release" "$work/beamvm.release"; then echo "same: rebar3 release ($(grep -c . "$work/beamvm.release") lines, $(tail -1 "$work/beamvm.release"))"
else echo "DIFFERS: rebar3 release"; diff "$work/erl.release" "$work/beamvm.release"; status=1; fi
if [ -s "$work/beamvm.files" ] && cmp -s "$work/erl.files" "$work/beamvm.files"; then echo "same: the release's files ($(wc -l <"$work/beamvm.files"))"
else echo "DIFFERS: the release's files"; diff "$work/erl.files" "$work/beamvm.files" | head -20; status=1; fi
script=_build/default/rel/tiny/releases/0.1.0/start.script
if [ -f "$work/beamvm/tiny/$script" ] && cmp -s "$work/erl/tiny/$script" "$work/beamvm/tiny/$script"; then echo "same: start.script"
else echo "DIFFERS: start.script"; status=1; fi
# rebar3 shell: the same keystrokes on both; the screen from the first prompt on is compared.
for vm in erl beamvm; do
    "${TMUX_CMD[@]}" new-session -d -s "$vm" -x 100 -y 30 -c "$work/$vm/tiny" "$(run $vm) shell; echo EXITED \$?; sleep 60"
    wait_for "$vm" '^1> ' 60 || status=1
    wait_for "$vm" 'Booted tiny' 30 || status=1
    "${TMUX_CMD[@]}" send-keys -t "$vm" -l 'tiny:hello().'; "${TMUX_CMD[@]}" send-keys -t "$vm" Enter
    wait_for "$vm" '^2> ' 20 || status=1
    "${TMUX_CMD[@]}" send-keys -t "$vm" -l 'q().'; "${TMUX_CMD[@]}" send-keys -t "$vm" Enter
    wait_for "$vm" 'EXITED' 20 || status=1
    # From the expression on: "Booted tiny" races with the first prompt (it comes before it
    # on erl, after it on beamvm, whose shell starts sooner), so the first prompt is dropped.
    # What follows q(). is a race too, on either VM: the shell prints ok and a prompt unless
    # init's halt comes first (erl printed neither once under load), so the screen is compared
    # up to the q(). line, and the exit status on its own.
    [ -f "$work/$vm/tiny/rebar3.crashdump" ] && cat "$work/$vm/tiny/rebar3.crashdump"
    screen "$vm" | sed -n '/tiny:hello()/,/q()\./p' | sed 's/^1> //' >"$work/$vm.shell"
    screen "$vm" | grep -o 'EXITED [0-9]*' >>"$work/$vm.shell"
done
if grep -q '{hello,6}' "$work/beamvm.shell" && cmp -s "$work/erl.shell" "$work/beamvm.shell"; then echo "same: rebar3 shell ($(tr '\n' ' ' <"$work/beamvm.shell"))"
else echo "DIFFERS: rebar3 shell"; diff "$work/erl.shell" "$work/beamvm.shell"; status=1; fi
exit $status
