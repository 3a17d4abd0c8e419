#!/usr/bin/env python3
"""Compares the outputs of tests/fuzz/bif_fuzz.erl on erl and on beamvm (tools/bif_fuzz.sh).

Each output line is `@@ M:F/A #I Outcome | Arguments`; a call whose outcome differs is a
difference unless its function is in the accepted list (the table of
docs/bif_fuzz_differences.md, first column `M:F/A` or `M:F/*`). Exit status: 0 when every
difference is accepted, 1 otherwise (or when beamvm's output stops early).
"""
import re
import sys
from collections import OrderedDict

MARK = "@@ "


def calls(path):
    """The calls of one output, in order: key (function and index) -> (outcome, arguments)."""
    out = OrderedDict()
    ended = False
    with open(path, encoding="latin-1") as f:
        for raw in f:
            at = raw.find(MARK)
            if at < 0:
                continue  # erlang:display and friends write to the same stdout
            line = raw[at + len(MARK):].rstrip("\n")
            if line == "end":
                ended = True
                continue
            left, _, args = line.partition(" | ")
            parts = left.split(" ")
            if len(parts) == 2 and parts[1] == "skipped":
                out[parts[0]] = ("skipped", "")
            elif len(parts) == 3:
                out[parts[0] + " " + parts[1]] = (parts[2], args)
    return out, ended


def accepted(path):
    """Function patterns of the accepted list: `M:F/A` or `M:F/*` in a table's first column."""
    pats = {}
    row = re.compile(r"^\|\s*`([^`]+:[^`]+/(?:\d+|\*))`\s*\|\s*([^|]*)\|")
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = row.match(line)
            if m:
                pats[m.group(1)] = m.group(2).strip()
    return pats


def function_of(key):
    return key.split(" ")[0]


def is_accepted(fn, pats):
    return fn in pats or fn.rsplit("/", 1)[0] + "/*" in pats


def main():
    erl_path, vm_path, list_path = sys.argv[1:4]
    erl, erl_ended = calls(erl_path)
    vm, vm_ended = calls(vm_path)
    pats = accepted(list_path)
    if not erl_ended:
        print("erl's run did not end: the fuzzer itself is broken")
        return 1

    differing = OrderedDict()  # function -> [(key, erl outcome, vm outcome, args)]
    for key, (outcome, args) in erl.items():
        got = vm.get(key)
        if got is None:
            continue
        if got[0] != outcome:
            differing.setdefault(function_of(key), []).append((key, outcome, got[0], args))

    status = 0
    missing = [k for k in erl if k not in vm]
    if missing or not vm_ended:
        last = next(reversed(vm), None) if vm else None
        print(f"beamvm's run stopped early: {len(missing)} of {len(erl)} calls missing; "
              f"last call answered: {last}; first call missing: {missing[0] if missing else '-'}")
        status = 1

    new = {fn: ds for fn, ds in differing.items() if not is_accepted(fn, pats)}
    known = {fn: ds for fn, ds in differing.items() if is_accepted(fn, pats)}
    for fn, ds in new.items():
        print(f"DIFF {fn}: {len(ds)} calls differ")
        for key, want, got, args in ds[:3]:
            print(f"    {key}: erl {want}, beamvm {got} | {args}")
    stale = [p for p in pats
             if not any(fn == p or fn.rsplit("/", 1)[0] + "/*" == p for fn in differing)]
    n_calls = len(erl)
    n_diff = sum(len(ds) for ds in differing.values())
    print(f"{n_calls} calls over {len({function_of(k) for k in erl})} functions; "
          f"{n_diff} differ in {len(differing)} functions: "
          f"{len(known)} accepted ({sum(len(d) for d in known.values())} calls), "
          f"{len(new)} not accepted ({sum(len(d) for d in new.values())} calls)")
    if stale:
        print(f"accepted but not seen differing in this run: {', '.join(stale)}")
    if new:
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
