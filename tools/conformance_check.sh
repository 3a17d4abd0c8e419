#!/usr/bin/env bash
# Usage: conformance_check.sh BEAMVM EBIN MODULE [FLAG...]
# Runs MODULE:main() on erl and on beamvm, compares stdout and exit status byte for byte.
# FLAGs (e.g. +S 1) are given to both emulators; $BEAMVM_ONLY_FLAGS (e.g. --no-boot) to beamvm
# alone, before them.
# Standard input is /dev/null, or tests/conformance/MODULE.stdin when that file exists (the
# same text for both emulators).
# On mismatch prints a unified diff (first 40 lines) and exits 1; on success prints the number
# of checks (output lines) compared.
set -u
if [ $# -lt 3 ]; then
  echo "usage: $0 BEAMVM EBIN MODULE [FLAG...]" >&2
  exit 2
fi
beamvm=$1 ebin=$2 mod=$3
shift 3
flags=("$@")
limit=${CONFORMANCE_TIMEOUT:-60}

stdin=/dev/null
here=$(cd "$(dirname "$0")" && pwd)
if [ -f "$here/../tests/conformance/$mod.stdin" ]; then
  stdin="$here/../tests/conformance/$mod.stdin"
fi

# MODULE.nofile: a descriptor limit for both VMs (tests that run descriptors out).
nofile=""
if [ -f "$here/../tests/conformance/$mod.nofile" ]; then
  nofile=$(cat "$here/../tests/conformance/$mod.nofile")
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

run() { # run NAME PROGRAM: stdout to $work/NAME.out, stderr to $work/NAME.err, status echoed
  local name=$1 prog=$2
  local own=()
  if [ "$name" = beamvm ] && [ -n "${BEAMVM_ONLY_FLAGS:-}" ]; then read -r -a own <<<"$BEAMVM_ONLY_FLAGS"; fi
  ( if [ -n "$nofile" ]; then ulimit -n "$nofile"; fi
    timeout "$limit" "$prog" ${own[@]+"${own[@]}"} ${flags[@]+"${flags[@]}"} -noshell -pa "$ebin" -s "$mod" main -s erlang halt \
      <"$stdin" >"$work/$name.out" 2>"$work/$name.err" )
  echo $?
}

erl_rc=$(run erl erl)
if [ "$erl_rc" -ne 0 ]; then
  echo "erl itself failed on $mod (status $erl_rc): the test module is broken"
  head -n 20 "$work/erl.err"
  exit 1
fi
if [ ! -x "$beamvm" ]; then
  echo "beamvm not found or not executable: $beamvm"
  exit 1
fi
vm_rc=$(run beamvm "$beamvm")

status=0
if [ "$vm_rc" -eq 124 ]; then
  echo "beamvm timed out after ${limit}s"
  status=1
elif [ "$vm_rc" -ne "$erl_rc" ]; then
  echo "exit status differs: erl $erl_rc, beamvm $vm_rc"
  status=1
fi
if ! cmp -s "$work/erl.out" "$work/beamvm.out"; then
  echo "stdout differs (--- erl, +++ beamvm):"
  diff -u --label erl --label beamvm "$work/erl.out" "$work/beamvm.out" | head -n 40
  status=1
fi
if [ $status -ne 0 ]; then
  if [ -s "$work/beamvm.err" ]; then
    echo "beamvm stderr:"
    head -n 20 "$work/beamvm.err"
  fi
  exit 1
fi
echo "$mod: $(wc -l <"$work/erl.out") checks match"
