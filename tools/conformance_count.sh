#!/usr/bin/env bash
# Usage: conformance_count.sh [EBIN]
# Prints the number of checks (output lines of MOD:main() on erl) per conformance module and the
# total. Without EBIN the modules are compiled into a temporary directory first.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
src=$here/tests/conformance
ebin=${1:-}
if [ -z "$ebin" ]; then
  ebin=$(mktemp -d)
  trap 'rm -rf "$ebin"' EXIT
  erlc -o "$ebin" "$src"/*.erl || exit 1
fi

total=0 modules=0 failed=0
for f in "$src"/*.erl; do
  mod=$(basename "$f" .erl)
  out=$(timeout 60 erl -noshell -pa "$ebin" -s "$mod" main -s erlang halt </dev/null 2>/dev/null)
  rc=$?
  n=$(printf '%s' "$out" | grep -c '')
  if [ $rc -ne 0 ]; then
    printf '%-24s %5s  (erl exit status %d)\n' "$mod" "$n" "$rc"
    failed=$((failed + 1))
  else
    printf '%-24s %5s\n' "$mod" "$n"
  fi
  total=$((total + n))
  modules=$((modules + 1))
done
printf '%-24s %5s  in %d modules\n' TOTAL "$total" "$modules"
[ $failed -eq 0 ]
