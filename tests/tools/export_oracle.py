#!/usr/bin/env python3
"""`nettopo-query export` against the tools that read what it writes.

--format scotch, checked with Scotch's own programs (Debian scotch):
  * `atst` loads the target; its terminal count equals nettopo's PE count, and
    its largest, mean and spread of the pairwise distances (atst's "max",
    "avg", "dlt") equal those computed here from `nettopo-query distance
    --pairs` over every pair of PEs, rounded as documented (whole ns, at
    least 1); the file's distances equal those answers one by one: a deco 0
    file's rows as written, a tleaf's as Scotch defines them (PEs meeting at
    level i are c_i + ... + c_(L-1) apart), every pair up to 1500 PEs, a
    seeded sample beyond (atst's 32-bit sum then overflows: only its count
    and maximum are compared);
  * the form: tleaf for the uniform hierarchies (generated fat-trees and
    trees of identical hosts), deco 0 for the others (a torus, plafrim);
  * a deco's terminal domain numbers form a binary decomposition (no number
    is the ancestor of another) whose largest number is below 4 N;
  * `scotch_gmap` (or `gmap`) maps a 2D grid made by `gmk_m2` onto the target
    without error, every process on a PE of the cluster;
  * a cluster above the size limit that is no hierarchy is refused (exit 1)
    and no file is written; a hierarchy of 4224 PEs is written as a tleaf.
  Clusters: generated (fat-tree, torus, tree with a two-level machine), the
  example fat-tree, and plafrim assembled from ../shared/data (17 types).

--format synthetic, checked with hwloc (lstopo):
  * for every real export of ../shared/data/hwloc-xml/ and a few synthetic
    inputs: when hwloc's own `lstopo --of synthetic` (the whole machine,
    --disallowed, as nettopo reads it) writes a description, nettopo writes
    the same one, up to the spelling of indexes= (hwloc compresses them) and
    hwloc's unified L1Cache (nettopo's L1 is written L1dCache); when hwloc
    finds the machine asymmetric, nettopo refuses it (exit 1, "no hwloc
    synthetic description");
  * what nettopo writes, loaded by `lstopo -i STRING --of xml`, has the same
    objects per type and depth, and the same PU and NUMA OS indexes in
    logical order, as the source loaded by lstopo; and reads back through
    nettopo's -i to the same string.
  * several machine types: refused without --machine (exit 2), one line with.
  nettopo's model has no memory-side caches (a NUMA node below one hangs from
  the cache's parent), so the comparison skips them.

Usage: export_oracle.py BIN_DIR PROJECT_ROOT [SHARED_DATA]. Exit 77 (skipped)
when atst, scotch_gmap/gmap, gmk_m2 or lstopo is missing.
"""
import collections
import random
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path


class Failure(Exception):
    pass


def run(args, check=True, **kw):
    p = subprocess.run([str(a) for a in args], capture_output=True, text=True, **kw)
    if check and p.returncode != 0:
        raise Failure(f"{' '.join(map(str, args))} exited {p.returncode}: {p.stderr.strip()}")
    return p


# ---------------------------------------------------------------------------
# Scotch


def read_target(path):
    """(form, n, distance(i, j) for i > j, deco terminal lines or None) of a target."""
    words = path.read_text().split()
    if words[0] == "tleaf":
        levels = int(words[1])
        sizes = [int(w) for w in words[2:2 + 2 * levels:2]]
        costs = [int(w) for w in words[3:3 + 2 * levels:2]]
        if len(words) != 2 + 2 * levels or min(costs) < 1:
            raise Failure(f"{path}: malformed tleaf: {' '.join(words[:12])}")
        n = 1
        for size in sizes:
            n *= size

        def tleaf_distance(i, j):  # leaf order, level 0 most significant
            for level in range(levels):
                below = 1
                for size in sizes[level + 1:]:
                    below *= size
                if i // below != j // below:
                    return sum(costs[level:])
            return 0
        return "tleaf", n, tleaf_distance, None
    if words[:2] != ["deco", "0"]:
        raise Failure(f"{path}: neither a tleaf nor a deco 0 target: {words[:2]}")
    n, max_domain = int(words[2]), int(words[3])
    pos = 4
    terminals = []
    for _ in range(n):
        terminals.append(tuple(int(w) for w in words[pos:pos + 3]))
        pos += 3
    rows = []
    for i in range(1, n):
        rows.append([int(w) for w in words[pos:pos + i]])
        pos += i
    if pos != len(words):
        raise Failure(f"{path}: {len(words) - pos} words after the distances")
    if max(t[2] for t in terminals) != max_domain:
        raise Failure(f"{path}: header says largest domain {max_domain}")
    return "deco", n, lambda i, j: rows[i - 1][j], terminals


