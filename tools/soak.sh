#!/usr/bin/env bash
# Usage: tools/soak.sh [SECONDS] [VM]
# The soak (tests/soak/soak.erl): processes spawned and ended every way, hot code loading under
# load, ETS churn, ports and OS processes, timers set and cancelled, sequence-numbered messages
# between schedulers and over loopback TCP, all at once for SECONDS (default 1800), then checks:
# no lost or reordered message, every exit reason the expected one, resident memory flat after
# warm-up (within 5%), no leaked file descriptor, child process, ETS table, process or port.
# VM is build/beamvm by default (erl runs the same program as a reference). Extra VM flags come
# from SOAK_FLAGS, e.g. SOAK_FLAGS="+S 4". CTest's soak_smoke runs it for 60 s.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-1800}
vm=${2:-$root/build/beamvm}
ebin=$(mktemp -d)
trap 'rm -rf "$ebin"' EXIT
erlc -o "$ebin" "$root"/tests/soak/*.erl
# shellcheck disable=SC2086
exec timeout $((secs + 300)) "$vm" ${SOAK_FLAGS:-} -noshell -pa "$ebin" -run soak main "$secs" </dev/null
