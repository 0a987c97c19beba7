#!/usr/bin/env python3
"""tools.nccl_oracle: export --format nccl against an independent reading of each export.

The file is read by a reader of this script that follows NCCL's own parser
(github NVIDIA/nccl, src/graph/xml.cc: xmlGetNode, xmlGetToken, xmlGetValue:
no XML declaration, elements separated by blanks and newlines only,
one blank before each attribute, quoted values without entities, at most 253
bytes each, 16 attributes, 256 elements; NCCL skips comments, nettopo writes
none and this reader refuses them). The reader is first held to a file
NCCL itself wrote (tests/data/nccl/h200-baremetal-dump.xml, a real H200
server's NCCL_TOPO_DUMP_FILE): it must read it, and nettopo's files may
nest only elements that NCCL's dump nests so (system > cpu > pci > pci) and
carry only attribute names NCCL's dump gives those elements (and `name` on
<system>, which ncclTopoXmlLoadSystem reads), with values of the dump's forms
(bus ids, "0x" classes that prefix the dump's, 32-bit hex words of affinity).

Then, for every export of SHARED/hwloc-xml/ with OS devices:
  * with a GPU (cudaN, nvmlN, rsmiN, zeN or an OpenCL GPU device on a PCI
    function): the file's cpu and pci elements are exactly those worked out
    here from the export's XML alone (xml.etree, not nettopo): for each GPU's
    and network adapter's PCI function (OpenFabrics or network OS devices),
    its chain of Bridge and PCIDev ancestors below the host bridge, of which
    NCCL keeps the objects two levels apart up from the function
    (ncclTopoGetXmlFromSys walks sysfs so) under the cpu of the host
    bridge's CPU-side ancestor: the one NUMA node whose cpuset meets it, else
    numaid -1; each with its bus id, class (0x060400 a bridge, 0x03 a GPU,
    0x02 an adapter), vendor and device from the export's pci_type, and the
    cpu's affinity equal to that NUMA node's cpuset (the union of the
    localities for -1);
  * and against nettopo's own device list (devices --json): every GPU and
    adapter with a PCI address has its element, of its class, under the cpu
    of its NUMA node;
  * without a GPU: the export is refused (exit 1), nothing written.

Usage: nccl_oracle.py BIN_DIR PROJECT_ROOT [SHARED_DATA]. Exit 77 (skipped)
without the shared data.
"""
import json
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

from devices_oracle import cpuset_bits
from real_exports import OracleFailure as Failure, check_exports, io_exports, oracle_inputs

BUS_ID = re.compile(r"^[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-9a-f]$")
HEX_WORDS = re.compile(r"^[0-9a-f]{8}(,[0-9a-f]{8})*$")
GPU_RUNTIME = re.compile(r"^(cuda|nvml|rsmi|ze)\d+$")


class Element:
    def __init__(self, name, attrs, parent):
        self.name, self.attrs, self.parent, self.children = name, attrs, parent, []


def read_nccl(text):
    """The tree of TEXT as NCCL's parser reads it; Failure where it would not."""
    i = 0
    count = 0

    def skip():
        nonlocal i
        while i < len(text) and text[i] in " \n\r":
            i += 1

    def char():
        nonlocal i
        if i == len(text):
            raise Failure("NCCL's parser: unexpected end of file")
        i += 1
        return text[i - 1]

    def token():  # xmlGetToken: up to ' ', '>', '/', '\n', '\r' (or '=')
        out = ""
        while True:
            c = char()
            if c in " >/\n\r=":
                return out, c
            out += c

    def element(parent):
        nonlocal count, i
        skip()
        if char() != "<":
            raise Failure(f"NCCL's parser: expected '<' at byte {i - 1}")
        name, c = token()
        if not name or name[0] in "?!":
            raise Failure(f"<{name}: a declaration (NCCL reads none) or a comment (none written)")
        attrs = {}
        while c == " ":
            key, c = token()
            if c != "=" or char() != '"':
                raise Failure(f"NCCL's parser: attribute {key!r} of <{name}> is not key=\"value\"")
            value = ""
            v = char()
            while v != '"':
                value += v
                v = char()
            if len(value) > 253:
                raise Failure(f"NCCL's parser: {key} of <{name}> is {len(value)} bytes (253 read)")
            if re.search(r"[<>&]", value):
                raise Failure(f"NCCL's parser: markup in {key} of <{name}>")
            attrs[key] = value
            c = char()
        if len(attrs) > 16:
            raise Failure(f"NCCL's parser: <{name}> has {len(attrs)} attributes (16 read)")
        e = Element(name, attrs, parent)
        count += 1
        if c == "/":
            if char() != ">":
                raise Failure(f"NCCL's parser: <{name} .../ not closed by '>'")
            return e
        if c != ">":
            raise Failure(f"NCCL's parser: expected '>' after <{name}, got {c!r}")
        while True:
            skip()
            if text.startswith("</", i):
                i += 2
                closing, last = token()
                if closing != name or last != ">":
                    raise Failure(f"NCCL's parser: </{closing}> closes <{name}>")
                return e
            e.children.append(element(e))

    root = element(None)
    skip()
    if root.name != "system" or i != len(text):
        raise Failure("NCCL's parser: not one <system> element")
    if count > 256:
        raise Failure(f"NCCL's parser: {count} elements (256 read)")
    return root


