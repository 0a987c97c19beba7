#!/usr/bin/env python3
"""nettopo-query cpuset-of and -p against hwloc-calc on real exports.

For every real export of ../shared/data/hwloc-xml/ and a seeded sample of the
per-host exports of ../shared/data/clusters/*/hwloc/ (diff exports left out):

  * cpuset-of MACHINE (the export's host) lists the OS indexes hwloc-calc
    --po -I pu all lists, and --mask prints hwloc-calc all's cpuset string;
  * cpuset-of PE (a seeded sample of PEs = logical PUs) lists the OS index
    of hwloc-calc --po -I pu pu:PE, and its mask is hwloc-calc pu:PE's;
  * with --node-level core and --node-level package, cpuset-of node:N is
    core:N / package:N (a seeded sample of N), list and mask; with
    --node-level numa, a sampled node's mask is a NUMA node's (hwloc-calc
    numa:K) or, for PUs local to no NUMA node, its core's;
  * with -p, cpuset-of HOST:OS and machine-of HOST:OS read back the OS index
    of that sampled PU, and nearest prints PEs as HOST:OS.

hwloc-calc gets --disallowed: nettopo models the whole machine by default.
Lists are compared as sets (hwloc-calc lists in logical order, nettopo in
ascending OS order, as taskset -c writes them).

Usage: cpuset_oracle.py BIN_DIR PROJECT_ROOT [SHARED_DATA]. Exit 77 (skipped)
without hwloc-calc or the shared data.
"""
import json
import subprocess
import sys

from real_exports import OracleFailure as Failure, os_set, run, run_oracle, sampled

SAMPLE_PER_CLUSTER = 4  # cluster exports checked per cluster (seeded)
SAMPLE = sampled(4)  # PEs, cores and packages checked per export (seeded)





def calc(xml, *args):
    return run(["hwloc-calc", "-i", str(xml), "--disallowed", *args])




def check_file(bin_dir, xml, rng):
    query = [f"{bin_dir}/nettopo-query", "-q", "-i", str(xml)]
    host = json.loads(run(query + ["--json", "machine-of", "0"]))["machine"]
    checks = 0

    def same(what, ours, theirs, as_sets):
        nonlocal checks
        checks += 1
        if (os_set(ours) != os_set(theirs)) if as_sets else (ours != theirs):
            raise Failure(f"{what}: nettopo says {ours!r}, hwloc-calc {theirs!r}")

    same("machine list", run(query + ["cpuset-of", host]), calc(xml, "--po", "-I", "pu", "all"),
         True)
    same("machine mask", run(query + ["cpuset-of", "--mask", host]), calc(xml, "all"), False)
    pus = int(calc(xml, "-N", "pu", "all"))
    for pe in sorted(rng.sample(range(pus), min(SAMPLE, pus))):
        os_index = calc(xml, "--po", "-I", "pu", f"pu:{pe}")
        same(f"PE {pe}", run(query + ["cpuset-of", str(pe)]), os_index, True)
        same(f"PE {pe} mask", run(query + ["cpuset-of", "--mask", str(pe)]),
             calc(xml, f"pu:{pe}"), False)
        # -p reads the OS index back: the same PU, and its machine.
        physical = query + ["-p"]
        same(f"-p PE {host}:{os_index}", run(physical + ["cpuset-of", f"{host}:{os_index}"]),
             os_index, True)
        if run(physical + ["machine-of", f"{host}:{os_index}"]) != host:
            raise Failure(f"-p machine-of {host}:{os_index} is not {host}")
        near = run(physical + ["nearest", f"{host}:{os_index}", "1"]).split()
        if pus > 1 and not (near and near[0].startswith(f"{host}:")):
            raise Failure(f"-p nearest prints {near!r}, not HOST:OS")
    for level, hwloc_type in (("core", "core"), ("package", "package")):
        count = int(calc(xml, "-N", hwloc_type, "all") or 0)
        if count == 0:  # no such level (nested Groups instead of packages)
            continue
        leveled = query + ["--node-level", level]
        if int(run(leveled + ["num-nodes"])) != count:
            raise Failure(f"--node-level {level}: num-nodes is not hwloc's {count} {level}s")
        for n in sorted(rng.sample(range(count), min(SAMPLE, count))):
            same(f"{level} {n}", run(leveled + ["cpuset-of", f"node:{n}"]),
                 calc(xml, "--po", "-I", "pu", f"{hwloc_type}:{n}"), True)
            same(f"{level} {n} mask", run(leveled + ["cpuset-of", "--mask", f"node:{n}"]),
                 calc(xml, f"{hwloc_type}:{n}"), False)
    # --node-level numa: a node is a NUMA node's locality (NUMA nodes of one
    # locality one node, nested ones the smallest), or a core for PUs local
    # to no NUMA node; so each node's mask is some NUMA node's or some core's.
    numa = query + ["--node-level", "numa"]
    # The NUMA nodes with PUs (-N would count them, not give their indexes).
    numa_nodes = [k for k in calc(xml, "-I", "numa", "all").split(",") if k]
    if numa_nodes:
        localities = {calc(xml, f"numa:{k}") for k in numa_nodes}
        nodes = int(run(numa + ["num-nodes"]))
        for n in sorted(rng.sample(range(nodes), min(SAMPLE, nodes))):
            mask = run(numa + ["cpuset-of", "--mask", f"node:{n}"])
            checks += 1
            if mask in localities:
                continue
            pus = os_set(run(numa + ["cpuset-of", f"node:{n}"]))
            first = min(pus)
            core = calc(xml, "--pi", f"pu:{first}", "-I", "core")
            if mask != calc(xml, f"core:{core}"):
                raise Failure(f"NUMA-level node {n}: {mask} is no NUMA node's locality "
                              "and no core's")
    return f"ok, {checks} sets agree"


def main():
    return run_oracle(__doc__, ("hwloc-calc",), SAMPLE_PER_CLUSTER, check_file, Failure,
                      "hwloc-calc")


if __name__ == "__main__":
    sys.exit(main())
