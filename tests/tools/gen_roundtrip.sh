#!/usr/bin/env bash
# tools.gen_roundtrip: for every family, the archive nettopo-gen writes equals
# (byte for byte) the one nettopo-discover makes from the description
# nettopo-gen --describe prints; the archive validates against the schema; and
# nettopo-query reads it back with the counts nettopo-gen reported.
#
# Usage: gen_roundtrip.sh BIN_DIR PROJECT_ROOT
set -euo pipefail

# shellcheck source=common.sh
source "$(dirname "$0")/common.sh" genroundtrip "$@"
gen="$bin/nettopo-gen"
query="$bin/nettopo-query"
discover="$bin/nettopo-discover"
cd "$root"
unset NETTOPO_ARCHIVE
schema=share/schema/nettopo-archive.xsd

families=(
    "fat-tree --k 3 --n 3"
    "fat-tree --xgft 3;2,3,2;1,2,3"
    "tree --levels 4 --concentration 2"
    "mesh --dims 3x4x2"
    "torus --dims 4x3x2 --concentration 2"
    "hypercube --dim 5"
    "dragonfly --p 2 --a 3 --h 2 --g 5"
    "butterfly --k 3 --n 3"
    "slimfly --q 5 --p 2"
    "complete --machines 7"
    "ring --machines 9 --concentration 3"
    "--preset mesh2D"
)

for f in "${families[@]}"; do
    # shellcheck disable=SC2086
    "$gen" $f --machine "pack:1 core:2 pu:2" --latency global=333.5 -q -o "$work/gen.xml"
    # shellcheck disable=SC2086
    "$gen" $f --machine "pack:1 core:2 pu:2" --latency global=333.5 --describe >"$work/desc.txt"
    "$discover" -q -i "$work/desc.txt" -o "$work/via-desc.xml"
    # the description has no cluster name of its own beyond its `name` line;
    # only the archive records the family, so compare without it
    grep -q '^<nettopo version="2" name="[^"]*" family="[a-z]' "$work/gen.xml" ||
        fail "$f: the archive does not record the family"
    sed '2s/ family="[^"]*"//' "$work/gen.xml" >"$work/gen-no-family.xml"
    cmp -s "$work/gen-no-family.xml" "$work/via-desc.xml" ||
        fail "$f: the archive differs from the one built from its description"
    xmllint --noout --schema "$schema" "$work/gen.xml" 2>"$work/xmllint.err" ||
        fail "$f: the archive does not validate: $(cat "$work/xmllint.err")"
    # shellcheck disable=SC2086
    want=$("$gen" $f --machine "pack:1 core:2 pu:2" -o /dev/null 2>&1 | sed -n 's/.*(\([0-9]* machines, [0-9]* switches, [0-9]* links\).*/\1/p')
    got="$("$query" -i "$work/gen.xml" num-machines) machines, $("$query" -i "$work/gen.xml" num-switches) switches, $("$query" -i "$work/gen.xml" num-links) links"
    [[ "$want" == "$got" ]] || fail "$f: nettopo-gen reported '$want', the archive holds '$got'"
    echo "ok:   $f"
done

if [[ $failures -gt 0 ]]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "all checks passed"
