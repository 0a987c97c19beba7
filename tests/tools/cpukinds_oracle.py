#!/usr/bin/env python3
"""CPU kinds (hybrid CPUs) against hwloc's own view, on real exports.

For every real export of ../shared/data/hwloc-xml/, a seeded sample of the
clusters' per-host exports, and the hwloc 3.0 export of a DGX GB10
(hwloc3-xml/nvidia-dgx-gb10.xml: nettopo reads it as it is, through its 3.0
converter; hwloc 2.9's tools refuse 3.0, so they read a copy that says
version 2.0, which they read whole):

  * the kinds of `nettopo-query --json summary` (machine_types[0].cpu_kinds,
    absent when none) are those of `lstopo --cpukinds --disallowed`, in order:
    the same efficiency (hwloc's -1 is null), the same PUs (OS indexes, from
    lstopo's cpuset mask) and the same infos, names and values in order;
    where lstopo lists fewer than two kinds (one, on many homogeneous
    machines), nettopo has none: no cpu_kinds, nothing in show;
  * `show` marks each PU line with its kind where it marks any ("PU L#i (P#o
    kind #k)"), and that kind holds OS index o;
  * on machines with two ranked kinds or more, `distribute N --prefer
    performance` (efficiency) puts ranks 0..N-1, N the PUs of the kind hwloc
    ranks highest (lowest), on exactly the PUs `hwloc-calc --cpukind K`
    gives, for both policies; one rank more goes to a PU of the next kind.

Usage: cpukinds_oracle.py BIN_DIR PROJECT_ROOT [SHARED_DATA]. Exit 77 (skipped)
without lstopo-no-graphics and hwloc-calc, or without the shared data.
"""
import json
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from real_exports import check_exports, oracle_inputs, real_exports

GB10 = Path("hwloc3-xml") / "nvidia-dgx-gb10.xml"


class Failure(Exception):
    pass


def run(args, ok=(0,)):
    p = subprocess.run([str(a) for a in args], capture_output=True, text=True)
    if p.returncode not in ok:
        raise Failure(f"{' '.join(map(str, args))} exited {p.returncode}: {p.stderr.strip()}")
    return p.stdout


def mask_indexes(mask):
    """OS indexes of hwloc's cpuset string: 32-bit groups, highest first."""
    groups = mask.split(",")
    out = set()
    for g, text in enumerate(reversed(groups)):
        value = int(text, 16) if text else 0
        out |= {32 * g + b for b in range(32) if value >> b & 1}
    return out


def list_indexes(text):
    out = set()
    for item in filter(None, text.split(",")):
        first, _, last = item.partition("-")
        out |= set(range(int(first), int(last or first) + 1))
    return out


def hwloc_kinds(xml):
    """[(efficiency, OS indexes, [(name, value)])] of lstopo --cpukinds."""
    kinds = []
    out = run(["lstopo-no-graphics", "-i", xml, "--disallowed", "--cpukinds"])
    for line in out.splitlines():
        m = re.match(r"CPU kind #(\d+) efficiency (-?\d+) cpuset (\S+)$", line)
        if m:
            if int(m.group(1)) != len(kinds):
                raise Failure(f"lstopo lists kind #{m.group(1)} after {len(kinds)} kinds")
            kinds.append((int(m.group(2)), mask_indexes(m.group(3)), []))
            continue
        m = re.match(r"  (.*?) = (.*)$", line)
        if m and kinds:
            kinds[-1][2].append((m.group(1), m.group(2)))
    return kinds


def nettopo_kinds(query):
    summary = json.loads(run(query + ["--json", "summary"]))["summary"]
    kinds = []
    if summary["machine_types"][0].get("cpu_kinds", None) == []:
        raise Failure("summary --json: cpu_kinds present but empty (absent when none)")
    for k in summary["machine_types"][0].get("cpu_kinds", []):
        if k["cpuset"] is None:
            raise Failure("a kind without OS indexes, on an export that has them")
        kinds.append((-1 if k["efficiency"] is None else k["efficiency"],
                      list_indexes(k["cpuset"]), [(i["name"], i["value"]) for i in k["infos"]]))
    return kinds


def check_show(query, kinds):
    marked = 0
    for line in run(query + ["show"]).splitlines():
        if not kinds and re.search(r"kind #|no kind\)", line):
            raise Failure(f"show speaks of kinds on a machine without: {line.strip()}")
        m = re.match(r" *PU L#(\d+) \(P#(\d+) (kind #(\d+)|no kind)\)", line)
        if not m:
            continue
        os_index = int(m.group(2))
        if m.group(4) is None:
            if any(os_index in k[1] for k in kinds):
                raise Failure(f"show: PU P#{os_index} has no kind, hwloc gives it one")
        elif os_index not in kinds[int(m.group(4))][1]:
            raise Failure(f"show: PU P#{os_index} is not in kind #{m.group(4)}")
        marked += 1
    if len(kinds) > 1 and marked == 0:
        raise Failure("show marks no PU with its kind on a machine of several kinds")
    return marked


