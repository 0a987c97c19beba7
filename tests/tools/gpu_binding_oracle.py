#!/usr/bin/env python3
"""nettopo-query distribute --gpus-per-rank against hwloc's own tools.

For every real export of ../shared/data/hwloc-xml/ with GPUs, with one GPU a
rank (every GPU used) and, where the count is even, two:

  * each rank's cpuset lies in the union of its GPUs' localities as
    hwloc-calc computes them (hwloc-calc --po -I pu os=NAME), and every
    local PU of a used GPU is some rank's;
  * ranks do not share a PU while their home holds at least as many cores as
    ranks (hwloc-calc -N core), and then each cpuset is whole cores: the PUs
    of the cores it touches (hwloc-calc -p pu:X --intersect core, then core:Y
    --po -I pu), cut to the home;
  * a rank's adapter shares PUs with its GPU's locality whenever one of the
    host's fabric adapters (lstopo's OpenFabrics devices, Slingshot hsn/hsi/
    cxi) does;
  * the --env file, sourced by sh for each rank number, exports that rank's
    cpuset as NETTOPO_CPUSET, and the GPU's index among the export's GPUs of
    its PCI vendor in PCI bus order (hwloc-info's PCI ancestor: attr PCI id
    and bus id) as CUDA_VISIBLE_DEVICES, ROCR_VISIBLE_DEVICES or
    ZE_AFFINITY_MASK; an unknown rank fails.

Usage: gpu_binding_oracle.py BIN_DIR PROJECT_ROOT [SHARED_DATA]. Exit 77
(skipped) without the hwloc tools or the shared data.
"""
import json
import re
import subprocess
import sys
from pathlib import Path

from real_exports import (OracleFailure as Failure, check_exports, io_exports, oracle_inputs,
                          os_set, pci_ancestor, run)

