#!/usr/bin/env bash
# Usage: quick_start_compressed.sh BEAMVM
# `beamvm m.beam Args` with m.beam written by `erlc +compressed` (gzip): prints what
# `erl -noshell -pa DIR -run m main Args -s erlang halt` prints for the plain file.
set -u
beamvm=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/plain" "$work/gz"
erlc -o "$work/plain" "$here/quick_main.erl" && erlc +compressed -o "$work/gz" "$here/quick_main.erl" || exit 1
if [ "$(head -c 2 "$work/gz/quick_main.beam" | od -An -tx1 | tr -d ' ')" != 1f8b ]; then
  echo "erlc +compressed did not write a gzip file"
  exit 1
fi
# In $work: a crash would write erl_crash.dump there, not in the checkout.
(cd "$work" && erl -noshell -pa "$work/plain" -run quick_main main one two -s erlang halt) >"$work/erl.out" 2>&1
"$beamvm" "$work/gz/quick_main.beam" one two >"$work/beamvm.out" 2>&1
status=$?
if [ $status -ne 0 ] || ! cmp -s "$work/erl.out" "$work/beamvm.out"; then
  echo "beamvm (status $status) differs from erl (--- erl, +++ beamvm):"
  diff -u --label erl --label beamvm "$work/erl.out" "$work/beamvm.out" | head -n 20
  exit 1
fi
# Flags merged from ERL_AFLAGS and ERL_FLAGS (as erlexec merges them, with a "--" after the
# command line's words) are no arguments of the program.
ERL_AFLAGS="+S 1" ERL_FLAGS="+S 1" "$beamvm" "$work/gz/quick_main.beam" one two >"$work/beamvm_env.out" 2>&1
status=$?
if [ $status -ne 0 ] || ! cmp -s "$work/erl.out" "$work/beamvm_env.out"; then
  echo "beamvm with ERL_AFLAGS and ERL_FLAGS set (status $status) differs from erl (--- erl, +++ beamvm):"
  diff -u --label erl --label beamvm "$work/erl.out" "$work/beamvm_env.out" | head -n 20
  exit 1
fi
echo "beamvm ran the compressed quick_main.beam as erl runs the plain one: $(wc -l <"$work/erl.out") lines agree"
