#!/usr/bin/env python3
"""nettopo's view of real machines against the hwloc tools themselves.

For every real export of ../shared/data/hwloc-xml/ and a seeded sample of the
per-host exports of ../shared/data/clusters/*/hwloc/ that hwloc loads:

  * show --no-io: the CPU-side objects, in order and nesting, with their
    names (lstopo's: L1d for a data cache, L2 for a unified one) and logical
    indexes, and the NUMA nodes' logical indexes, equal those of `lstopo -v`
    (one object a line, indented by nesting; show's I/O side is held to
    lstopo by devices_oracle.py);
  * ancestor: for PU pairs (all of them on small machines, a seeded sample
    on big ones) the type, level name, logical index and depth equal those of
    the deepest object common to both PUs' chains in
    `hwloc-info --ancestors`, depths as `hwloc-info` lists the levels;
  * --node-level numa: the nodes are the PUs local to each NUMA node
    (`hwloc-calc numa:K --intersect pu`), CPU-less NUMA nodes left out, NUMA
    nodes of one locality one node, a PU local to nested localities in the
    smallest, and the cores of PUs local to no NUMA node (an export with
    offline memory) nodes of their own, which the summary reports
    (share/doc/model.md).

The hwloc tools get --disallowed: nettopo models the whole machine, an
export restricted to a job's cpuset (hagrid-restricted.xml) included. An
export nettopo refuses is a failure.

Usage: hwloc_oracle.py BIN_DIR PROJECT_ROOT [SHARED_DATA]. Exit 77 (skipped)
without the hwloc tools or the shared data.
"""
import json
import random
import re
import subprocess
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, str(Path(__file__).parent))
from real_exports import check_exports, oracle_inputs, real_exports, sampled  # noqa: E402

SAMPLE_PER_CLUSTER = 8  # cluster exports checked per cluster (seeded)
ALL_PAIRS_UP_TO = 40  # PUs; bigger machines get a sample of pairs
SAMPLED_PAIRS = sampled(1500)


class Failure(Exception):
    pass


def run(args, stdin=None, check=True):
    p = subprocess.run(args, input=stdin, capture_output=True, text=True)
    if check and p.returncode != 0:
        raise Failure(f"{' '.join(args)} exited {p.returncode}: {p.stderr.strip()}")
    return p


def hwloc(tool, xml, *args):
    return run([tool, "-i", str(xml), "--disallowed", *args]).stdout


# hwloc's names of the CPU-side types -> nettopo's.
def nettopo_type(hwloc_name):
    m = re.fullmatch(r"L(\d)(d|i|)Cache", hwloc_name)
    if m:
        return f"L{m.group(1)}" + ("i" if m.group(2) == "i" else "")
    if re.fullmatch(r"Group\d+", hwloc_name):
        return "Group"
    return hwloc_name


def level_name(hwloc_name):  # as ancestor prints a level: Group1, L2, L1i
    return hwloc_name if hwloc_name.startswith("Group") else nettopo_type(hwloc_name)


def show_name(hwloc_name):  # as show and lstopo print an object: L1d (data), L2 (unified)
    m = re.fullmatch(r"L(\d)(d|i|)Cache", hwloc_name)
    return f"L{m.group(1)}{m.group(2)}" if m else level_name(hwloc_name)


def hwloc_levels(xml):
    """{level name: depth} and the number of NUMA nodes, from hwloc-info."""
    depths, numa = {}, 0
    for line in hwloc("hwloc-info", xml).splitlines():
        m = re.match(r"\s*depth (\d+):\s+(\d+) (\S+) \(type", line)
        if m:
            name = m.group(3)
            if name in depths:
                raise Failure(f"hwloc-info lists two levels named {name}")
            depths[name] = int(m.group(1))
        m = re.match(r"Special depth -3:\s+(\d+) NUMANode", line)
        if m:
            numa = int(m.group(1))
    return depths, numa


