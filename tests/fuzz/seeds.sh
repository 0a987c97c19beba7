#!/usr/bin/env bash
# Puts together TARGET's seed corpus in OUT_DIR from the inputs that
# seeds/TARGET.txt names, so nothing of ../shared is copied into the
# repository. Each line: [byte=N] BASE:GLOB, BASE one of
#   project  this repository (tests/golden/inputs, tests/data, share/examples, tests/fuzz/seeds)
#   data     the real inputs, $NETTOPO_SHARED_DATA (default ../shared/data)
#   fuzz     the first campaign's inputs, ../shared/fuzz beside the data
# byte=N puts the byte N in front of each file (targets whose first byte
# chooses a reader or a mode). Files are cut to their first 64 KiB (the
# runs' -max_len); missing ones (no ../shared) are left out.
#
# Usage: seeds.sh TARGET OUT_DIR
set -euo pipefail
target=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
data=${NETTOPO_SHARED_DATA:-$root/../shared/data}
fuzz=$data/../fuzz
mkdir -p "$out"
list=$here/seeds/$target.txt
[[ -f $list ]] || { echo "seeds.sh: no $list" >&2; exit 2; }
n=0
while read -r first rest; do
    [[ -z $first || $first == \#* ]] && continue
    byte=
    if [[ $first == byte=* ]]; then byte=${first#byte=}; first=$rest; fi
    base=${first%%:*} glob=${first#*:}
    case $base in
        project) dir=$root ;;
        data) dir=$data ;;
        fuzz) dir=$fuzz ;;
        *) echo "seeds.sh: $list: unknown base '$base'" >&2; exit 2 ;;
    esac
    shopt -s nullglob
    for file in "$dir"/$glob; do
        [[ -f $file ]] || continue
        n=$((n + 1))
        name=$out/$(printf '%04d' "$n")-$(basename "$file")
        { [[ -n $byte ]] && printf "\\x$(printf '%02x' "$byte")"; head -c 65535 "$file"; } >"$name"
    done
    shopt -u nullglob
done <"$list"
echo "seeds.sh: $n seeds for $target in $out"
