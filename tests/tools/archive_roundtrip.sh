#!/usr/bin/env bash
# tools.archive_roundtrip: `nettopo-discover -i X -o -` piped into
# `nettopo-query -i -` answers exactly as X itself; converting an archive
# again gives the same bytes; -o FILE and -o - write the same bytes; the
# archive validates against share/schema/nettopo-archive.xsd (xmllint, from
# libxml2-utils, which the README's commands install).
#
# Usage: archive_roundtrip.sh BIN_DIR PROJECT_ROOT
set -euo pipefail

# shellcheck source=common.sh
source "$(dirname "$0")/common.sh" roundtrip "$@"
query="$bin/nettopo-query"
discover="$bin/nettopo-discover"
cd "$root"
unset NETTOPO_ARCHIVE


inputs=(
    tests/golden/inputs/fig9b.topo
    tests/golden/inputs/fig9b-per-pe.topo
    tests/golden/inputs/ring4.topo
    tests/golden/inputs/fattree.topo
    tests/golden/inputs/star40.topo
    tests/golden/inputs/options.topo
    tests/golden/inputs/end-hosts.topo
    ../shared/data/hwloc-xml/16amd64-4distances.xml
    ../shared/data/hwloc-xml/nvidiaDGX2.xml
    ../shared/data/hwloc-xml/power8gpudistances.xml
)
schema=share/schema/nettopo-archive.xsd
xmllint=$(command -v xmllint || true)
if [[ -z "$xmllint" ]]; then
    echo "FAIL: xmllint not found (apt-get install libxml2-utils): cannot check the schema" >&2
    exit 1
fi

for input in "${inputs[@]}"; do
    name=$(basename "$input")
    a="$work/$name.a.xml"
    "$discover" -i "$input" -o - >"$a"
    # the same archive through a pipe: every report and a batch of queries
    for q in "show --all" "summary" "--json summary" "num-nodes" "nearest 0 5" "device-matrix"; do
        # shellcheck disable=SC2086
        want=$("$query" -i "$input" $q)
        # shellcheck disable=SC2086
        got=$("$discover" -i "$input" -o - | "$query" -i - $q)
        [[ "$want" == "$got" ]] || fail "$name: '$q' differs after the round trip"
    done
    n=$("$query" -i "$input" num-pes)
    seq 0 $((n - 1)) | awk -v n="$n" '{ print $1, (n - 1 - $1) }' >"$work/pairs"
    for q in distance hops path proximity ancestor; do
        want=$("$query" -i "$input" --json "$q" --pairs "$work/pairs")
        got=$("$query" -i "$a" --json "$q" --pairs "$work/pairs")
        [[ "$want" == "$got" ]] || fail "$name: '$q --pairs' differs between the source and its archive"
    done
    # archive -> archive is the identity, and -o FILE writes what -o - prints
    "$discover" -i "$a" -o - | cmp -s - "$a" || fail "$name: converting the archive again changes it"
    "$discover" -q -i "$input" -o "$work/file.xml"
    cmp -s "$work/file.xml" "$a" || fail "$name: -o FILE and -o - differ"
    "$xmllint" --noout --schema "$schema" "$a" 2>"$work/xmllint.err" ||
        fail "$name: the archive does not validate: $(cat "$work/xmllint.err")"
    echo "ok:   $name"
done

if [[ $failures -gt 0 ]]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "all checks passed"