VISIBLE = ["CUDA_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "ZE_AFFINITY_MASK"]


def calc(xml, *args):
    return run(["hwloc-calc", "-i", str(xml), "--disallowed", *args])


def locality(xml, name):
    return os_set(calc(xml, "--po", "-I", "pu", f"os={name}"))


def whole_cores(xml, pus, home):
    cores = calc(xml, "--pi", *[f"pu:{p}" for p in sorted(pus)], "--intersect", "core")
    return os_set(calc(xml, *[f"core:{c}" for c in cores.split(",")], "--po", "-I", "pu")) & home


def sourced(script, rank):
    p = subprocess.run(["sh", "-c", '. "$0" && env', script], capture_output=True, text=True,
                       env={"PATH": "/usr/bin:/bin", "OMPI_COMM_WORLD_RANK": str(rank)})
    if p.returncode != 0:
        return None
    return dict(line.split("=", 1) for line in p.stdout.splitlines() if "=" in line)


def check_binding(bin_dir, xml, devices, fabric, g, tmp):
    gpus = {d["name"]: d for d in devices if d["kind"] == "gpu"}
    n = len(gpus) // g
    query = [f"{bin_dir}/nettopo-query", "-q", "-i", str(xml), "distribute", str(n),
             "--gpus-per-rank", str(g)]
    ranks = [json.loads(line) for line in run(query + ["--json"]).splitlines()]
    if len(ranks) != n:
        raise Failure(f"{n} ranks asked, {len(ranks)} printed")
    homes = {}
    for r in ranks:
        home = set().union(*(locality(xml, gpus[x]["names"][0]) for x in r["gpus"]))
        homes.setdefault(frozenset(home), []).append(r)
        if not os_set(r["cpuset"]) <= home:
            raise Failure(f"G={g} rank {r['rank']}: cpuset {r['cpuset']} outside its GPUs' "
                          f"localities {sorted(home)}")
    for home, sharers in homes.items():
        given = set().union(*(os_set(r["cpuset"]) for r in sharers))
        if given != home and len(sharers) <= len(home):
            # Shares of a home left to others are a subset; only whole homes are checked.
            if not any(other != home and other & home for other in homes):
                raise Failure(f"G={g}: PUs {sorted(home - given)} of a home are no rank's")
        cores = int(calc(xml, "-p", "-N", "core", *[f"pu:{p}" for p in sorted(home)]))
        if cores < len(sharers) or any(other != home and other & home for other in homes):
            continue
        seen = set()
        for r in sharers:
            mine = os_set(r["cpuset"])
            if mine & seen:
                raise Failure(f"G={g} rank {r['rank']} shares PUs {sorted(mine & seen)}")
            seen |= mine
            if whole_cores(xml, mine, set(home)) != mine:
                raise Failure(f"G={g} rank {r['rank']}: {r['cpuset']} is not whole cores")
    for r in ranks:
        gpu_home = set().union(*(locality(xml, gpus[x]["names"][0]) for x in r["gpus"]))
        near = [f for f in fabric if locality(xml, f) & gpu_home]
        if near and not any(locality(xml, x) & gpu_home for x in r["nics"]):
            raise Failure(f"G={g} rank {r['rank']}: adapters {r['nics']}, but {near} are local "
                          f"to its GPUs")
    # --env
    script = tmp / "ranks.env"
    script.write_text(run(query + ["--env"]) + "\n")
    # A GPU's index among its vendor's GPUs in PCI bus order.
    pci = {name: tuple(x or "" for x in pci_ancestor(xml, d["names"][0]))
           for name, d in gpus.items()}
    order = {name: sum(1 for o in pci.values() if o[0] == p[0] and o[1] < p[1])
             for name, p in pci.items()}
    unique_bus = len(set(pci.values())) == len(pci)
    for r in ranks:
        env = sourced(script, r["rank"])
        if env is None:
            raise Failure(f"G={g}: the --env file fails for rank {r['rank']}")
        if env.get("NETTOPO_CPUSET") != r["cpuset"]:
            raise Failure(f"G={g} rank {r['rank']}: NETTOPO_CPUSET {env.get('NETTOPO_CPUSET')}")
        visible = [env[v] for v in VISIBLE if v in env]
        want = ",".join(str(order[x]) for x in r["gpus"])
        if unique_bus and visible and visible[0] != want:
            raise Failure(f"G={g} rank {r['rank']}: visible devices {visible[0]}, PCI order {want}")
    if sourced(script, len(ranks)) is not None:
        raise Failure(f"G={g}: the --env file accepts rank {len(ranks)}")
    return n


def check_file(bin_dir, xml, tmp):
    query = [f"{bin_dir}/nettopo-query", "-q", "-i", str(xml)]
    devices = [json.loads(line)["device"] for line in run(query + ["--json", "devices"]).splitlines()]
    gpus = [d for d in devices if d["kind"] == "gpu"]
    if not gpus:
        return "skipped: no GPU"
    verbose = run(["lstopo-no-graphics", "-i", str(xml), "--disallowed", "-v", "--only", "osdev"])
    fabric = []
    for line in verbose.splitlines():
        m = re.search(r'"([^"]+)"$', line)
        if m and (line.startswith("OpenFabrics") or re.match(r"(hsn|hsi|cxi)", m.group(1))):
            fabric.append(m.group(1))
    done = [check_binding(bin_dir, xml, devices, fabric, 1, tmp)]
    if len(gpus) % 2 == 0:
        done.append(check_binding(bin_dir, xml, devices, fabric, 2, tmp))
    return f"ok ({len(gpus)} GPUs, {len(fabric)} fabric adapters, ranks {done})"


def main():
    inputs = oracle_inputs(__doc__.strip().splitlines()[-2],
                           ["hwloc-calc", "hwloc-info", "lstopo-no-graphics"])
    if isinstance(inputs, int):
        return inputs
    bin_dir, data = inputs
    import tempfile
    with tempfile.TemporaryDirectory(prefix="nettopo-gpu-") as tmp:
        return check_exports(io_exports(data), data, lambda xml: check_file(bin_dir, xml, Path(tmp)),
                             Failure, "bind as hwloc's localities say", minimum=4)


if __name__ == "__main__":
    sys.exit(main())