def atst_stats(path, atst):
    out = run([atst, path]).stdout
    nbr = int(re.search(r"Terminals\s+nbr=(\d+)", out).group(1))
    m = re.search(r"max=(-?\d+)\s+avg=(\S+)\s+dlt=(\S+)", out)
    return nbr, int(m.group(1)), float(m.group(2)), float(m.group(3))


ALL_PAIRS_UP_TO = 1500  # PEs; a seeded sample of pairs beyond


def check_scotch(name, archive, q, work, atst, gmap, gmk_m2, form):
    tgt = work / f"{name}.tgt"
    run([q, "-i", archive, "export", "--format", "scotch", "-o", tgt])
    n = int(run([q, "-i", archive, "num-pes"]).stdout)
    written_form, written_n, distance, terminals = read_target(tgt)
    if written_form != form or written_n != n:
        raise Failure(f"{name}: a {written_form} of {written_n} terminals, expected a {form} of {n}")
    # nettopo's answers, every pair i > j (or a sample), against the file's.
    if n <= ALL_PAIRS_UP_TO:
        pairs = [(i, j) for i in range(1, n) for j in range(i)]
    else:
        rng = random.Random(14)
        pairs = [(n - 1, 0)] + [tuple(sorted(rng.sample(range(n), 2), reverse=True)) for _ in range(3000)]
    pairs_file = work / f"{name}.pairs"
    pairs_file.write_text("".join(f"{i} {j}\n" for i, j in pairs))
    answers = [float(x) for x in run([q, "-i", archive, "distance", "--pairs", pairs_file]).stdout.split()]
    expected = [max(1, int(d + 0.5)) for d in answers]  # ns >= 0: round half up = llround
    for (i, j), want, ns in zip(pairs, expected, answers):
        if distance(i, j) != want:
            raise Failure(f"{name}: PEs {i} {j} are {distance(i, j)} apart in the target, "
                          f"nettopo-query says {ns} ns")
    if terminals is not None:
        if [t[0] for t in terminals] != list(range(n)) or any(t[1] != 1 for t in terminals):
            raise Failure(f"{name}: terminals are not PEs 0..{n - 1} of weight 1")
        domains = [t[2] for t in terminals]
        if len(set(domains)) != n:
            raise Failure(f"{name}: two terminals share a domain")
        domain_set = set(domains)
        for d in domains:
            a = d >> 1
            while a >= 1:
                if a in domain_set:
                    raise Failure(f"{name}: domain {a} is a terminal and contains terminal {d}")
                a >>= 1
        if n > 1 and max(domains) >= 4 * n:
            raise Failure(f"{name}: largest domain {max(domains)} >= 4 x {n} PEs")
    # atst's own reading.
    nbr, dmax, avg, dlt = atst_stats(tgt, atst)
    if n <= ALL_PAIRS_UP_TO:
        pairs_count = n * (n - 1) / 2
        mean = sum(expected) / pairs_count if n > 1 else 0.0
        spread = 2 * sum(abs(d - mean) for d in expected) / pairs_count if n > 1 else 0.0
        close = lambda a, b: abs(a - b) <= 1e-5 * max(1.0, abs(b))  # atst prints %g
        if nbr != n or dmax != max(expected, default=0) or not close(avg, mean) or not close(dlt, spread):
            raise Failure(f"{name}: atst says nbr={nbr} max={dmax} avg={avg} dlt={dlt}, nettopo "
                          f"{n} {max(expected, default=0)} {mean:.6g} {spread:.6g}")
    elif nbr != n or dmax != expected[0]:  # pairs[0] = (n-1, 0): the farthest in a hierarchy
        raise Failure(f"{name}: atst says nbr={nbr} max={dmax}, nettopo {n} {expected[0]}")
    # A mapping onto it.
    grid = work / "grid.grf"
    grid.write_text(run([gmk_m2, 16, 16]).stdout)
    mapping = work / f"{name}.map"
    run([gmap, grid, tgt, mapping])
    lines = mapping.read_text().split("\n")
    count = int(lines[0])
    labels = [int(line.split()[1]) for line in lines[1:] if line.strip()]
    if count != 256 or len(labels) != 256 or not all(0 <= p < n for p in labels):
        raise Failure(f"{name}: the mapping holds {count} lines, labels outside 0..{n - 1}")
    print(f"ok:   scotch {name}: {form}, {n} PEs, max {dmax} ns, avg {avg}, mapped 256 processes "
          f"onto {len(set(labels))} PEs")


