"""What the oracles over real hwloc exports share (tests/tools/*_oracle.py):
their command line, the exports to check and the loop that checks them, and
run / os_set / OracleFailure (a tool's output, a cpuset list as a set),
pci_ancestor (an OS device's PCI vendor and bus id, from hwloc-info) and
io_exports (the shared exports with OS devices).

oracle_inputs(usage, tools): see below.

sampled(count): count, or a quarter of it in a sanitizer build (SANITIZED).

real_exports(data, rng, per_cluster): every export of DATA/hwloc-xml/ and a
seeded sample of sampled(PER_CLUSTER) full exports (not topology diffs) of each
DATA/clusters/*/hwloc/.

check_exports(files, data, check, failure, agree, minimum=20): runs check(xml)
on each (it returns a line to print, "ok ..." when it agrees, or raises
FAILURE), prints one line per export and a total with AGREE ("agree with
hwloc"), and returns the exit status: 1 on any failure or when fewer than
MINIMUM exports were checked.
"""
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

# Set by the sanitize build's tests: its tools run 10 to 30 times slower, so
# the oracles check a quarter of their samples there (the release build
# checks them all); see sampled().
SANITIZED = os.environ.get("NETTOPO_SANITIZED") == "1"


class OracleFailure(Exception):
    """An oracle's disagreement (or a tool that failed): one line to print."""


def run(args):
    """ARGS' standard output, stripped; OracleFailure naming the command when
    it exits non-zero."""
    p = subprocess.run([str(a) for a in args], capture_output=True, text=True)
    if p.returncode != 0:
        raise OracleFailure(f"{' '.join(map(str, args))} exited {p.returncode}: "
                            f"{p.stderr.strip()}")
    return p.stdout.strip()


def os_set(text):
    """'0-3,8' or '0,1,2,3,8' -> {0, 1, 2, 3, 8}."""
    out = set()
    for item in filter(None, text.split(",")):
        lo, _, hi = item.partition("-")
        out.update(range(int(lo), int(hi or lo) + 1))
    return out


def pci_ancestor(xml, name):
    """(PCI vendor id, bus id) of OS device NAME's PCI ancestor, as hwloc-info
    --ancestor pcidev prints them; None for either it does not print."""
    anc = subprocess.run(["hwloc-info", "-i", str(xml), "--disallowed", "--ancestor", "pcidev",
                          f"os={name}"], capture_output=True, text=True).stdout
    vendor = re.search(r"attr PCI id = (\w+):", anc)
    bus = re.search(r"attr PCI bus id = (\S+)", anc)
    return (vendor.group(1) if vendor else None, bus.group(1) if bus else None)


def io_exports(data):
    """The exports of DATA/hwloc-xml/ that hold OS devices, sorted."""
    files = sorted((Path(data) / "hwloc-xml").glob("*.xml"))
    return [f for f in files if "<object type=\"OSDev\"" in f.read_text(errors="replace")]


def sampled(count):
    """COUNT, or a quarter of it (at least 1) in a sanitizer build."""
    return max(1, count // 4) if SANITIZED else count


def oracle_inputs(usage, tools):
    """BIN_DIR PROJECT_ROOT [SHARED_DATA] from the command line: (bin_dir, data),
    or the exit status when the oracle cannot run (2: bad usage, 77: skipped
    for want of one of TOOLS or of the shared data)."""
    if len(sys.argv) not in (3, 4):
        print(usage, file=sys.stderr)
        return 2
    bin_dir, root = sys.argv[1], Path(sys.argv[2]).resolve()
    data = Path(sys.argv[3]) if len(sys.argv) == 4 else root.parent / "shared" / "data"
    for tool in tools:
        if not shutil.which(tool):
            print(f"skipped: no {tool} (Debian package hwloc)")
            return 77
    if not (data / "hwloc-xml").is_dir():
        print(f"skipped: no {data}/hwloc-xml")
        return 77
    return bin_dir, data


def real_exports(data, rng, per_cluster):
    files = sorted((Path(data) / "hwloc-xml").glob("*.xml"))
    for cluster in sorted((Path(data) / "clusters").glob("*/hwloc")):
        exports = sorted(f for f in cluster.glob("*.xml") if not f.name.endswith(".diff.xml"))
        files += sorted(rng.sample(exports, min(sampled(per_cluster), len(exports))))
    return files


def check_exports(files, data, check, failure, agree, minimum=20):
    failures = checked = 0
    for xml in files:
        name = xml.relative_to(data)
        try:
            result = check(xml)
            checked += result.startswith("ok")
            print(f"{name}: {result}")
        except failure as e:
            failures += 1
            print(f"FAIL {name}: {e}")
    print(f"{checked} of {len(files)} exports {agree}, {failures} disagree")
    if checked < minimum:
        print(f"FAIL: fewer than {minimum} exports checked")
        return 1
    return 1 if failures else 0


def run_oracle(doc, tools, per_cluster, check_file, failure, agree):
    """The whole main of an oracle over real exports: its command line (usage:
    the second-last line of DOC), a seeded sample of PER_CLUSTER exports per
    cluster, check_file(bin_dir, xml, rng) on each; the exit status."""
    inputs = oracle_inputs(doc.strip().splitlines()[-2], tools)
    if isinstance(inputs, int):
        return inputs
    bin_dir, data = inputs
    rng = random.Random(14)
    files = real_exports(data, rng, per_cluster)
    return check_exports(files, data, lambda xml: check_file(bin_dir, xml, rng), failure, agree)
