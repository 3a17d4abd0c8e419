# Sourced by the dist test scripts: the nodes a script starts (their pids, in `pids`) and
# stop_all, which ends them (TERM, then KILL after 0.2 s) so no node outlives its test.
pids=()
stop_all() {
  local p
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  sleep 0.2
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
  pids=()
}