# ---------------------------------------------------------------------------
# hwloc synthetic


def cpu_objects(xml_text):
    """Counter of (type, depth) over CPU-side objects and NUMA nodes (by the
    depth of the object they hang from), PU and NUMA OS indexes in order."""
    root = ET.fromstring(xml_text)
    counts = collections.Counter()
    pus, numas = [], []

    def walk(obj, depth):
        t = obj.get("type")
        if t in ("Bridge", "PCIDev", "OSDev", "Misc"):
            return
        if t == "MemCache":  # nettopo's model leaves memory-side caches out
            for child in obj.findall("object"):
                walk(child, depth)
            return
        if t == "NUMANode":
            counts[(t, depth - 1)] += 1
            numas.append(int(obj.get("os_index", "-1")))
            child_depth = depth  # memory children nest below a NUMA node
        else:
            counts[(t, depth)] += 1
            if t == "PU":
                pus.append(int(obj.get("os_index")))
            child_depth = depth + 1
        for child in obj.findall("object"):
            walk(child, child_depth)

    walk(root.find("object"), 0)
    return counts, pus, numas


def normalise(description):
    description = re.sub(r" ?indexes=[^) ]*", "", description)
    description = description.replace("()", "").replace("( ", "(").replace(" )", ")")
    return description.replace("L1Cache", "L1dCache").strip()


