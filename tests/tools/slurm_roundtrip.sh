#!/usr/bin/env bash
# tools.slurm_roundtrip: a topology.conf read by nettopo-discover and written
# back by `nettopo-query export --format slurm` reads again to the same
# network: the second export is byte-identical to the first, and the counts
# agree with the source. Sources: Slurm's own man-page examples, a yaml one,
# generated fat-trees and XGFTs.
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

roundtrip() { # NAME ARCHIVE: export, read back, export again
    local name=$1 archive=$2
    "$query" -i "$archive" export --format slurm -o "$work/$name.1.conf"
    "$discover" -q --slurm "$work/$name.1.conf" --default-machine pu:1 --name "$name" -o "$work/$name.back.xml"
    "$query" -i "$work/$name.back.xml" export --format slurm -o "$work/$name.2.conf"
    cmp -s "$work/$name.1.conf" "$work/$name.2.conf" ||
        fail "$name: the second export differs: $(diff "$work/$name.1.conf" "$work/$name.2.conf" | head -5)"
    [[ "$(counts "$archive")" == "$(counts "$work/$name.back.xml")" ]] ||
        fail "$name: $(counts "$archive") (machines switches links) became $(counts "$work/$name.back.xml")"
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

if [[ $failures -gt 0 ]]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "all checks passed"
