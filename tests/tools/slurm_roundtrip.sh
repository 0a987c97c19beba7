#!/usr/bin/env bash
# tools.slurm_roundtrip: a topology.conf read by nettopo-discover and written
# back by `nettopo-query export --format slurm` reads again to the same
# network: the second export is byte-identical to the first (but for
# LinkSpeed, which the reader ignores), and the counts agree with the source.
# The same through `--format slurm-yaml` (topology.yaml): read back, it gives
# the same topology.conf. LinkSpeed: the generators' --bandwidth in Mbit/s on
# every line. Sources: Slurm's own man-page examples, a yaml one, generated
# fat-trees and XGFTs.
#
# Usage: slurm_roundtrip.sh BIN_DIR PROJECT_ROOT
set -euo pipefail

# shellcheck source=common.sh
source "$(dirname "$0")/common.sh" slurmroundtrip "$@"
gen="$bin/nettopo-gen"
query="$bin/nettopo-query"
discover="$bin/nettopo-discover"
cd "$root"
unset NETTOPO_ARCHIVE

counts() { echo "$("$query" -i "$1" num-machines) $("$query" -i "$1" num-switches) $("$query" -i "$1" num-links)"; }

# A topology.conf without what the reader ignores: LinkSpeed and its comment.
without_speed() { grep -v '^# LinkSpeed' "$1" | sed 's/ LinkSpeed=[0-9]*$//'; }

roundtrip() { # NAME ARCHIVE: export, read back, export again (conf, then yaml)
    local name=$1 archive=$2
    "$query" -i "$archive" export --format slurm -o "$work/$name.1.conf"
    "$discover" -q --slurm "$work/$name.1.conf" --default-machine pu:1 --name "$name" -o "$work/$name.back.xml"
    "$query" -i "$work/$name.back.xml" export --format slurm -o "$work/$name.2.conf"
    without_speed "$work/$name.1.conf" >"$work/$name.1.bare"
    cmp -s "$work/$name.1.bare" "$work/$name.2.conf" ||
        fail "$name: the second export differs: $(diff "$work/$name.1.bare" "$work/$name.2.conf" | head -5)"
    [[ "$(counts "$archive")" == "$(counts "$work/$name.back.xml")" ]] ||
        fail "$name: $(counts "$archive") (machines switches links) became $(counts "$work/$name.back.xml")"
    "$query" -i "$archive" export --format slurm-yaml -o "$work/$name.yaml"
    "$discover" -q --slurm "$work/$name.yaml" --default-machine pu:1 --name "$name" -o "$work/$name.yback.xml"
    "$query" -i "$work/$name.yback.xml" export --format slurm -o "$work/$name.y.conf"
    cmp -s "$work/$name.1.bare" "$work/$name.y.conf" ||
        fail "$name: through topology.yaml: $(diff "$work/$name.1.bare" "$work/$name.y.conf" | head -5)"
    "$query" -i "$work/$name.back.xml" diff "$work/$name.yback.xml" >/dev/null ||
        fail "$name: the clusters read from topology.conf and topology.yaml differ"
    echo "ok:   $name"
}

for src in tests/data/slurm/topology-tree.conf tests/data/slurm/topology.yaml; do
    name=$(basename "$src")
    "$discover" -q --slurm "$src" --default-machine pu:1 --name "$name" -o "$work/$name.xml"
    roundtrip "$name" "$work/$name.xml"
done
for f in "fat-tree --k 4 --n 3" "fat-tree --k 2 --n 5" "fat-tree --xgft 3;2,3,2;2,2,3"; do
    name=$(echo "$f" | tr -c 'a-z0-9\n' _)
    # shellcheck disable=SC2086
    "$gen" $f --machine pu:1 --name "$name" -q -o "$work/$name.xml"
    roundtrip "$name" "$work/$name.xml"
done

# LinkSpeed: every link of a generated fat-tree has the --bandwidth given.
"$gen" fat-tree --k 4 --n 2 --machine pu:1 --bandwidth all=12.5 -q -o "$work/speed.xml"
"$query" -i "$work/speed.xml" export --format slurm -o "$work/speed.conf"
lines=$(grep -c '^SwitchName=' "$work/speed.conf")
[[ $lines -gt 0 && $(grep -c ' LinkSpeed=12500$' "$work/speed.conf") -eq $lines ]] ||
    fail "--bandwidth all=12.5: not LinkSpeed=12500 (Mbit/s) on every line: $(head -4 "$work/speed.conf")"
echo "ok:   LinkSpeed"

if [[ $failures -gt 0 ]]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "all checks passed"