def check_synthetic(name, source, q, is_file, ours=None):
    """`ours`: what nettopo wrote for `source` (a cluster's machine type), or
    None to ask nettopo-query -i SOURCE."""
    if ours is None:
        ours = run([q, "-i", source, "export", "--format", "synthetic"], check=False)
    hw_args = ["lstopo", "-i", source] + (["--disallowed"] if is_file else []) + ["--of", "synthetic"]
    hw = run(hw_args, check=False)
    hw_text = "\n".join(l for l in hw.stdout.splitlines() if not l.startswith("#")).strip()
    hw_crashed = hw.returncode < 0 or "Assertion" in hw.stderr
    if hw.returncode == 0 and hw_text:
        if ours.returncode != 0:
            raise Failure(f"{name}: hwloc writes '{hw_text}', nettopo refuses: {ours.stderr.strip()}")
        if normalise(ours.stdout) != normalise(hw_text):
            raise Failure(f"{name}: nettopo '{ours.stdout.strip()}', hwloc '{hw_text}'")
    elif not hw_crashed:
        if ours.returncode != 1 or "no hwloc synthetic description" not in ours.stderr:
            raise Failure(f"{name}: hwloc finds it asymmetric, nettopo exits {ours.returncode}: "
                          f"{ours.stdout.strip()} {ours.stderr.strip()}")
        print(f"ok:   synthetic {name}: refused as hwloc does")
        return
    if ours.returncode != 0:
        raise Failure(f"{name}: nettopo refuses ({ours.stderr.strip()}) what hwloc cannot check")
    line = ours.stdout.strip()
    src_xml = run(["lstopo", "-i", source] + (["--disallowed"] if is_file else []) + ["--of", "xml"]).stdout
    our_xml = run(["lstopo", "-i", line, "--of", "xml"]).stdout
    a, b = cpu_objects(src_xml), cpu_objects(our_xml)
    if a[0] != b[0]:
        raise Failure(f"{name}: objects per (type, depth) differ: source {sorted(a[0].items())}, "
                      f"written {sorted(b[0].items())}")
    if a[1] != b[1]:
        raise Failure(f"{name}: PU OS indexes differ: {a[1][:16]} vs {b[1][:16]}")
    if a[2] != b[2]:
        raise Failure(f"{name}: NUMA OS indexes differ: {a[2]} vs {b[2]}")
    again = run([q, "-i", line, "export", "--format", "synthetic"]).stdout.strip()
    if again != line:
        raise Failure(f"{name}: read back through -i it becomes '{again}'")
    print(f"ok:   synthetic {name}: {sum(a[0].values())} objects{' (hwloc crashes on it)' if hw_crashed else ''}")


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__)
        return 2
    bin_dir, root = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve()
    shared = Path(sys.argv[3]).resolve() if len(sys.argv) == 4 else root.parent / "shared" / "data"
    atst, gmk_m2 = shutil.which("atst"), shutil.which("gmk_m2")
    gmap = shutil.which("scotch_gmap") or shutil.which("gmap")
    if not (atst and gmk_m2 and gmap and shutil.which("lstopo")):
        print("skipped: atst, gmk_m2, scotch_gmap/gmap (Debian scotch) or lstopo missing")
        return 77
    q, gen, discover = bin_dir / "nettopo-query", bin_dir / "nettopo-gen", bin_dir / "nettopo-discover"
    failures = 0

    def attempt(f, *args):
        nonlocal failures
        try:
            f(*args)
        except Failure as e:
            print(f"FAIL: {e}")
            failures += 1

    with tempfile.TemporaryDirectory(prefix="nettopo-export-") as tmp:
        work = Path(tmp)
        clusters = {"small-fattree": root / "share/examples/small-fattree.topo"}
        forms = {"small-fattree": "tleaf"}
        for name, form, args in [
            ("fat-tree-k4-n2", "tleaf", ["fat-tree", "--k", "4", "--n", "2", "--machine", "pack:2 core:2 pu:2"]),
            ("fat-tree-k4-n3-4224", "tleaf", ["fat-tree", "--k", "4", "--n", "3", "--machine", "core:33 pu:2"]),
            ("xgft-2-4x3", "tleaf", ["fat-tree", "--xgft", "2;4,3;1,2", "--machine", "pack:2 core:3 pu:1",
                                     "--latency", "host-switch=120.6"]),
            ("torus-4x4", "deco", ["torus", "--dims", "4x4", "--machine", "core:3 pu:1", "--latency", "all=7.4"]),
            ("tree-3", "deco", ["tree", "--levels", "3", "--machine", "pack:2 l2:2 core:1 pu:2"]),
        ]:
            clusters[name] = work / f"{name}.xml"
            forms[name] = form
            run([gen, *args, "-q", "-o", clusters[name]])
        plafrim = shared / "clusters/plafrim"
        if plafrim.is_dir():
            clusters["plafrim"] = work / "plafrim.xml"
            forms["plafrim"] = "deco"
            run([discover, "-q", "--hosts", plafrim / "hwloc", "--ibnetdiscover",
                 plafrim / "ib-subnet-0.txt", "--name", "plafrim", "-o", clusters["plafrim"]])
        for name, archive in clusters.items():
            attempt(check_scotch, name, archive, q, work, atst, gmap, gmk_m2, forms[name])

        def too_big():
            big = work / "big.xml"
            run([gen, "torus", "--dims", "4x4x4", "--machine", "core:33 pu:2", "-q", "-o", big])
            out = work / "big.tgt"
            p = run([q, "-i", big, "export", "--format", "scotch", "-o", out], check=False)
            if p.returncode != 1 or out.exists() or "at most 4096 PEs" not in p.stderr:
                raise Failure(f"a 4224-PE torus: exit {p.returncode}, file written: {out.exists()}")
            print("ok:   scotch refuses a 4224-PE torus (no hierarchy), writes nothing")
        attempt(too_big)

        for xml in sorted((shared / "hwloc-xml").glob("*.xml")):
            attempt(check_synthetic, xml.name, xml, q, True)
        for s in ["pack:2 [numa] l3:1(size=32MB) core:4 pu:2", "[numa(memory=1GB)] core:3 pu:1",
                  "group:2 pack:2 [numa] [numa] core:2 pu:2", "pu:1"]:
            attempt(check_synthetic, f"'{s}'", s, q, False)

        def several_types():
            if "plafrim" not in clusters:
                return
            p = run([q, "-i", clusters["plafrim"], "export", "--format", "synthetic"], check=False)
            if p.returncode != 2 or "--machine" not in p.stderr:
                raise Failure(f"plafrim (17 types) without --machine: exit {p.returncode}")
            one = run([q, "-i", clusters["plafrim"], "export", "--format", "synthetic",
                       "--machine", "fourmi001"])
            if len(one.stdout.splitlines()) != 1:
                raise Failure("plafrim --machine fourmi001: not one line")
            # Against the host's own export, as hwloc reads it.
            check_synthetic("plafrim --machine fourmi001", plafrim / "hwloc/fourmi001.xml", q, True, one)
        attempt(several_types)

    if failures:
        print(f"{failures} check(s) failed")
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
