"""Times the batch pair queries of the Python module on a topology.

    PYTHONPATH=build/python /usr/bin/python3 python/bench_pairs.py TOPOLOGY [PAIRS]

Loads TOPOLOGY (archive, description or hwloc XML), builds the distance index,
then asks distances, hop_counts and proximities of PAIRS random PE pairs
(default 1,000,000; fixed seed), best of 3 runs each, and checks 1,000 of the
answers against the one-at-a-time queries.
"""

import sys
import time

import numpy as np

import nettopo


def best_of(runs, f):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        result = f()
        times.append(time.perf_counter() - start)
    return min(times), result


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    count = int(sys.argv[2]) if len(sys.argv) == 3 else 1_000_000

    start = time.perf_counter()
    t = nettopo.load(sys.argv[1])
    print(f"{t}: loaded in {time.perf_counter() - start:.3f} s")
    start = time.perf_counter()
    index = t.build_index()
    print(f"index: {index}, built in {time.perf_counter() - start:.3f} s")

    pairs = np.random.default_rng(1).integers(0, t.num_pes, size=(count, 2), dtype=np.int64)
    for name in ("distances", "hop_counts", "proximities"):
        seconds, result = best_of(3, lambda: getattr(t, name)(pairs))
        print(f"{name:12s} {count:,} pairs: {seconds:.3f} s "
              f"({count / seconds / 1e6:.1f} M pairs/s)")
        one = {"distances": t.distance, "hop_counts": t.hops, "proximities": t.proximity}[name]
        for (a, b), got in zip(pairs[:1000].tolist(), result[:1000].tolist()):
            want = one(a, b)
            if want is None:
                want = -1 if name == "hop_counts" else None
            if not (want == got or (want is None and np.isnan(got))):
                sys.exit(f"{name} {a} {b}: batch {got}, one at a time {want}")


if __name__ == "__main__":
    main()