def lstopo_objects(xml):
    """[(indent, label)] of lstopo -v: CPU-side objects and NUMA nodes. nettopo
    shows a NUMA node below a memory-side cache at the cache's place."""
    out = []
    skip_below = None  # indentation of a Misc object, whose lines are skipped
    memcaches = []  # indentations of the memory-side caches above the line
    for line in hwloc("lstopo-no-graphics", xml, "--no-io", "-v").splitlines():
        m = re.match(r"( *)([A-Z][A-Za-z0-9]*)(\([^)]*\))?( L#(\d+))?( \(|$)", line)
        if not m:
            continue
        indent, name, index = len(m.group(1)), m.group(2), m.group(5)
        if skip_below is not None and indent > skip_below:
            continue
        skip_below = None
        while memcaches and indent <= memcaches[-1]:
            memcaches.pop()
        if name == "Misc":
            skip_below = indent
            continue
        if name == "MemCache":
            memcaches.append(indent)
            continue
        indent -= 2 * len(memcaches)
        if name == "Machine":
            out.append((indent, "Machine"))
        elif name == "NUMANode":
            out.append((indent, f"NUMANode L#{index}"))
        else:
            out.append((indent, f"{show_name(name)} L#{index}"))
    return out


def nettopo_show_objects(bin_dir, xml):
    """[(indent, label)] of the first machine type's tree in nettopo-query show."""
    p = run([f"{bin_dir}/nettopo-query", "-i", str(xml), "show", "--no-io"], check=False)
    if p.returncode != 0:
        return None, p.stderr.strip()
    lines = p.stdout.splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith("Machine type 0:"))
    out = []
    for line in lines[start + 1:]:
        if not line.startswith("  ") or line.startswith("  CPU kind #"):  # the tree's end
            break
        indent = len(line) - len(line.lstrip(" ")) - 2  # show indents the tree by 2 more
        label = line.strip().split("  [node")[0]
        label = re.sub(r" \([^)]*\)$", "", label)  # (P#.. size)
        out.append((indent, label))
    return out, ""


def hwloc_chains(xml, pus):
    """Per PU, its ancestors from itself up to the Machine, as (name, L#)."""
    text = hwloc("hwloc-info", xml, "-s", "--ancestors", *[f"pu:{i}" for i in range(pus)])
    chains = []
    for line in text.splitlines():
        name, index = line.rsplit(":", 1)
        if name == "PU":
            chains.append([])
        chains[-1].append((name, int(index)))
    if len(chains) != pus:
        raise Failure(f"hwloc-info gave {len(chains)} ancestor chains for {pus} PUs")
    return chains


def pairs_for(pus, rng):
    if pus <= ALL_PAIRS_UP_TO:
        return [(a, b) for a in range(pus) for b in range(pus)]
    pairs = [(i, i) for i in range(pus)] + [(i, i + 1) for i in range(pus - 1)]
    pairs += [(rng.randrange(pus), rng.randrange(pus)) for _ in range(SAMPLED_PAIRS)]
    return pairs


def check_ancestors(bin_dir, xml, depths, chains, rng):
    pairs = pairs_for(len(chains), rng)
    stdin = "".join(f"{a} {b}\n" for a, b in pairs)
    query = [f"{bin_dir}/nettopo-query", "-i", str(xml)]
    as_json = run(query + ["--json", "ancestor", "--pairs", "-"], stdin).stdout.splitlines()
    as_text = run(query + ["ancestor", "--pairs", "-"], stdin).stdout.splitlines()
    if len(as_json) != len(pairs) or len(as_text) != len(pairs):
        raise Failure("nettopo-query ancestor answered a different number of pairs")
    for (a, b), j, t in zip(pairs, as_json, as_text):
        in_b = set(chains[b])
        name, index = next(x for x in chains[a] if x in in_b)
        want = {"type": nettopo_type(name), "logical_index": index, "depth": depths[name]}
        got = json.loads(j)["ancestor"]
        got = {k: got[k] for k in want}
        want_text = "Machine" if name == "Machine" else f"{level_name(name)} L#{index}"
        if got != want or t != want_text:
            raise Failure(f"ancestor {a} {b}: nettopo {got} '{t}', hwloc {name} L#{index} "
                          f"depth {depths[name]}")
    return len(pairs)


