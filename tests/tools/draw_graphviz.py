#!/usr/bin/env python3
"""tools.draw_graphviz: `nettopo-query draw` output that Graphviz renders, and
highlights that are exactly what `nettopo-query path` says.

1. Graphviz (`dot -Tsvg`, which follows the graph's layout=neato when the
   drawing is placed at a family's coordinates) renders every drawing with exit
   status 0 and no warning: a "nodes touch" warning means Graphviz fell back to
   straight edges, drawing a torus' wrap-around links over the lines they close.
   Placed drawings keep their positions: the SVG puts each node where `pos` says.
2. --highlight: the DOT is parsed here (collapsed boxes expanded to their
   machines, or switches, by an independent hostlist reader) and its coloured
   machines, switches and links are compared with an oracle built from other
   sub-commands: `path A B` for a path; for a hostlist, `pes-of-machine` of
   each machine and the union of `path FIRST OTHER` from the first machine to
   each other one. A box is coloured when a member is (a box of machines only
   when all are: the writer splits them), an edge into a box when one of its
   links is. Everything not coloured must be grey.

Graphviz (Debian `graphviz`) is required: it is in the README's install line.
Usage: draw_graphviz.py BIN_DIR PROJECT_ROOT
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

LIT = "#d7191c"
DIM_LINE = "#bdbdbd"

QUOTED = r'"(?:[^"\\]|\\.)*"'
NODE = re.compile(r"^\s+(" + QUOTED + r") \[(.*)\];$")
EDGE = re.compile(r"^\s+(" + QUOTED + r") -- (" + QUOTED + r")(?: \[(.*)\])?;$")

failures = 0


def fail(message):
    global failures
    failures += 1
    print("FAIL:", message)


def unquote(s):
    out, i = [], 1
    while i < len(s) - 1:
        if s[i] == "\\":
            i += 1
            out.append("\n" if s[i] == "n" else s[i])
        else:
            out.append(s[i])
        i += 1
    return "".join(out)


def attribute(attrs, name):
    m = re.search(r"(?:^|, )" + name + r"=(" + QUOTED + r"|[^,\]]+)", attrs or "")
    if not m:
        return None
    v = m.group(1)
    return unquote(v) if v.startswith('"') else v


def expand_hostlist(text):
    """Slurm hostlists as the labels of boxes write them: prefix[a-b,c]suffix, comma-joined."""
    names, depth, part = [], 0, ""
    parts = []
    for ch in text:  # split on commas outside brackets
        if ch == "," and depth == 0:
            parts.append(part)
            part = ""
            continue
        depth += ch == "["
        depth -= ch == "]"
        part += ch
    parts.append(part)
    for p in parts:
        m = re.match(r"^(.*?)\[([^\]]*)\](.*)$", p)
        if not m:
            names.append(p)
            continue
        for r in m.group(2).split(","):
            lo, _, hi = r.partition("-")
            hi = hi or lo
            for k in range(int(lo), int(hi) + 1):
                names.append(f"{m.group(1)}{str(k).zfill(len(lo))}{m.group(3)}")
    return names


def parse(dot):
    """Nodes {id: attrs} but the legend (shape=plain), and edges [(a, b, attrs)]."""
    nodes, edges = {}, []
    for line in dot.splitlines():
        m = EDGE.match(line)
        if m:
            edges.append((unquote(m.group(1)), unquote(m.group(2)), m.group(3) or ""))
            continue
        m = NODE.match(line)
        if m and not line.startswith("  graph [") and not line.startswith("  node [") \
                and not line.startswith("  edge [") and not m.group(2).startswith("shape=plain"):
            nodes[unquote(m.group(1))] = m.group(2)
    return nodes, edges


def box_members(attrs):
    """A box's machines (box3d: its label's second line) or switches (its tooltip)."""
    if "peripheries=2" in attrs:
        text = attribute(attrs, "tooltip")
        return expand_hostlist(text) if "[" in text or " " not in text else text.split(" ")
    return expand_hostlist(attribute(attrs, "label").split("\n")[1])


def highlighted(dot):
    """What is drawn in colour: node ids, and edges as frozensets of two node ids;
    and which node each vertex name is drawn as."""
    nodes, edges = parse(dot)
    node_of, lit_nodes, lit_edges = {}, set(), set()
    for name, attrs in nodes.items():
        colour = attribute(attrs, "color")
        if colour not in (LIT, DIM_LINE):
            fail(f"node {name} is neither highlighted nor grey: {attrs}")
        boxed = attribute(attrs, "shape") == "box3d" or "peripheries=2" in attrs
        for member in (box_members(attrs) if boxed else [name]):
            node_of[member] = name
        if colour == LIT:
            lit_nodes.add(name)
    for a, b, attrs in edges:
        colour = attribute(attrs, "color")
        if colour not in (LIT, DIM_LINE):
            fail(f"edge {a} -- {b} is neither highlighted nor grey: {attrs}")
        if colour == LIT:
            lit_edges.add(frozenset((a, b)))
    return lit_nodes, lit_edges, node_of, nodes


def compare(title, dot, want):
    """The drawing's colours against the oracle's vertices and links (names)."""
    lit_nodes, lit_edges, node_of, nodes = highlighted(dot)
    vertices, links = want
    missing = sorted(v for v in vertices if v not in node_of)
    if missing:
        fail(f"{title}: {missing[:5]} not drawn")
        return
    want_nodes = {node_of[v] for v in vertices}
    want_edges = {frozenset((node_of[a], node_of[b])) for a, b in map(tuple, links)
                  if node_of[a] != node_of[b]}
    # A box of machines holds highlighted machines only, or none.
    for name, attrs in nodes.items():
        if attribute(attrs, "shape") == "box3d" and name in lit_nodes:
            stray = [m for m in box_members(attrs) if m not in vertices]
            if stray:
                fail(f"{title}: box {name} is highlighted but holds {stray[:5]}")
    if lit_nodes != want_nodes or lit_edges != want_edges:
        fail(f"{title}: coloured {sorted(lit_nodes ^ want_nodes)} (nodes differing), "
             f"{sorted(sorted(e) for e in lit_edges ^ want_edges)} (edges differing)")
    else:
        print(f"ok:   {title}: {len(vertices)} vertices, {len(links)} links "
              f"({len(want_nodes)} nodes, {len(want_edges)} edges drawn)")


class Tools:
    def __init__(self, bin_dir, work):
        self.bin, self.work = bin_dir, work

    def run(self, tool, *args, check=True):
        p = subprocess.run([os.path.join(self.bin, tool), *args], capture_output=True, text=True)
        if check and p.returncode != 0:
            raise RuntimeError(f"{tool} {' '.join(args)}: exit {p.returncode}: {p.stderr}")
        return p

    def query(self, archive, *args):
        return self.run("nettopo-query", "-i", archive, *args).stdout

    def path(self, archive, a, b):
        return self.query(archive, "path", str(a), str(b)).split()


def expected_path(t, archive, a, b):
    path = t.path(archive, a, b)
    return set(path), {frozenset(p) for p in zip(path, path[1:])}


def expected_allocation(t, archive, names):
    first_pe = [t.query(archive, "pes-of-machine", n).split()[0] for n in names]
    vertices, links = set(names), set()
    for pe in first_pe[1:]:
        v, l = expected_path(t, archive, first_pe[0], pe)
        vertices |= v
        links |= l
    return vertices, links


def check_render(name, dot, work):
    """dot -Tsvg renders it, silently; placed nodes stay where pos says."""
    path = os.path.join(work, name + ".dot")
    with open(path, "w") as f:
        f.write(dot)
    p = subprocess.run(["dot", "-Tsvg", path], capture_output=True, text=True)
    if p.returncode != 0 or p.stderr.strip():
        fail(f"{name}: dot -Tsvg exit {p.returncode}: {p.stderr.strip()[:300]}")
        return
    nodes, _ = parse(dot)
    placed = {n: attribute(a, "pos") for n, a in nodes.items() if attribute(a, "pos")}
    if not placed:
        print(f"ok:   {name} (layered)")
        return
    if len(placed) != len(nodes):
        fail(f"{name}: {len(nodes) - len(placed)} nodes have no position")
    # SVG: <title>ID</title> then the node's shape centred at (cx, cy) or a
    # polygon; take the text's x,y (centred at the node) and compare the
    # differences between nodes with those of pos (SVG shifts the whole drawing).
    centre = {}
    for m in re.finditer(r"<title>(.*?)</title>\s*<(?:ellipse|polygon)[^>]*?"
                         r"(?:cx=\"([-\d.]+)\" cy=\"([-\d.]+)\"|points=\"([^\"]+)\")", p.stdout):
        title = m.group(1).replace("&#45;", "-").replace("&quot;", '"').replace("&amp;", "&")
        if m.group(2):
            centre[title] = (float(m.group(2)), float(m.group(3)))
        else:
            pts = [tuple(map(float, q.split(","))) for q in m.group(4).split()]
            xs, ys = [q[0] for q in pts], [q[1] for q in pts]
            centre[title] = ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
    ref = next(iter(placed))
    if ref not in centre:
        fail(f"{name}: {ref} not found in the SVG")
        return
    rx, ry = (float(v) for v in placed[ref].rstrip("!").split(","))
    worst = 0.0
    for n, pos in placed.items():
        if n not in centre or attribute(nodes[n], "shape") == "box3d":
            continue  # box3d's polygon is offset by its depth
        x, y = (float(v) for v in pos.rstrip("!").split(","))
        want = ((x - rx) * 72, -(y - ry) * 72)  # inches to points, SVG y downwards
        got = (centre[n][0] - centre[ref][0], centre[n][1] - centre[ref][1])
        worst = max(worst, abs(want[0] - got[0]), abs(want[1] - got[1]))
    if worst > 2.5:
        fail(f"{name}: nodes moved up to {worst:.1f} pt from their pos")
    else:
        print(f"ok:   {name} ({len(placed)} nodes where pos says)")


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    bin_dir, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    os.chdir(root)
    os.environ.pop("NETTOPO_ARCHIVE", None)
    if not shutil.which("dot"):
        fail("Graphviz's dot is not installed (Debian graphviz, in the README's install line)")
        return 1
    work = tempfile.mkdtemp(prefix="nettopo-draw-")
    try:
        t = Tools(bin_dir, work)
        archives = {}
        for name, spec in [
            ("torus-8x8", ["torus", "--dims", "8x8"]),
            ("torus-8", ["torus", "--dims", "8"]),
            ("torus-4x4x3", ["torus", "--dims", "4x4x3"]),
            ("mesh-4x3-c3", ["mesh", "--dims", "4x3", "--concentration", "3"]),
            ("torus-3x3-c8", ["torus", "--dims", "3x3", "--concentration", "8"]),
            ("torus-4x4-c16", ["torus", "--dims", "4x4", "--concentration", "16"]),
            ("mesh-3x2x2x2", ["mesh", "--dims", "3x2x2x2"]),
            ("hypercube-5", ["hypercube", "--dim", "5"]),
            ("hypercube-3-c2", ["hypercube", "--dim", "3", "--concentration", "2"]),
            ("hypercube-4-c3", ["hypercube", "--dim", "4", "--concentration", "3"]),
            ("torus-3x3x2-c2", ["torus", "--dims", "3x3x2", "--concentration", "2"]),
            ("ring-8-c2", ["ring", "--machines", "8", "--concentration", "2"]),
            ("complete-6", ["complete", "--machines", "6"]),
            ("dragonfly-p2", ["dragonfly", "--p", "2"]),
            ("fat-tree-4-2", ["fat-tree", "--k", "4", "--n", "2"]),
            ("slimfly-3", ["slimfly", "--q", "3"]),
            ("rail-2x4x2", ["rail-optimized", "--units", "2", "--hosts-per-unit", "4",
                            "--rails", "2"]),
            ("rail-32", ["rail-optimized", "--units", "32"]),
        ]:
            archives[name] = os.path.join(work, name + ".xml")
            t.run("nettopo-gen", *spec, "--machine", "pu:1", "-q", "-o", archives[name])
        archives["small-fattree"] = "share/examples/small-fattree.topo"
        plafrim = "../shared/data/clusters/plafrim/ib-subnet-0.txt"
        if os.path.exists(plafrim):  # real: 125 hosts, 9 switches
            archives["plafrim"] = os.path.join(work, "plafrim.xml")
            t.run("nettopo-discover", "-q", "--ibnetdiscover", plafrim, "--default-machine",
                  "pu:1", "--name", "plafrim", "-o", archives["plafrim"])
        else:
            print("skip: plafrim (no ../shared/data)")

        # 1. Every drawing renders, placed ones where pos says.
        for name, archive in archives.items():
            check_render(name, t.query(archive, "draw"), work)

        # 2. Highlights against the oracle.
        cases = [
            ("small-fattree", ["--collapse", "2"], "path:0,100", ("path", 0, 100)),
            ("small-fattree", [], "path:node01,node16", ("path", 0, 480)),
            ("small-fattree", ["--collapse", "1"], "node[01-02,05]", None),
            ("small-fattree", [], "node[01-16]", None),
            ("small-fattree", ["--collapse", "2"], "node07", None),
            ("torus-8x8", [], "path:n0,n27", ("path", 0, 27)),
            ("torus-8x8", [], "path:63,0", ("path", 63, 0)),
            ("torus-8x8", [], "n[0-3,9,60]", None),
            ("torus-4x4x3", [], "path:n0,n42", ("path", 0, 42)),
            ("torus-4x4-c16", [], "n[0-3,200-201]", None),
            ("hypercube-5", [], "path:n0,n31", ("path", 0, 31)),
            ("dragonfly-p2", [], "path:n0,n71", ("path", 0, 71)),
            ("dragonfly-p2", ["--collapse", "1"], "n[0-1,17,40-44]", None),
            ("fat-tree-4-2", ["--collapse", "2"], "n[0-5]", None),
            # hosts cabled to several leaves, boxes of switches
            ("rail-2x4x2", ["--collapse", "1"], "n[0-1,5]", None),
            ("rail-2x4x2", [], "path:n0,n7", None),
            ("rail-32", [], "path:n0,n1023", None),
            ("rail-32", [], "n[0-40,1000]", None),
        ]
        if "plafrim" in archives:
            cases += [
                ("plafrim", ["--collapse", "4"], "fourmi[001-012],mirage[001-003]", None),
                ("plafrim", [], "path:bonobo001,mirabelle016", None),
            ]
        for name, options, spec, path in cases:
            archive = archives[name]
            dot = t.query(archive, "draw", *options, "--highlight", spec)
            if name != "dragonfly-p2":  # its spline routing takes 12 s a drawing: once above
                check_render(f"{name} --highlight {spec}", dot, work)
            if path is None and spec.startswith("path:"):
                a, b = spec[5:].split(",")
                path = ("path", *(t.query(archive, "pes-of-machine", n).split()[0] for n in (a, b)))
            if path:
                want = expected_path(t, archive, path[1], path[2])
            else:
                want = expected_allocation(t, archive, expand_hostlist(spec))
            compare(f"{name} {' '.join(options)} --highlight {spec}", dot, want)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{failures} failed" if failures else "all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
