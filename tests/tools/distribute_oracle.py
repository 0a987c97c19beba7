#!/usr/bin/env python3
"""nettopo-query distribute --policy scatter against hwloc-distrib itself.

For every real export of ../shared/data/hwloc-xml/ and a seeded sample of the
per-host exports of ../shared/data/clusters/*/hwloc/, and for several process
counts N (1, 2, 3, about half the PUs, all PUs but one, all, one more, more
than twice as many, and seeded random ones), the PU of each rank (its OS
index, the last column of nettopo-query's line) equals the CPU of the rank's
line of `hwloc-distrib --disallowed --single N` (a one-bit cpuset). Both
count the whole machine: nettopo models it, and hwloc-distrib's --disallowed
includes the PUs an export restricted to a job's cpuset left out.

Compact is checked against a brute force in tests/unit/query/test_distribute.cpp.

Usage: distribute_oracle.py BIN_DIR PROJECT_ROOT [SHARED_DATA]. Exit 77
(skipped) without hwloc-distrib or the shared data.
"""
import subprocess
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, str(Path(__file__).parent))
from real_exports import run_oracle

SAMPLE_PER_CLUSTER = 4


class Failure(Exception):
    pass


def run(args):
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode != 0:
        raise Failure(f"{' '.join(args)} exited {p.returncode}: {p.stderr.strip()}")
    return p.stdout


def cpuset_to_pu(text):
    """hwloc's bitmap (32-bit words, most significant first; an empty word
    between commas is zero) -> its one bit."""
    value = 0
    for word in text.strip().split(","):
        value = (value << 32) | (int(word, 16) if word else 0)
    if value == 0 or value & (value - 1):
        raise Failure(f"hwloc-distrib --single printed {text!r}, not one PU")
    return value.bit_length() - 1


def hwloc_distrib(xml, n):
    out = run(["hwloc-distrib", "-i", str(xml), "--disallowed", "--single", str(n)])
    return [cpuset_to_pu(line) for line in out.split()]


def nettopo_distrib(bin_dir, xml, n):
    out = run([f"{bin_dir}/nettopo-query", "-q", "-i", str(xml), "distribute", str(n)])
    ranks = []
    for i, line in enumerate(out.splitlines()):
        rank, _host, _pu, os_index = line.split()
        if int(rank) != i:
            raise Failure(f"line {i + 1} is rank {rank}")
        ranks.append(int(os_index))
    return ranks


def check_file(bin_dir, xml, rng):
    pus = int(run([f"{bin_dir}/nettopo-query", "-q", "-i", str(xml), "num-pes"]))
    counts = {1, 2, 3, max(1, pus // 2), max(1, pus - 1), pus, pus + 1, 2 * pus + 3}
    counts |= {rng.randint(1, 3 * pus) for _ in range(3)}
    for n in sorted(counts):
        expected = hwloc_distrib(xml, n)
        found = nettopo_distrib(bin_dir, xml, n)
        if found != expected:
            first = next(i for i in range(min(len(found), len(expected)))
                         if found[i] != expected[i]) if len(found) == len(expected) else None
            raise Failure(f"N={n}: {len(found)} ranks, hwloc-distrib {len(expected)}; "
                          f"first difference at rank {first}: nettopo PU "
                          f"{found[first] if first is not None else '?'}, hwloc "
                          f"{expected[first] if first is not None else '?'}")
    return f"ok ({pus} PUs, N in {sorted(counts)})"


def main():
    return run_oracle(__doc__, ("hwloc-distrib",), SAMPLE_PER_CLUSTER, check_file, Failure,
                      "place every rank as hwloc-distrib")


if __name__ == "__main__":
    sys.exit(main())
