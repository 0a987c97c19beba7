#!/usr/bin/env python3
"""nettopo-query devices and cpuset-of DEVICE against hwloc's own tools.

For every real export of ../shared/data/hwloc-xml/ that holds OS devices
(hwloc3-xml/ is left out: Debian 12's hwloc tools cannot read 3.0 files):

  * every GPU and network OS device lstopo lists (lstopo -v --only osdev,
    hwloc's default I/O filter, as nettopo's: compute runtimes' devices,
    Network and OpenFabrics ones) is a name of exactly one nettopo device,
    and nettopo keeps no other device (disks and DMA engines are left out on
    purpose: share/doc/gpu-nodes.md);
  * GPUs: per PCI function (hwloc-info's PCI ancestor of each OS device),
    as many as its most numerous compute runtime enumerates there (cudaN,
    nvmlN, rsmiN, zeN, OpenCL GPU devices: partitions are GPUs of their
    own), counted from lstopo's names, not from nettopo's grouping; gpuN
    carries device N of the first runtime that numbers every GPU;
  * each device's cpuset (devices and cpuset-of NAME, for every one of its
    names) is hwloc-calc --po -I pu os=NAME, its NUMA nodes hwloc-calc --po
    -I numa os=NAME, and its PCI address the bus id of its PCI ancestor
    (hwloc-info --ancestor pcidev os=NAME);
  * device-matrix: every pair's class (PIX, PXB, PHB, NODE, SYS) against a
    reading of the export's PCI tree by this script (xml.etree: Bridge
    objects with bridge_type 0-1 are host bridges; hwloc's own bridge depth
    says a root port (1), a switch's upstream port (even) and its downstream
    ports (odd, counted as their upstream port's switch); NUMA nodes from
    their cpuset masks), not nettopo's; a pair of GPUs that hwloc's
    NVLinkBandwidth, XGMI or XeLink matrices join (NV<n>, XGMI, XL) against
    a reading of the export's <distances2> by interconnect_xml.py.

Usage: devices_oracle.py BIN_DIR PROJECT_ROOT [SHARED_DATA]. Exit 77
(skipped) without the hwloc tools or the shared data.
"""
import json
import re
import xml.etree.ElementTree as ET
import subprocess
import sys
from pathlib import Path

import interconnect_xml
from real_exports import (OracleFailure as Failure, check_exports, io_exports, oracle_inputs,
                          os_set, pci_ancestor, run)

RUNTIMES = ["cuda", "nvml", "rsmi", "ze"]


def runtime_of(name, line):
    """The compute runtime of OS device NAME (its lstopo -v LINE), or None."""
    runtime = next((r for r in RUNTIMES if re.fullmatch(rf"{r}\d+", name)), None)
    if runtime is None and re.fullmatch(r"opencl\d+d\d+", name) and "OpenCLDeviceType=GPU" in line:
        runtime = "opencl"
    return runtime


def pci_of(xml, name):
    """The bus id of OS device NAME's PCI ancestor (hwloc-info), or None."""
    return pci_ancestor(xml, name)[1]


def cpuset_bits(mask):
    """hwloc's "0x0000ffff,,0x1" -> a Python int."""
    value = 0
    for part in mask.split(","):
        value = (value << 32) | (int(part, 16) if part else 0)
    return value


def pci_classes(xml):
    """{(os_name_a, os_name_b): class} for the OS devices of the export, read
    from its XML alone."""
    root = ET.parse(str(xml)).getroot()
    parent = {c: p for p in root.iter() for c in p}
    numa = [cpuset_bits(o.get("cpuset", "0x0")) for o in root.iter("object")
            if o.get("type") == "NUMANode"]

    def cpu_ancestor(o):
        while o.get("type") in ("Bridge", "PCIDev", "OSDev"):
            o = parent[o]
        return cpuset_bits(o.get("cpuset", "0x0"))

    def chain(o):
        out = []
        o = parent[o]  # the PCI function
        while o.get("type") in ("Bridge", "PCIDev"):
            out.append(o)
            o = parent[o]
        return out

    def switch(b):
        # hwloc's own bridge depth: 0 the host bridge, 1 a root port, then a
        # switch's upstream port (even) and its downstream ports (odd).
        depth = int(b.get("depth", "0"))
        return parent[b] if depth >= 3 and depth % 2 == 1 else b

    osdevs = {o.get("name"): o for o in root.iter("object") if o.get("type") == "OSDev"}
    classes = {}
    for a, oa in osdevs.items():
        for b, ob in osdevs.items():
            ca, cb = chain(oa), chain(ob)
            common = [x for x in ca if any(x is y for y in cb)]
            if a == b:
                cls = "X"
            elif not common:
                ra = cpu_ancestor(ca[-1] if ca else oa)
                rb = cpu_ancestor(cb[-1] if cb else ob)
                cls = "NODE" if any(n & ra and n & rb for n in numa) else "SYS"
            else:
                meet = common[0]
                if meet.get("type") == "Bridge" and meet.get("bridge_type", "").startswith("0"):
                    cls = "PHB"
                elif meet.get("type") == "PCIDev":
                    cls = "PIX"
                else:
                    sw = {id(switch(meet))}
                    for c in (ca, cb):
                        for x in c:
                            if x is meet:
                                break
                            if x.get("type") == "Bridge":
                                sw.add(id(switch(x)))
                    cls = "PIX" if len(sw) <= 1 else "PXB"
            classes[(a, b)] = cls
    return classes


