#!/usr/bin/env bash
# tools.gen_devices: a cluster generated with devices (--machine "... gpu:8
# nic:8") answers the device questions the same from its archive, its binary
# image and its text description; that description is, line for line, the
# golden input the device cases of tests/golden/cases.txt read
# (gen-gpu-fattree.topo), so those cases pin what nettopo-gen makes; and a
# machine without the words writes the archive it always did.
#
# Usage: gen_devices.sh BIN_DIR PROJECT_ROOT
set -euo pipefail

# shellcheck source=common.sh
source "$(dirname "$0")/common.sh" gendevices "$@"
gen="$bin/nettopo-gen"
query="$bin/nettopo-query"
cd "$root"
unset NETTOPO_ARCHIVE

machine="pack:2 numa:1 core:4 pu:2 gpu:8 nic:8"
"$gen" fat-tree --k 2 --n 2 --machine "$machine" --name gpu-ft -q -o "$work/ft.xml"
"$gen" fat-tree --k 2 --n 2 --machine "$machine" --name gpu-ft --describe >"$work/ft.topo"
"$query" -i "$work/ft.xml" index >/dev/null 2>&1
cp "$work/ft.xml" "$work/plain.xml" # no image beside it: read as an archive
[[ -f "$work/ft.ntimg" ]] || fail "index wrote no image"

golden=tests/golden/inputs/gen-gpu-fattree.topo
if diff <(grep -v '^#' "$golden") "$work/ft.topo" >"$work/diff.txt"; then
    pass "the golden input is what nettopo-gen --describe writes"
else
    fail "$golden differs from nettopo-gen's description: $(cat "$work/diff.txt")"
fi
grep -q '^<io>\|<io>' "$work/ft.xml" || fail "the archive holds no <io>"

queries=(
    "devices"
    "--json devices n2"
    "device-matrix n1"
    "cpuset-of n3:gpu6"
    "-p nearest-device n0:9 --kind nic"
    "nearest-device 25"
    "nearest n1:mlx5_2 4"
    "distribute 16 --gpus-per-rank 2"
    "distribute 8 --gpus-per-rank 1 --env"
)
for q in "${queries[@]}"; do
    # shellcheck disable=SC2086
    "$query" -i "$work/plain.xml" $q >"$work/archive.out"
    for other in ft.ntimg ft.topo; do
        # shellcheck disable=SC2086
        "$query" -i "$work/$other" $q >"$work/other.out"
        # --env names the file it was made from; the rest must be equal.
        if diff <(grep -v '^# nettopo-query -i' "$work/archive.out") \
            <(grep -v '^# nettopo-query -i' "$work/other.out") >"$work/diff.txt"; then
            pass "$q: $other answers as the archive"
        else
            fail "$q: $other differs from the archive: $(cat "$work/diff.txt")"
        fi
    done
done

# Without the words, nothing changes: the archive is version 2, no <io>.
"$gen" fat-tree --k 2 --n 2 --machine "pack:2 numa:1 core:4 pu:2" -q -o "$work/none.xml"
"$gen" fat-tree --k 2 --n 2 --machine "pack:2 numa:1 core:4 pu:2 gpu:0 nic:0" -q -o "$work/zero.xml"
grep -q '^<nettopo version="2"' "$work/none.xml" || fail "a device-less archive is not version 2"
grep -q '<io>' "$work/none.xml" && fail "a device-less archive holds <io>"
# gpu:0 nic:0 is the same machine; only its description's text differs.
if diff <(sed 's/ gpu:0 nic:0//' "$work/zero.xml") "$work/none.xml" >/dev/null; then
    pass "gpu:0 nic:0 adds nothing"
else
    fail "gpu:0 nic:0 changed the archive"
fi

if [[ $failures -gt 0 ]]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "all checks passed"
