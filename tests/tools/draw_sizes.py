#!/usr/bin/env python3
"""tools.draw_sizes: `nettopo-query draw` of large fabrics renders to a PNG a
screen can pan (issue 27 part 6): at most 4,000 px each way.

Rendered by `draw -o FILE.png` (Graphviz's dot, 96 dpi), measured from the PNG
header (bytes 16-23: width and height, big-endian), each with dot silent (a
drawing too large for cairo is scaled down with a warning, which is a
failure too):
  - every fabric of SHARED_DATA/fabrics/, assembled by nettopo-discover
    --ibnetdiscover --default-machine pu:1 --allow-disconnected (a dump with
    no host cannot be assembled: its message must say so);
  - nettopo-gen rail-optimized --units 4 (128 hosts, 32 leaves) and --units 32
    (1,024 hosts on 256 leaves, 8 rails), and a 1,024-host job on it
    (--nodes n[0-1023]: the job highlighted);
  - the real clusters plafrim and avakas of SHARED_DATA/clusters/ (with
    their hosts' exports), and a 17-host job on plafrim (17 machine types:
    one legend line each).
Exit 77 (skipped) when Graphviz's dot is not installed; it is in the README's
install line, so CI runs it.

Usage: draw_sizes.py BIN_DIR PROJECT_ROOT SHARED_DATA
"""
import glob
import os
import shutil
import struct
import subprocess
import sys
import tempfile

LIMIT = 4000  # px, width and height

failures = 0


def fail(message):
    global failures
    failures += 1
    print("FAIL:", message)


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if len(head) < 24 or head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        raise ValueError(f"{path} is not a PNG")
    return struct.unpack(">II", head[16:24])


def check(bin_dir, name, archive, args, work):
    png = os.path.join(work, name + ".png")
    p = run([os.path.join(bin_dir, "nettopo-query"), "-i", archive, *args, "draw", "-o", png])
    if p.returncode != 0 or p.stderr.strip():
        fail(f"{name}: draw exit {p.returncode}: {p.stderr.strip()[:300]}")
        return
    w, h = png_size(png)
    if w > LIMIT or h > LIMIT:
        fail(f"{name}: {w} x {h} px, more than {LIMIT} px")
    else:
        print(f"ok:   {name}: {w} x {h} px")


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    bin_dir, root, shared = (os.path.abspath(a) for a in sys.argv[1:])
    if not shutil.which("dot"):
        print("skip: Graphviz's dot is not installed (Debian graphviz): no PNG to measure")
        return 77
    os.chdir(root)
    os.environ.pop("NETTOPO_ARCHIVE", None)
    discover = os.path.join(bin_dir, "nettopo-discover")
    work = tempfile.mkdtemp(prefix="nettopo-draw-sizes-")
    try:
        fabrics = sorted(glob.glob(os.path.join(shared, "fabrics", "*.ibnetdiscover")))
        if not fabrics:
            fail(f"no fabric in {shared}/fabrics")
        for fabric in fabrics:
            name = os.path.basename(fabric)[: -len(".ibnetdiscover")]
            archive = os.path.join(work, name + ".xml")
            p = run([discover, "-q", "--ibnetdiscover", fabric, "--default-machine", "pu:1",
                     "--allow-disconnected", "--name", name, "-o", archive])
            if p.returncode != 0:
                if "no machine to assemble" in p.stderr:  # a dump of switches only
                    print(f"ok:   {name}: no host, nothing to draw ({p.stderr.strip()})")
                else:
                    fail(f"{name}: nettopo-discover exit {p.returncode}: {p.stderr.strip()}")
                continue
            check(bin_dir, name, archive, [], work)

        gen = os.path.join(bin_dir, "nettopo-gen")
        for units in (4, 32):
            archive = os.path.join(work, f"rail-{units}.xml")
            p = run([gen, "rail-optimized", "--units", str(units), "-q", "-o", archive])
            if p.returncode != 0:
                fail(f"nettopo-gen rail-optimized --units {units}: {p.stderr.strip()}")
                continue
            check(bin_dir, f"rail-optimized-{units}-units", archive, [], work)
            if units == 32:
                check(bin_dir, "rail-optimized-32-units-job-1024-hosts", archive,
                      ["--nodes", "n[0-1023]"], work)

        for cluster, job in (("plafrim", "fourmi[001-012],mirage[001-003],bonobo[001-002]"),
                             ("avakas", None)):
            folder = os.path.join(shared, "clusters", cluster)
            if not os.path.isdir(folder):
                print(f"skip: {cluster} (no {folder})")
                continue
            archive = os.path.join(work, cluster + ".xml")
            p = run([discover, "-q", "--hosts", os.path.join(folder, "hwloc"), "--ibnetdiscover",
                     os.path.join(folder, "ib-subnet-0.txt"), "--name", cluster, "-o", archive])
            if p.returncode != 0:
                fail(f"{cluster}: nettopo-discover exit {p.returncode}: {p.stderr.strip()}")
                continue
            check(bin_dir, cluster, archive, [], work)
            if job:
                check(bin_dir, f"{cluster}-job", archive, ["--nodes", job], work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{failures} failed" if failures else "all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
