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
    a reading of the export's <distances2> by interconnect_xml.py;
  * show: each PCI object and device line where lstopo -v --whole-io nests it;
  * identities (devices --json): a device's are exactly lstopo -v's infos
    NodeGUID, SysImageGUID, PortNLID/LMC/State, Address, the GPU UUIDs and
    serial numbers of the OS devices it is named after, and its guid the
    NodeGUID among them.

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


IO_WORDS = ("HostBridge", "PCIBridge", "PCI ")
DEVICE_WORDS = ("GPU ", "NIC ", "Storage ", "Device ")


def io_tree(items):
    """[(indent, kind, label, names)] -> {CPU-side label: [children]}: each
    CPU-side object's I/O, each node (label, names below it as a set,
    [children]) with PCI children in order."""
    out, stack = {}, []  # stack: (indent, node or CPU label)
    for indent, kind, label, names in items:
        while stack and stack[-1][0] >= indent:
            stack.pop()
        if kind == "cpu":
            stack.append((indent, label))
            continue
        if not stack:
            raise Failure(f"an I/O line {label!r} outside the tree")
        parent = stack[-1][1]
        if kind == "dev":
            holder = out.setdefault(parent, [set(), []])[0] if isinstance(parent, str) else parent[1]
            holder.update(names)
            continue
        node = (label, set(), [])
        (out.setdefault(parent, [set(), []])[1] if isinstance(parent, str) else parent[2]).append(node)
        stack.append((indent, node))
    return out


def show_io(bin_dir, xml):
    """show's I/O lines with their CPU-side parents, as io_tree items."""
    lines = run([f"{bin_dir}/nettopo-query", "-q", "-i", str(xml), "show"]).splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith("Machine type 0:"))
    items = []
    for line in lines[start + 1:]:
        if not line.startswith("  ") or line.startswith("  CPU kind #"):
            break
        indent, text = len(line) - len(line.lstrip(" ")) - 2, line.strip()
        if text.startswith(DEVICE_WORDS):
            m = re.fullmatch(r'\S+ (\S+)(?: \(([^)]*)\))?(?: ".*")?', text)
            if not m:
                raise Failure(f"show: an unreadable device line {text!r}")
            names = m.group(2).split(", ") if m.group(2) else [m.group(1)]
            items.append((indent, "dev", m.group(1), names))
        elif text.startswith(IO_WORDS):
            items.append((indent, "io", text, []))
        else:
            items.append((indent, "cpu", text.split("  [node")[0].split(" (")[0], []))
    return items


def lstopo_io(xml, kept_names, endpoints):
    """The same items from lstopo -v --whole-io: the PCI objects on the way
    to a device nettopo keeps (kept_names) or to a matrix endpoint (bus ids),
    labelled as show labels them; CPU-side objects by level name."""
    from hwloc_oracle import show_name
    rows = []
    for line in run(["lstopo-no-graphics", "-i", str(xml), "--disallowed", "-v",
                     "--whole-io"]).splitlines():
        m = re.match(r"( *)([A-Za-z][A-Za-z0-9-]*(?:\([^)]*\))?)(?: L#(\d+))?(?: \((.*)\))?"
                     r'(?: "(.*)")?$', line)
        if not m:
            continue
        indent, word, index, attrs, name = (len(m.group(1)), m.group(2), m.group(3),
                                            m.group(4) or "", m.group(5))
        if word in ("HostBridge", "PCIBridge"):
            rows.append([indent, "io", word, [], None])
        elif word == "PCI" or word.startswith("PCI("):  # PCI(NVSwitch): hwloc's subtype
            bus = re.search(r"busid=(\S+)", attrs).group(1)
            ids = re.search(r"(?<![a-z])id=(\S+)", attrs).group(1)
            label = f"PCI {bus[5:] if bus.startswith('0000:') else bus} ({ids})"
            rows.append([indent, "io", label, [], bus])
        elif name is not None and not word.startswith(("Misc", "NUMANode", "MemCache")):
            rows.append([indent, "dev", name, [name], None])
        elif word == "Machine":
            rows.append([indent, "cpu", "Machine", [], None])
        elif word.startswith(("Misc", "NUMANode", "MemCache")):
            rows.append([indent, "skip", word, [], None])
        else:
            rows.append([indent, "cpu", f"{show_name(word)} L#{index}", [], None])
    # Keep a device nettopo keeps and every PCI object above it or above an
    # endpoint; leave the rest out, and what hangs from Misc/memory objects.
    keep = [False] * len(rows)
    for i, (indent, kind, label, names, bus) in enumerate(rows):
        if (kind == "dev" and names[0] in kept_names) or (bus and bus in endpoints):
            keep[i] = True
            level = indent
            for j in range(i - 1, -1, -1):
                if rows[j][0] < level:
                    if rows[j][1] not in ("io", "dev"):
                        break
                    keep[j] = True
                    level = rows[j][0]
    return [tuple(r[:4]) for i, r in enumerate(rows)
            if r[1] == "cpu" or (r[1] in ("io", "dev") and keep[i])]