def check_prefer(query, xml, kinds):
    ranked = sorted(range(len(kinds)), key=lambda k: kinds[k][0])
    if len(kinds) < 2 or kinds[ranked[0]][0] < 0:
        return 0
    checked = 0
    for prefer, first, second in (("performance", ranked[-1], ranked[-2]),
                                  ("efficiency", ranked[0], ranked[1])):
        pus = list_indexes(run(["hwloc-calc", "-i", xml, "--disallowed", "--cpukind",
                                str(first), "all", "--po", "-I", "pu"]).strip())
        following = list_indexes(run(["hwloc-calc", "-i", xml, "--disallowed", "--cpukind",
                                      str(second), "all", "--po", "-I", "pu"]).strip())
        for policy in ("scatter", "compact"):
            out = run(query + ["distribute", str(len(pus) + 1), "--policy", policy,
                               "--prefer", prefer])
            placed = [int(line.split()[3]) for line in out.splitlines()]
            if set(placed[:len(pus)]) != pus or len(set(placed[:len(pus)])) != len(pus):
                raise Failure(f"distribute --prefer {prefer} --policy {policy}: ranks 0-"
                              f"{len(pus) - 1} on P#{sorted(set(placed[:len(pus)]))}, "
                              f"hwloc-calc --cpukind {first}: {sorted(pus)}")
            if placed[len(pus)] not in following:
                raise Failure(f"distribute --prefer {prefer}: rank {len(pus)} on "
                              f"P#{placed[len(pus)]}, not in kind #{second}")
            checked += 1
    return checked


def check_file(bin_dir, xml, hwloc_xml=None):
    """nettopo reads `xml`; hwloc's tools read `hwloc_xml` (the same machine,
    in a version they read), or `xml` itself."""
    hwloc_xml = hwloc_xml or xml
    query = [f"{bin_dir}/nettopo-query", "-q", "-i", str(xml)]
    theirs = hwloc_kinds(hwloc_xml)
    # A single kind tells no PU from another: nettopo keeps none (min_cpu_kinds).
    expected = theirs if len(theirs) >= 2 else []
    ours = nettopo_kinds(query)
    if ours != expected:
        raise Failure(f"kinds: nettopo {ours}, lstopo --cpukinds {theirs}")
    marked = check_show(query, expected)
    prefer = check_prefer(query, hwloc_xml, expected)
    return (f"ok: {len(theirs)} kinds" + (" (none kept)" if theirs and not expected else "") +
            (f", {marked} PUs marked" if marked else "") +
            (f", {prefer} --prefer placements" if prefer else ""))


def gb10_for_hwloc(data, scratch):
    """The GB10 export and the copy of it hwloc 2.9 reads (it says version
    2.0; hwloc 2.9 refuses 3.0 and reads the copy whole), or None when the
    export is absent or hwloc does not read the copy."""
    original = Path(data) / GB10
    if not original.exists():
        return None
    copy = Path(scratch) / original.name
    copy.write_text(original.read_text().replace('<topology version="3.0">',
                                                 '<topology version="2.0">', 1))
    p = subprocess.run(["lstopo-no-graphics", "-i", str(copy), "--cpukinds"],
                       capture_output=True, text=True)
    return (original, copy) if p.returncode == 0 else None


def main():
    inputs = oracle_inputs(__doc__.strip().splitlines()[-2], ["lstopo-no-graphics", "hwloc-calc"])
    if isinstance(inputs, int):
        return inputs
    bin_dir, data = inputs
    files = real_exports(data, random.Random(26), 4)
    with tempfile.TemporaryDirectory() as scratch:
        gb10 = gb10_for_hwloc(data, scratch)
        status = check_exports(files, data, lambda xml: check_file(bin_dir, xml), Failure,
                               "agree with hwloc's CPU kinds")
        if gb10 is None:
            print(f"{GB10}: not checked (absent, or hwloc does not read its 2.0 copy)")
            return status
        try:
            print(f"{GB10} (hwloc: as version 2.0): {check_file(bin_dir, *gb10)}")
        except Failure as e:
            print(f"FAIL {GB10}: {e}")
            return 1
        return status


if __name__ == "__main__":
    sys.exit(main())