def check_matrix(bin_dir, xml, devices):
    query = [f"{bin_dir}/nettopo-query", "-q", "-i", str(xml)]
    m = json.loads(run(query + ["--json", "device-matrix"]))["device_matrix"]
    names = {d["name"]: d["names"] for d in devices}
    classes = pci_classes(xml)
    root = ET.parse(str(xml)).getroot()
    mats, release = interconnect_xml.matrices(root), interconnect_xml.release(root)
    links = 0
    for i, a in enumerate(m["devices"]):
        for j, b in enumerate(m["devices"]):
            link = interconnect_xml.entry(mats, release, names[a], names[b]) if a != b else None
            links += link is not None
            want = link or (classes[(names[a][0], names[b][0])] if a != b else "X")
            if m["matrix"][i][j] != want:
                raise Failure(f"device-matrix {a} {b}: {m['matrix'][i][j]}, the export gives {want}")
    return len(m["devices"]), links


def check_file(bin_dir, xml):
    verbose = run(["lstopo-no-graphics", "-i", str(xml), "--disallowed", "-v", "--only", "osdev"])
    osdevs = []
    for line in verbose.splitlines():
        m = re.search(r'"([^"]+)"$', line)
        if m and (line.startswith(("Network", "OpenFabrics")) or runtime_of(m.group(1), line)):
            osdevs.append(m.group(1))
    if not osdevs:
        return "skipped: no GPU or network OS device"
    query = [f"{bin_dir}/nettopo-query", "-q", "-i", str(xml)]
    devices = [json.loads(line)["device"] for line in run(query + ["--json", "devices"]).splitlines()]
    owner = {}
    for d in devices:
        for n in d["names"]:
            if n in owner:
                raise Failure(f"{n} is a name of {owner[n]} and {d['name']}")
            owner[n] = d["name"]
    missing = [n for n in osdevs if n not in owner]
    if missing:
        raise Failure(f"lstopo's {missing} are no device's names")
    extra = [d["name"] for d in devices if not set(d["names"]) & set(osdevs)]
    if extra:
        raise Failure(f"{extra} are devices lstopo has no GPU or network OS device for")
    gpus = [d for d in devices if d["kind"] == "gpu"]
    # Compute-runtime devices, counted per PCI function (hwloc-info's PCI
    # ancestor): a function holds as many GPUs as its most numerous runtime
    # (one per partition); OpenCL counts only for its GPU devices.
    per_function = {}
    for line in verbose.splitlines():
        m = re.search(r'"([^"]+)"$', line)
        if not m:
            continue
        name = m.group(1)
        runtime = runtime_of(name, line)
        if runtime is None:
            continue
        per_function.setdefault(pci_of(xml, name), {}).setdefault(runtime, []).append(name)
    expected_gpus = sum(max(len(v) for v in f.values()) for f in per_function.values())
    if len(gpus) != expected_gpus:
        raise Failure(f"{len(gpus)} GPUs, the runtimes enumerate {expected_gpus} ({per_function})")
    per_runtime = {r: [n for n in osdevs if re.fullmatch(rf"{r}\d+", n)] for r in RUNTIMES}
    numbering = next((r for r in RUNTIMES if len(per_runtime[r]) == len(gpus) and gpus), None)
    for g in gpus:
        if numbering and f"{numbering}{g['name'][3:]}" not in g["names"]:
            raise Failure(f"{g['name']} is not {numbering}{g['name'][3:]} ({g['names']})")
    for d in devices:
        for name in d["names"]:
            pus = os_set(run(["hwloc-calc", "-i", str(xml), "--disallowed", "--po", "-I", "pu",
                              f"os={name}"]))
            if os_set(d["cpuset"]) != pus:
                raise Failure(f"{d['name']} ({name}): cpuset {d['cpuset']}, hwloc-calc {sorted(pus)}")
            got = os_set(run(query + ["cpuset-of", name]).split()[-1]) if len(
                [x for x in devices if name in x["names"]]) == 1 else pus
            if got != pus:
                raise Failure(f"cpuset-of {name}: {sorted(got)}, hwloc-calc {sorted(pus)}")
            numa = os_set(run(["hwloc-calc", "-i", str(xml), "--disallowed", "--po", "-I", "numa",
                               f"os={name}"]))
            if set(d["numa"]) != numa:
                raise Failure(f"{d['name']}: NUMA {d['numa']}, hwloc-calc {sorted(numa)}")
        pci = pci_of(xml, d["names"][0])
        if pci != d["pci"]:
            raise Failure(f"{d['name']}: PCI {d['pci']}, hwloc-info {pci}")
    shown, links = check_matrix(bin_dir, xml, devices)
    return (f"ok ({len(devices)} devices, {len(gpus)} GPUs, {len(osdevs)} OS devices, "
            f"matrix {shown}x{shown}, {links} GPU links)")


def main():
    inputs = oracle_inputs(__doc__.strip().splitlines()[-2],
                           ["hwloc-calc", "hwloc-info", "lstopo-no-graphics"])
    if isinstance(inputs, int):
        return inputs
    bin_dir, data = inputs
    files = io_exports(data)
    return check_exports(files, data, lambda xml: check_file(bin_dir, xml), Failure,
                         "agree with hwloc's I/O view", minimum=6)


if __name__ == "__main__":
    sys.exit(main())
