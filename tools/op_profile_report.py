#!/usr/bin/env python3
"""Summarises instruction-count files written by a profiling build (vm/op_counts.cpp).

Usage: op_profile_report.py [--top N] FILE.counts...

Each file is one workload. Every workload is weighted equally: its counts are divided by the
instructions it executed, and the shares are averaged over the workloads. Printed: the hottest
specific instructions, the hottest instructions as declared (variants summed), and the hottest
adjacent pairs (the second placed right after the first in the code), each with its average
share and its share in the workload where it is largest.
"""
import collections
import os
import sys


def load(path):
    ops, bases, pairs = collections.Counter(), collections.Counter(), collections.Counter()
    with open(path) as f:
        for line in f:
            parts = line.split()
            if parts[0] == "op":
                ops[parts[1]] += int(parts[3])
                bases[parts[2]] += int(parts[3])
            elif parts[0] == "pair":
                pairs[(parts[1], parts[2])] += int(parts[3])
    return ops, bases, pairs


def report(title, shares, peaks, top):
    print(f"\n{title}")
    print(f"  {'avg %':>7} {'max %':>7}  (workload)  name")
    for key, share in sorted(shares.items(), key=lambda kv: -kv[1])[:top]:
        peak, where = peaks[key]
        name = " + ".join(key) if isinstance(key, tuple) else key
        print(f"  {100 * share:7.2f} {100 * peak:7.2f}  ({where})  {name}")


def main():
    args = sys.argv[1:]
    top = 40
    if args[:1] == ["--top"]:
        top = int(args[1])
        args = args[2:]
    files = [a for a in args if os.path.getsize(a) > 0]
    if not files:
        sys.exit("no counts (is this a profiling build? was BEAMVM_OP_COUNTS set?)")
    spec_sh, base_sh, pair_sh = collections.Counter(), collections.Counter(), collections.Counter()
    spec_pk, base_pk, pair_pk = {}, {}, {}
    grand = 0
    for path in files:
        ops, bases, pairs = load(path)
        total = sum(ops.values())
        grand += total
        name = os.path.basename(path).rsplit(".", 1)[0]
        for table, sh, pk in ((ops, spec_sh, spec_pk), (bases, base_sh, base_pk), (pairs, pair_sh, pair_pk)):
            for k, c in table.items():
                s = c / total
                sh[k] += s / len(files)
                if s > pk.get(k, (0, ""))[0]:
                    pk[k] = (s, name)
        print(f"{name:16} {total:>14,} instructions")
    print(f"{'all':16} {grand:>14,} instructions in {len(files)} workloads")
    report("Hottest instructions", spec_sh, spec_pk, top)
    report("Hottest instructions as declared (variants summed)", base_sh, base_pk, top)
    report("Hottest adjacent pairs", pair_sh, pair_pk, top)


if __name__ == "__main__":
    main()