def walk(e):
    yield e
    for c in e.children:
        yield from walk(c)


def dump_forms(dump):
    """From NCCL's own dump: {(parent name, child name)}, {element name: attribute names}."""
    nesting, attrs = set(), {}
    for e in walk(dump):
        attrs.setdefault(e.name, set()).update(e.attrs)
        if e.parent is not None:
            nesting.add((e.parent.name, e.name))
    return nesting, attrs


def check_forms(root, nesting, attrs, dump_classes):
    for e in walk(root):
        if e.parent is not None and (e.parent.name, e.name) not in nesting:
            raise Failure(f"<{e.name}> inside <{e.parent.name}>: NCCL's dump nests no such")
        allowed = attrs.get(e.name, set()) | ({"name"} if e.name == "system" else set())
        if set(e.attrs) - allowed:
            raise Failure(f"<{e.name}> has {sorted(set(e.attrs) - allowed)}, not in NCCL's dump")
        a = e.attrs
        if e.name == "system" and a.get("version") != "1":
            raise Failure("<system> without version=\"1\"")
        if e.name == "cpu":
            if not re.fullmatch(r"-1|\d+", a.get("numaid", "")):
                raise Failure(f"<cpu numaid={a.get('numaid')!r}>")
            if "affinity" in a and not HEX_WORDS.match(a["affinity"]):
                raise Failure(f"affinity {a['affinity']!r} is not 32-bit hex words")
        if e.name == "pci":
            if not BUS_ID.match(a.get("busid", "")):
                raise Failure(f"busid {a.get('busid')!r}")
            if not any(c.startswith(a.get("class", "-")) for c in dump_classes):
                raise Failure(f"class {a.get('class')!r} prefixes no class of NCCL's dump")
            for k in ("vendor", "device"):
                if k in a and not re.fullmatch(r"0x[0-9a-f]{4}", a[k]):
                    raise Failure(f"{k} {a[k]!r}")


def expected_tree(xml):
    """{busid: (parent busid or ('cpu', numaid), class, vendor, device)}, {numaid: affinity
    bits}, read from the export alone; None when it has no GPU on a PCI function."""
    root = ET.parse(str(xml)).getroot()
    parent = {c: p for p in root.iter() for c in p}
    numa = [(int(o.get("os_index")), cpuset_bits(o.get("cpuset", "0x0")))
            for o in root.iter("object") if o.get("type") == "NUMANode"]
    functions = {}  # PCIDev element -> is a GPU
    for o in root.iter("object"):
        if o.get("type") != "OSDev" or parent[o].get("type") != "PCIDev":
            continue
        infos = {i.get("name"): i.get("value") for i in o.findall("info")}
        gpu = bool(GPU_RUNTIME.match(o.get("name", ""))) or \
            infos.get("OpenCLDeviceType") == "GPU"
        nic = o.get("osdev_type") in ("2", "3")  # Network, OpenFabrics
        if gpu or nic:
            f = parent[o]
            functions[f] = functions.get(f, False) or gpu
    if not any(functions.values()):
        return None
    elements, affinity = {}, {}

    def ident(o):
        return o.get("pci_busid")

    def ids(o):
        m = re.match(r"\w+ \[(\w+):(\w+)\]", o.get("pci_type", ""))
        return ("0x" + m.group(1), "0x" + m.group(2)) if m else (None, None)

    for f, gpu in functions.items():
        chain = [f]  # the function, then its bridges up to the host bridge
        o = parent[f]
        while not (o.get("type") == "Bridge" and o.get("bridge_type", "").startswith("0-")):
            if o.get("type") not in ("Bridge", "PCIDev"):
                raise Failure(f"{ident(f)}: no host bridge above it")
            chain.append(o)
            o = parent[o]
        host = o
        cpu_side = parent[host]
        while cpu_side.get("type") in ("Bridge", "PCIDev"):
            cpu_side = parent[cpu_side]
        local = cpuset_bits(cpu_side.get("cpuset", "0x0"))
        meet = [(n, bits) for n, bits in numa if bits & local]
        numaid, bits = meet[0] if len(meet) == 1 else (-1, local)
        affinity[numaid] = affinity.get(numaid, 0) | bits
        # NCCL keeps chain[0], chain[2], ...: each one's parent two levels up.
        for k in range(0, len(chain), 2):
            o = chain[k]
            up = ident(chain[k + 2]) if k + 2 < len(chain) else ("cpu", numaid)
            cls = ("0x03" if gpu else "0x02") if k == 0 else "0x060400"
            elements[ident(o)] = (up, cls) + ids(o)
    return elements, affinity