def check_show_io(bin_dir, xml, devices):
    """show prints each kept PCI object and device where lstopo nests it."""
    root = ET.parse(str(xml)).getroot()
    endpoints = {o.get("pci_busid") for objects, _ in interconnect_xml.matrices(root).values()
                 for o in objects if o is not None and o.get("type") == "PCIDev"}
    kept = {n for d in devices for n in d["names"]}
    ours, theirs = io_tree(show_io(bin_dir, xml)), io_tree(lstopo_io(xml, kept, endpoints))
    ours = {k: v for k, v in ours.items() if v[0] or v[1]}
    theirs = {k: v for k, v in theirs.items() if v[0] or v[1]}
    if ours != theirs:
        for k in sorted(set(ours) | set(theirs)):
            if ours.get(k) != theirs.get(k):
                raise Failure(f"show's I/O under {k}: nettopo {ours.get(k)}, lstopo {theirs.get(k)}")
    plain = run([f"{bin_dir}/nettopo-query", "-q", "-i", str(xml), "show", "--no-io"])
    if any(l.strip().startswith(IO_WORDS + DEVICE_WORDS) for l in plain.splitlines()):
        raise Failure("show --no-io prints I/O lines")
    return sum(1 for _ in ours)


IDENTITY = re.compile(r"(NodeGUID|SysImageGUID|Port\d+(?:LID|LMC|State)|Address|NVIDIAUUID|"
                      r"NVIDIASerial|AMDUUID|AMDSerial|LevelZeroUUID|LevelZeroSerialNumber)$")


def lstopo_infos(xml):
    """{OS device name: [(info name, value)]} of every OS device, from
    lstopo -v (its attributes: name=value or name="value with spaces")."""
    out = {}
    for line in run(["lstopo-no-graphics", "-i", str(xml), "--disallowed", "-v",
                     "--only", "osdev"]).splitlines():
        m = re.match(r'\s*\S+ L#\d+ \((.*)\) "([^"]+)"$', line)
        if not m:
            continue
        attrs = re.findall(r'(\w+)=("(?:[^"\\]|\\.)*"|\S*)', m.group(1))
        out[m.group(2)] = [(k, v[1:-1] if v.startswith('"') else v) for k, v in attrs]
    return out


def check_identities(xml, devices):
    """Each device's identities are exactly lstopo's infos of those names
    on its OS devices, in lstopo's order per OS device."""
    infos = lstopo_infos(xml)
    count = 0
    for d in devices:
        want = sorted((view, k, v) for view in d["names"] for k, v in infos.get(view, [])
                      if IDENTITY.match(k))
        got = sorted((i["view"], i["name"], i["value"]) for i in d["identities"])
        if got != want:
            raise Failure(f"{d['name']}: identities {got}, lstopo {want}")
        guid = next((v for view, k, v in want if k == "NodeGUID"), None)
        if d["guid"] != guid:
            raise Failure(f"{d['name']}: guid {d['guid']}, lstopo's NodeGUID {guid}")
        count += len(got)
    return count


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
    holders = check_show_io(bin_dir, xml, devices)
    identities = check_identities(xml, devices)
    return (f"ok ({len(devices)} devices, {len(gpus)} GPUs, {len(osdevs)} OS devices, "
            f"matrix {shown}x{shown}, {links} GPU links, show's I/O under {holders} objects, "
            f"{identities} identities)")


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
