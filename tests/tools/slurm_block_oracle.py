#!/usr/bin/env python3
"""tools.slurm_block_oracle: export --format slurm-block(-yaml) against units found here.

A unit is the hosts cabled to exactly the same switches; Slurm's topology/
block gets one block per unit (share/doc/exports.md). The units are worked
out by this script, not by nettopo's code:
  * generated clusters (rail-optimized fabrics, fat-trees, an XGFT): from
    their tree as `export --format slurm` writes it (each leaf switch's
    Nodes=), read by this script;
  * real fabrics (every ibnetdiscover dump of SHARED/fabrics/): from the dump
    itself, read by ib_oracle.py's reader of ibnetdiscover output.
Then:
  * when the units are of one size S: the BlockName lines (topology.conf) and
    the blocks: list (topology.yaml, read by this script) are the units, in
    the natural order of their first hosts, and BlockSizes is S, 2S, 4S, ...
    up to the first that holds every block; read back (nettopo-discover
    --slurm) and written again, the same Block lines;
  * otherwise: exit 1, nothing written, and the message counts what this
    script counts ("N of the M units have S hosts; the other K: ..."), S the
    most common size (the larger of two as common). Then the real fabric
    without the hosts of the other units (removed from its topology.conf)
    gives the blocks of the units of size S, checked as above.

Usage: slurm_block_oracle.py BIN_DIR PROJECT_ROOT [SHARED_DATA]. Exit 77
(skipped) without the shared data.
"""
import collections
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import ib_oracle
from draw_graphviz import expand_hostlist

GENERATED = [
    "rail-optimized --units 4 --hosts-per-unit 4 --rails 2",
    "rail-optimized --units 3 --hosts-per-unit 5 --rails 4",
    "rail-optimized --units 9 --hosts-per-unit 2 --rails 8",
    "fat-tree --k 4 --n 3",
    "fat-tree --xgft 3;2,3,2;2,2,3",
]


# Some real fabrics are several subnets' worth of islands (osc-exporter-test*).
LOOSE = ["--allow-disconnected"]


class Failure(Exception):
    pass


def run(args, check=True):
    p = subprocess.run([str(a) for a in args], capture_output=True, text=True)
    if check and p.returncode != 0:
        raise Failure(f"{' '.join(map(str, args))} exited {p.returncode}: {p.stderr.strip()}")
    return p


def natural_key(name):
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", name)]


def units_of(host_switches):
    """{frozenset(switches): sorted hosts} -> list of host lists, natural order."""
    by = collections.defaultdict(list)
    for host, switches in host_switches.items():
        by[frozenset(switches)].append(host)
    units = [sorted(h, key=natural_key) for h in by.values()]
    return sorted(units, key=lambda u: natural_key(u[0]))


def tree_units(conf_text):
    """Host -> leaf switches, from a topology/tree topology.conf."""
    hs = collections.defaultdict(set)
    for line in conf_text.splitlines():
        m = re.match(r"SwitchName=(\S+) Nodes=(\S+)", line)
        if m:
            for h in expand_hostlist(m.group(2)):
                hs[h].add(m.group(1))
    return hs


def read_conf_blocks(text):
    blocks, sizes = [], None
    for line in text.splitlines():
        line = line.split("#")[0].strip()
        if not line:
            continue
        m = re.fullmatch(r"BlockName=(\S+) Nodes=(\S+)", line)
        if m:
            blocks.append((m.group(1), expand_hostlist(m.group(2))))
            continue
        m = re.fullmatch(r"BlockSizes=([0-9,]+)", line)
        if not m or sizes is not None:
            raise Failure(f"topology.conf line {line!r}")
        sizes = [int(x) for x in m.group(1).split(",")]
    return blocks, sizes


def read_yaml_blocks(text):
    """The blocks and block_sizes of the one topology written (this layout only)."""
    blocks, sizes, where = [], [], None
    for line in text.splitlines():
        body = line.split(" #")[0].rstrip()
        if not body or body.startswith("#") or body == "---":
            continue
        if body in ("    block_sizes:", "    blocks:"):
            where = body.strip()[:-1]
        elif where == "block_sizes" and re.fullmatch(r"      - \d+", body):
            sizes.append(int(body.split()[-1]))
        elif where == "blocks" and body.startswith("      - block: "):
            blocks.append([body.split(": ", 1)[1], None])
        elif where == "blocks" and body.startswith("        nodes: "):
            blocks[-1][1] = expand_hostlist(body.split(": ", 1)[1].strip('"'))
        elif body not in ("- topology: default", "  cluster_default: true", "  block:"):
            raise Failure(f"topology.yaml line {line!r}")
    return [tuple(b) for b in blocks], sizes


def block_lines(text):
    return [re.sub(r" #.*", "", line) for line in text.splitlines() if line.startswith("Block")]


