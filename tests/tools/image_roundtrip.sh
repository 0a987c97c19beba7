#!/usr/bin/env bash
# tools.image_roundtrip: a binary image (nettopo-query index, nettopo-discover
# --index) answers exactly as its archive: show --all, summary, nearest, and
# hops/distance on seeded random pairs compared with a search per pair
# (--index never on the archive); on the golden inputs, a generated fat-tree,
# the same with 2 % of its switch links cut (no family: the general index),
# and the real clusters of ../shared/data assembled. An image beside its
# archive is read while it stands for it, its index kept when only the
# archive's time changed, and said to be stale when the network changed; a
# truncated image is refused with its name.
#
# Usage: image_roundtrip.sh BIN_DIR PROJECT_ROOT
set -euo pipefail

# shellcheck source=common.sh
source "$(dirname "$0")/common.sh" image "$@"
query="$bin/nettopo-query"
discover="$bin/nettopo-discover"
gen="$bin/nettopo-gen"
cd "$root"
unset NETTOPO_ARCHIVE

mkdir -p "$work/in"
"$gen" fat-tree --k 8 --n 3 --machine "pack:2 core:2 pu:1" -o "$work/in/ft.xml" 2>/dev/null
python3 share/bench/cut-switch-links.py --fraction 0.02 --seed 3 "$work/in/ft.xml" "$work/in/ftcut.xml" >/dev/null
inputs=(
    tests/golden/inputs/fig9b.topo
    tests/golden/inputs/fattree.topo
    tests/golden/inputs/star40.topo
    tests/golden/inputs/end-hosts.topo
    "$work/in/ft.xml"
    "$work/in/ftcut.xml"
)
for cluster in avakas plafrim; do
    dir=../shared/data/clusters/$cluster
    [[ -d "$dir" ]] || { echo "no $dir: skipped"; continue; }
    "$discover" -q --hosts "$dir/hwloc" --ibnetdiscover "$dir/ib-subnet-0.txt" -o "$work/in/$cluster.xml"
    inputs+=("$work/in/$cluster.xml")
done

same() { # NAME WHAT: the two files $work/want and $work/got are equal
    cmp -s "$work/want" "$work/got" || fail "$1: $2 differs between the archive and its image"
}

for input in "${inputs[@]}"; do
    name=$(basename "$input")
    a="$work/$name.a.xml"
    img="$work/$name.ntimg"
    "$discover" -q -i "$input" -o "$a"
    "$query" -i "$a" index -o "$img" >/dev/null
    for q in "show --all" "summary" "--json summary" "num-nodes" "nearest 0 5"; do
        # shellcheck disable=SC2086
        "$query" -i "$a" $q >"$work/want"
        # shellcheck disable=SC2086
        "$query" -i "$img" $q >"$work/got"
        same "$name" "'$q'"
    done
    n=$("$query" -i "$a" num-pes)
    awk -v n="$n" 'BEGIN { srand(14); for (i = 0; i < 300; i++) print int(rand() * n), int(rand() * n) }' >"$work/pairs"
    for q in distance hops; do
        "$query" -i "$a" --index never "$q" --pairs "$work/pairs" >"$work/want"
        "$query" -i "$img" "$q" --pairs "$work/pairs" >"$work/got"
        same "$name" "'$q --pairs' (kept index against a search per pair)"
    done
done

# Beside its archive: read while it stands for it.
mkdir -p "$work/side"
c="$work/side/c.xml"
cp "$work/in/ftcut.xml" "$c"
"$query" -i "$c" index >"$work/index.out"
[[ -f "$work/side/c.ntimg" ]] || fail "index wrote no image beside the archive"
grep -q "^$work/side/c.ntimg: .*dense table" "$work/index.out" || fail "index said: $(cat "$work/index.out")"
"$query" -i "$work/in/ftcut.xml" --index never hops --pairs "$work/pairs" >"$work/want"
"$query" -i "$c" hops --pairs "$work/pairs" >"$work/got" 2>"$work/err"
same "beside" "hops"
[[ ! -s "$work/err" ]] || fail "a fresh image made noise: $(cat "$work/err")"
touch -d "+1 minute" "$c" # its time changed, not its network: the index still serves
"$query" -i "$c" hops --pairs "$work/pairs" >"$work/got" 2>"$work/err"
same "touched" "hops"
[[ ! -s "$work/err" ]] || fail "an image of the same network was called stale: $(cat "$work/err")"
cp "$work/in/ft.xml" "$c" # another network: stale, said, and the archive answers
"$query" -i "$work/in/ft.xml" --index never hops --pairs "$work/pairs" >"$work/want"
"$query" -i "$c" hops --pairs "$work/pairs" >"$work/got" 2>"$work/err"
same "stale" "hops"
grep -q "c.ntimg no longer stands for" "$work/err" || fail "a stale image was not said: $(cat "$work/err")"
"$query" -q -i "$c" hops 0 1 >/dev/null 2>"$work/err"
[[ ! -s "$work/err" ]] || fail "-q did not quiet the stale note"

# nettopo-discover --index writes the image beside the archive it writes.
"$discover" -q -i "$work/in/ftcut.xml" -o "$work/side/d.xml" --index
[[ -f "$work/side/d.ntimg" ]] || fail "discover --index wrote no image"
"$query" -i "$work/side/d.ntimg" hops --pairs "$work/pairs" >"$work/got"
"$query" -i "$work/in/ftcut.xml" --index never hops --pairs "$work/pairs" >"$work/want"
same "discover --index" "hops"

# A truncated image is refused, named, exit 1.
head -c 1000 "$work/side/d.ntimg" >"$work/side/cut.ntimg"
set +e
"$query" -i "$work/side/cut.ntimg" num-pes >/dev/null 2>"$work/err"
status=$?
set -e
[[ $status -eq 1 ]] || fail "a truncated image: exit $status, expected 1"
grep -q "cut.ntimg" "$work/err" || fail "the error does not name the image: $(cat "$work/err")"

[[ $failures -eq 0 ]] || exit 1
echo "image round trips: ${#inputs[@]} clusters, archive and image agree"