def written_tree(root):
    elements, affinity = {}, {}
    for cpu in root.children:
        numaid = int(cpu.attrs["numaid"])
        if numaid in affinity:
            raise Failure(f"two <cpu numaid=\"{numaid}\">")
        affinity[numaid] = None
        if "affinity" in cpu.attrs:
            affinity[numaid] = int(cpu.attrs["affinity"].replace(",", ""), 16)
        for e in walk(cpu):
            if e.name != "pci":
                continue
            a = e.attrs
            up = ("cpu", numaid) if e.parent is cpu else e.parent.attrs["busid"]
            if a["busid"] in elements:
                raise Failure(f"{a['busid']} written twice")
            elements[a["busid"]] = (up, a["class"], a.get("vendor"), a.get("device"))
            busids = [c.attrs["busid"] for c in e.children]
            if busids != sorted(busids):
                raise Failure(f"the children of {a['busid']} are not in bus id order")
    return elements, affinity


def check_file(bin_dir, xml, forms, work):
    out = work / (xml.stem + ".nccl.xml")
    p = subprocess.run([f"{bin_dir}/nettopo-query", "-i", str(xml), "export", "--format", "nccl",
                        "-o", str(out)], capture_output=True, text=True)
    expected = expected_tree(xml)
    if expected is None:
        if p.returncode != 1 or out.exists():
            raise Failure(f"no GPU: expected a refusal (exit 1, no file), got exit {p.returncode}")
        return "ok (no GPU: refused, nothing written)"
    if p.returncode != 0:
        raise Failure(f"export --format nccl exited {p.returncode}: {p.stderr.strip()}")
    root = read_nccl(out.read_text())
    check_forms(root, *forms)
    elements, affinity = written_tree(root)
    want_elements, want_affinity = expected
    if elements != want_elements:
        diff = sorted(set(elements.items()) ^ set(want_elements.items()), key=str)[:4]
        raise Failure(f"pci elements differ from the export's (written ^ expected): {diff}")
    if set(affinity) != set(want_affinity):
        raise Failure(f"cpus {sorted(affinity)} for {sorted(want_affinity)}")
    for numaid, bits in want_affinity.items():
        if affinity[numaid] != bits:
            raise Failure(f"cpu {numaid}: affinity {affinity[numaid]} for {bits:#x}")
    # nettopo's own device list.
    listed = subprocess.run([f"{bin_dir}/nettopo-query", "-i", str(xml), "--json", "devices"],
                            capture_output=True, text=True, check=True).stdout
    placed = 0
    for line in listed.splitlines():
        d = json.loads(line)["device"]
        if d["kind"] not in ("gpu", "nic") or not d.get("pci"):
            continue
        if d["pci"] not in elements:
            raise Failure(f"{d['name']} ({d['pci']}) has no <pci> element")
        up, cls = elements[d["pci"]][:2]
        want_cls = "0x03" if d["kind"] == "gpu" else "0x02"
        if cls != want_cls:
            raise Failure(f"{d['name']}: class {cls} for a {d['kind']}")
        while up[0] != "cpu":
            up = elements[up][0]
        want_numa = d["numa"][0] if len(d["numa"]) == 1 else -1
        if up[1] != want_numa:
            raise Failure(f"{d['name']}: under cpu {up[1]}, its NUMA nodes are {d['numa']}")
        placed += 1
    cpus = len(affinity)
    return f"ok ({placed} GPUs and adapters, {len(elements) - placed} switches, {cpus} cpus)"


def main():
    inputs = oracle_inputs(__doc__.strip().splitlines()[-2], [])
    if isinstance(inputs, int):
        return inputs
    bin_dir, data = inputs
    root = Path(sys.argv[2]).resolve()
    dump = read_nccl((root / "tests/data/nccl/h200-baremetal-dump.xml").read_text())
    nesting, attrs = dump_forms(dump)
    classes = {e.attrs["class"] for e in walk(dump) if e.name == "pci"}
    print(f"NCCL's dump read: {sum(1 for _ in walk(dump))} elements, "
          f"{len(nesting)} nestings, classes {sorted(classes)}")
    files = io_exports(data)
    with tempfile.TemporaryDirectory() as tmp:
        return check_exports(files, data,
                             lambda xml: check_file(bin_dir, xml, (nesting, attrs, classes),
                                                    Path(tmp)),
                             Failure, "agree with their XML and nettopo's devices", minimum=8)


if __name__ == "__main__":
    sys.exit(main())