def numa_nodes_expected(xml, numa, chains):
    """The nodes at the NUMA level by model.md's rule, from hwloc-calc, and
    how many PUs are local to no NUMA node (their cores are nodes)."""
    localities = set()
    for k in range(numa):
        text = hwloc("hwloc-calc", xml, f"numa:{k}", "--intersect", "pu").strip()
        if text:
            localities.add(frozenset(int(x) for x in text.split(",")))
    node_of = {}
    for loc in sorted(localities, key=len, reverse=True):  # smaller ones override
        for pu in loc:
            node_of[pu] = loc
    outside = 0
    for pu, chain in enumerate(chains):
        if pu not in node_of:
            outside += 1
            node_of[pu] = next((x for x in chain if x[0] == "Core"), chain[0])
    nodes = {}
    for pu in sorted(node_of):
        nodes.setdefault(node_of[pu], []).append(pu)
    for pus in nodes.values():
        if pus != list(range(pus[0], pus[-1] + 1)):
            return None, outside  # not one PU range: nettopo refuses the NUMA level
    return sorted(nodes.values()), outside


def check_numa_nodes(bin_dir, xml, numa, chains):
    want, outside = numa_nodes_expected(xml, numa, chains)
    query = [f"{bin_dir}/nettopo-query", "-i", str(xml), "--node-level", "numa"]
    p = run(query + ["summary"], check=False)
    if want is None:
        if p.returncode != 1 or "NUMA" not in p.stderr:
            raise Failure(f"NUMA localities not PU ranges, nettopo said: {p.stdout}{p.stderr}")
        return "refused"
    if p.returncode != 0:
        raise Failure(f"--node-level numa: {p.stderr.strip()}")
    report = f"; {outside} of {len(chains)} PEs in no NUMANode"
    if (report in p.stdout) != (outside > 0):
        raise Failure(f"{outside} PUs local to no NUMA node, the summary says: {p.stdout}")
    count = json.loads(run(query + ["--json", "num-nodes"]).stdout)["num_nodes"]
    got = [json.loads(run(query + ["--json", "pes-of-node", str(n)]).stdout)["pes"]
           for n in range(count)]
    if got != want:
        raise Failure(f"NUMA-level nodes: nettopo {got}, hwloc's localities {want}")
    return f"{count} nodes" + (f" ({outside} PUs local to none)" if outside else "")


def check_file(bin_dir, xml, rng):
    p = run(["hwloc-info", "-i", str(xml), "--disallowed"], check=False)
    if p.returncode != 0:
        return "skipped: hwloc cannot load it"
    depths, numa = hwloc_levels(xml)
    ours, error = nettopo_show_objects(bin_dir, xml)
    if ours is None:
        raise Failure(f"nettopo refuses it: {error}")
    theirs = lstopo_objects(xml)
    if ours != theirs:
        for i, (o, t) in enumerate(zip(ours + [None] * len(theirs), theirs + [None] * len(ours))):
            if o != t:
                raise Failure(f"show line {i}: nettopo {o}, lstopo -v {t}")
    chains = hwloc_chains(xml, int(hwloc("hwloc-calc", xml, "all", "-N", "pu")))
    pairs = check_ancestors(bin_dir, xml, depths, chains, rng)
    nodes = check_numa_nodes(bin_dir, xml, numa, chains)
    return f"ok: {len(ours)} objects, {pairs} pairs, {numa} NUMA nodes -> {nodes}"


def main():
    inputs = oracle_inputs(__doc__.strip().splitlines()[-2],
                           ("hwloc-info", "hwloc-calc", "lstopo-no-graphics"))
    if isinstance(inputs, int):
        return inputs
    bin_dir, data = inputs
    rng = random.Random(13)
    files = real_exports(data, rng, SAMPLE_PER_CLUSTER)
    return check_exports(files, data, lambda xml: check_file(bin_dir, xml, rng), Failure,
                         "agree with hwloc")


if __name__ == "__main__":
    sys.exit(main())
