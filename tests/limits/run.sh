#!/usr/bin/env bash
# Usage: tests/limits/run.sh BEAMVM
# Each case of limits.erl on erl and on BEAMVM: stdout and stderr, the exit status and the slogan
# of erl_crash.dump (when one is written) must be the same. Logger's report headers lose their
# timestamps; cases marked N also have every number replaced (heap sizes and pids differ between
# the two VMs' collectors, the report's shape must not).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
beamvm=$(realpath "${1:?usage: run.sh BEAMVM}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
erlc -o "$work" "$here/limits.erl" || exit 1

# name [N] [-- VM flags]
cases=(
  "tuple_arity" "tuple_arity_max" "append_element" "tuple_huge" "shift" "bignum_shift" "bignum_mul"
  "atom_length" "atom_length_ok" "bin_size_bits" "b2t_bad_length" "setelement" "binary_4gb"
  "wide_zero_field" "wide_neg_field" "deep_recursion" "deep_nesting"
  "processes N -- +P 1024" "max_heap N" "max_heap_quiet"
  "atom_table_full -- +t 10000" "binary_alloc" "binary_alloc_huge"
)

run() {  # vm dir name flags...
  local vm=$1 dir=$2 name=$3; shift 3
  mkdir -p "$dir"
  (cd "$dir" && timeout 300 "$vm" "$@" -noshell -pa "$work" -run limits main "$name" </dev/null >out 2>&1
   echo $? >status)
  sed -E -i 's/\r//g; s/^=([A-Z ]+) REPORT==== .* ===$/=\1 REPORT====/' "$dir/out"
  if [ -f "$dir/erl_crash.dump" ]; then sed -n 's/^Slogan: //p' "$dir/erl_crash.dump" >"$dir/slogan"; else : >"$dir/slogan"; fi
}

fail=0
for c in "${cases[@]}"; do
  name=${c%% *}
  flags=()
  [[ $c == *" -- "* ]] && read -r -a flags <<<"${c#* -- }"
  run erl "$work/erl/$name" "$name" "${flags[@]}"
  run "$beamvm" "$work/beamvm/$name" "$name" "${flags[@]}"
  for side in erl beamvm; do
    d=$work/$side/$name
    { cat "$d/out"; echo "status $(cat "$d/status")"; echo "slogan $(cat "$d/slogan")"; } >"$d/all"
    [[ $c == *" N"* ]] && sed -E -i 's/[0-9]+/N/g' "$d/all"
  done
  if cmp -s "$work/erl/$name/all" "$work/beamvm/$name/all"; then
    echo "ok   $name: $(head -c 100 "$work/erl/$name/all" | tr '\n' ' ')"
  else
    echo "FAIL $name"
    diff "$work/erl/$name/all" "$work/beamvm/$name/all" | head -30
    fail=1
  fi
done
exit $fail
