"""What the oracle scripts that compare nettopo with the hwloc tools on real
exports share: their command line, their skip rule and the exports they read
(every file of SHARED_DATA/hwloc-xml/ and a seeded sample of the per-host
exports of SHARED_DATA/clusters/*/hwloc/, topology diffs left out)."""
import shutil
import sys
from pathlib import Path


def arguments(doc, tools):
    """(bin_dir, data) from BIN_DIR PROJECT_ROOT [SHARED_DATA], or the exit
    code to return: 2 on bad usage, 77 (skipped) without one of `tools` or
    without the shared data."""
    if len(sys.argv) not in (3, 4):
        print(doc.strip().splitlines()[-2], file=sys.stderr)
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


def export_files(data, rng, per_cluster):
    files = sorted((data / "hwloc-xml").glob("*.xml"))
    for cluster in sorted((data / "clusters").glob("*/hwloc")):
        exports = sorted(f for f in cluster.glob("*.xml") if not f.name.endswith(".diff.xml"))
        files += sorted(rng.sample(exports, min(per_cluster, len(exports))))
    return files


def check_exports(files, data, check, failure, against):
    """Runs check(xml) on every export: a line of text starting with "ok"
    when it agrees, `failure` raised when it does not. Prints one line per
    export and a total; the exit code (1 on a disagreement or when fewer than
    20 exports could be checked)."""
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
    print(f"{checked} of {len(files)} exports agree with {against}, {failures} disagree")
    if checked < 20:
        print("FAIL: fewer than 20 exports checked")
        return 1
    return 1 if failures else 0
