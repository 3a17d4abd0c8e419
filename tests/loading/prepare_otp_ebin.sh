#!/usr/bin/env bash
# Usage: prepare_otp_ebin.sh BEAMVM [LIBDIR]
# erlang:prepare_loading/2 on every .beam file under LIBDIR/*/ebin (default /usr/lib/erlang/lib,
# Debian's OTP), on erl and on beamvm (tests/loading/prepare_all.erl): the answer for each file
# must be the same. The installation holds gzip-compressed modules too (erlang-idna's
# idna_data, erlang-uuid's uuid). Exits 77 (skipped) when LIBDIR has no ebin directory.
set -u
beamvm=$1
lib=${2:-/usr/lib/erlang/lib}
here=$(cd "$(dirname "$0")" && pwd)

shopt -s nullglob
dirs=("$lib"/*/ebin)
if [ ${#dirs[@]} -eq 0 ]; then
  echo "no $lib/*/ebin: skipped"
  exit 77
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
erlc -o "$work" "$here/prepare_all.erl" || exit 1

run() { # run NAME PROGRAM: one line per file in $work/NAME.out
  timeout 300 "$2" -noshell -pa "$work" -run prepare_all main "${dirs[@]}" -s erlang halt \
    </dev/null >"$work/$1.out" 2>"$work/$1.err"
  echo $?
}
erl_rc=$(run erl erl)
vm_rc=$(run beamvm "$beamvm")
if [ "$erl_rc" -ne 0 ] || [ "$vm_rc" -ne 0 ]; then
  echo "exit status: erl $erl_rc, beamvm $vm_rc"
  head -n 20 "$work/beamvm.err"
  exit 1
fi

files=$(grep -c '\.beam ' "$work/erl.out")
gzip=$(grep -c '\.beam gzip ' "$work/erl.out")
agree=$(comm -12 <(grep '\.beam ' "$work/erl.out" | sort) <(grep '\.beam ' "$work/beamvm.out" | sort) | wc -l)
echo "$files .beam files ($gzip gzip-compressed) prepared on erl; $agree answered the same on beamvm"
if ! cmp -s "$work/erl.out" "$work/beamvm.out"; then
  echo "answers differ (--- erl, +++ beamvm):"
  diff -u --label erl --label beamvm "$work/erl.out" "$work/beamvm.out" | head -n 40
  exit 1
fi
if [ "$files" -eq 0 ]; then
  echo "no .beam files found: nothing compared"
  exit 1
fi