def check_blocks(bin_dir, archive, units, work, name):
    """The blocks of ARCHIVE are UNITS (all of one size); round trip."""
    size = len(units[0])
    conf = work / f"{name}.block.conf"
    yaml = work / f"{name}.block.yaml"
    run([f"{bin_dir}/nettopo-query", "-i", archive, *LOOSE, "export", "--format", "slurm-block",
         "-o", conf])
    run([f"{bin_dir}/nettopo-query", "-i", archive, *LOOSE, "export", "--format",
         "slurm-block-yaml", "-o", yaml])
    want_sizes = []
    k = 1
    while True:
        want_sizes.append(k * size)
        if k >= len(units):
            break
        k *= 2
    for what, (blocks, sizes) in (("conf", read_conf_blocks(conf.read_text())),
                                  ("yaml", read_yaml_blocks(yaml.read_text()))):
        names = [b for b, _ in blocks]
        if names != [f"b{i + 1}" for i in range(len(units))]:
            raise Failure(f"{what}: block names {names[:4]}...")
        got = [sorted(h, key=natural_key) for _, h in blocks]
        if got != units:
            raise Failure(f"{what}: blocks {got[:2]}... for units {units[:2]}...")
        if sizes != want_sizes:
            raise Failure(f"{what}: BlockSizes {sizes} for {want_sizes}")
    for source in (conf, yaml):
        back = work / f"{source.name}.back.xml"
        run([f"{bin_dir}/nettopo-discover", "-q", "--slurm", source, "--default-machine", "pu:1",
             *LOOSE, "-o", back])
        again = run([f"{bin_dir}/nettopo-query", "-i", back, *LOOSE, "export", "--format",
                     "slurm-block"]).stdout
        if block_lines(again) != block_lines(conf.read_text()):
            raise Failure(f"{source.name} read back and written again differs")
    return f"{len(units)} blocks of {size}, BlockSizes={','.join(map(str, want_sizes))}"


def common_size(units):
    count = collections.Counter(len(u) for u in units)
    return max(count, key=lambda s: (count[s], s))


def check_real(bin_dir, dump, work):
    d = ib_oracle.read_dump(str(dump))
    hosts, switches, links, _ = ib_oracle.fabric(d)
    hs = {h: set() for h in hosts}
    for key in links:
        a, b = tuple(key)
        if a in hosts and b in switches:
            hs[a].add(b)
        if b in hosts and a in switches:
            hs[b].add(a)
    if not hs:
        return "no host: no block"
    units = units_of(hs)
    archive = work / f"{dump.stem}.xml"
    run([f"{bin_dir}/nettopo-discover", "-q", "--ibnetdiscover", dump, "--default-machine",
         "pu:1", "--allow-disconnected", "-o", archive])
    size = common_size(units)
    same = [u for u in units if len(u) == size]
    if len(same) == len(units):
        return check_blocks(bin_dir, archive, units, work, dump.stem)
    out = work / f"{dump.stem}.refused.conf"
    p = run([f"{bin_dir}/nettopo-query", "-i", archive, *LOOSE, "export", "--format",
             "slurm-block", "-o", out], check=False)
    verb = "has" if len(same) == 1 else "have"
    want = (f"{len(same)} of the {len(units)} units {verb} {size} host{'s' * (size != 1)}; "
            f"the other {len(units) - len(same)}: ")
    if p.returncode != 1 or out.exists() or want not in p.stderr:
        raise Failure(f"expected exit 1, no file and {want!r}; got {p.returncode}: "
                      f"{p.stderr.strip()}")
    # Without the other units' hosts: the blocks of the units of size S.
    odd = {h for u in units if len(u) != size for h in u}
    refused = f"refused ({len(units) - len(same)} of {len(units)} units not of {size} hosts)"
    p = run([f"{bin_dir}/nettopo-query", "-i", archive, *LOOSE, "export", "--format", "slurm"],
            check=False)
    if p.returncode != 0:  # a switch leading to no host: no tree to trim
        return f"{refused}; no topology/tree to trim ({p.stderr.strip()[-60:]})"
    tree = p.stdout
    kept_lines, dropped = [], set()
    for line in tree.splitlines():
        m = re.match(r"SwitchName=(\S+) Nodes=(\S+)", line)
        if m:
            left = [h for h in expand_hostlist(m.group(2)) if h not in odd]
            if not left:
                dropped.add(m.group(1))
                continue
            line = f"SwitchName={m.group(1)} Nodes={','.join(left)}"
        m = re.match(r"SwitchName=(\S+) Switches=(\S+)(.*)", line)
        if m:
            below = [s for s in expand_hostlist(m.group(2)) if s not in dropped]
            line = f"SwitchName={m.group(1)}" + (f" Switches={','.join(below)}" if below else "")
        kept_lines.append(line)
    trimmed = work / f"{dump.stem}.trimmed.conf"
    trimmed.write_text("\n".join(kept_lines) + "\n")
    trimmed_archive = work / f"{dump.stem}.trimmed.xml"
    run([f"{bin_dir}/nettopo-discover", "-q", "--slurm", trimmed, "--default-machine", "pu:1",
         *LOOSE, "-o", trimmed_archive])
    result = check_blocks(bin_dir, trimmed_archive, same, work, dump.stem + ".trimmed")
    return f"{refused}; without them: {result}"


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__.strip().splitlines()[-2], file=sys.stderr)
        return 2
    bin_dir, root = sys.argv[1], Path(sys.argv[2]).resolve()
    data = Path(sys.argv[3]) if len(sys.argv) == 4 else root.parent / "shared" / "data"
    fabrics = sorted((data / "fabrics").glob("*.ibnetdiscover"))
    if not fabrics:
        print(f"skipped: no {data}/fabrics")
        return 77
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for i, spec in enumerate(GENERATED):
            archive = work / f"gen{i}.xml"
            try:
                run([f"{bin_dir}/nettopo-gen", *spec.split(), "--machine", "pu:1", "-q", "-o",
                     archive])
                tree = run([f"{bin_dir}/nettopo-query", "-i", archive, "export", "--format",
                            "slurm"]).stdout
                print(f"ok   {spec}: "
                      f"{check_blocks(bin_dir, archive, units_of(tree_units(tree)), work, f'gen{i}')}")
            except Failure as e:
                failures += 1
                print(f"FAIL {spec}: {e}")
        for dump in fabrics:
            try:
                print(f"ok   {dump.name}: {check_real(bin_dir, dump, work)}")
            except Failure as e:
                failures += 1
                print(f"FAIL {dump.name}: {e}")
    print("all checks passed" if not failures else f"{failures} check(s) failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
