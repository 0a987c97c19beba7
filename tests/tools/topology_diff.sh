#!/usr/bin/env bash
# tools.topology_diff: the CI check of a real cluster against the expected
# one (nettopo-query diff, nettopo-discover --expect), on the real plafrim
# cluster of ../shared/data/clusters (122 hwloc exports, an ibnetdiscover
# dump). The expected archive is assembled from the files as they are; each
# case changes a copy the way a cluster changes (a cable pulled, a link
# trained at a lower speed, a host gone, a host of another family) and must
# be reported exactly once and nothing else, with exit status 3; the
# unchanged cluster gives exit 0 and no difference line; a broken file
# exit 1 naming it. What each line must say is read from the changed lines
# of the dump (switch names are S-<GUID>, as ibnetdiscover names them) and
# from hwloc-calc on the exports, not typed by hand. Without the shared data
# the check is skipped (exit 77).
#
# Usage: topology_diff.sh BIN_DIR PROJECT_ROOT
# shellcheck disable=SC2015  # "A && pass || fail": pass and echo never fail
set -euo pipefail

# shellcheck source=common.sh
source "$(dirname "$0")/common.sh" topology-diff "$@"
query="$bin/nettopo-query"
discover="$bin/nettopo-discover"
data="$root/../shared/data/clusters/plafrim"
dump="$data/ib-subnet-0.txt"
exports="$data/hwloc"

if [[ ! -f "$dump" || ! -d "$exports" ]]; then
    echo "SKIP: no $data (the shared real data)"
    exit 77
fi


# assemble DUMP EXPORT_DIR OUT: the cluster of these sources, as an archive.
assemble() {
    "$discover" -q --hosts "$2" --ibnetdiscover "$1" --name plafrim -o "$3" 2>"$work/assemble.err" ||
        fail "assembling $1 with $2: exit $?: $(cat "$work/assemble.err")"
}

# run_diff ARCHIVE [--json]: nettopo-query diff against the expected archive;
# sets $code, $out (stdout) and $err (stderr).
run_diff() {
    code=0
    "$query" -i "$1" "${@:2}" diff "$work/expected.xml" >"$work/out" 2>"$work/err" </dev/null || code=$?
    out=$(cat "$work/out")
    err=$(cat "$work/err")
}

# expect_one NAME ARCHIVE LINE SUMMARY: exactly that difference line and that
# summary, nothing on stderr, exit 3.
expect_one() {
    local name="$1" archive="$2" line="$3" summary="$4"
    run_diff "$archive"
    local want
    want=$(printf '%s\n%s' "$line" "$summary")
    [[ $code -eq 3 ]] && pass "$name: exit 3" || fail "$name: exit $code, expected 3 ($err)"
    [[ "$out" == "$want" ]] && pass "$name: reported once: $line" ||
        fail "$name: expected
$want
got
$out"
    [[ -z "$err" ]] || fail "$name: unexpected stderr: $err"
}

# A copy of the exports: links to every file but those named, so a case can
# leave one out or put another in its place.
exports_without() {
    local dir f
    dir=$(mktemp -d "$work/exports.XXXXXX")
    for f in "$exports"/*.xml; do
        [[ " $* " == *" $(basename "$f" .xml) "* ]] || ln -s "$f" "$dir/"
    done
    echo "$dir"
}

# Switch name of a GUID as the dump writes it (0x...): S-<16 hex digits>.
# A switch's name as the tools give it (share/doc/clusters.md, switch names),
# read from the dump here: a Voltaire description 'MODEL # NAME' gives NAME,
# the other switches of this dump keep S-<guid>.
switch_name() {
    local desc
    desc=$(grep -m1 -E "^SW +[0-9]+ +[0-9]+ +$1 " "$dump" | sed -nE "s/^[^(]*\( '([^']*)'.*/\1/p")
    if [[ "$desc" == *" # "* ]]; then echo "${desc##* # }"; else echo "S-${1#0x}"; fi
}

# 0. The expected cluster, and the same sources again: identical.
assemble "$dump" "$exports" "$work/expected.xml"
assemble "$dump" "$exports" "$work/today.xml"
run_diff "$work/today.xml"
[[ $code -eq 0 && "$out" == "no differences" && -z "$err" ]] && pass "unchanged cluster: exit 0, no difference" ||
    fail "unchanged cluster: exit $code, output: $out $err"
run_diff "$work/today.xml" --json
[[ $code -eq 0 && "$out" == '{"identical":true,"differences":0,"counts":{}}' ]] &&
    pass "unchanged cluster, JSON: identical" || fail "unchanged cluster, JSON: exit $code: $out"

# 1. A cable pulled: a single switch-to-switch cable (both of its port lines).
# The Voltaire 4036-8524 to Mellanox Infiniscale-III cable is one of the
# single cables whose loss keeps the fabric connected.
a=0x0008f10500108524 b=0x000b8cffff004939
grep -E "^SW .* $a .* - SW .* $b " "$dump" >"$work/cable.lines" || true
grep -E "^SW .* $b .* - SW .* $a " "$dump" >>"$work/cable.lines" || true
[[ $(wc -l <"$work/cable.lines") -eq 2 ]] || fail "expected the two port lines of one cable between $a and $b"
grep -vxF -f "$work/cable.lines" "$dump" >"$work/cable.txt"
assemble "$work/cable.txt" "$exports" "$work/cable.xml"
sa=$(switch_name $a) sb=$(switch_name $b)
run_diff "$work/cable.xml"
if [[ "$out" == "link missing: $sa -- $sb"$'\n'* ]]; then first=$sa second=$sb; else first=$sb second=$sa; fi
expect_one "cable pulled" "$work/cable.xml" "link missing: $first -- $second" "1 difference: 1 link missing"

# 2. A trunk lost a cable: the first switch pair with several cables, one of
# them (its two port lines) removed. The count comes from the dump.
read -r ta tb cables < <(awk '$1 == "SW" && $8 == "SW" {
        x = $4; y = $11; if (x > y) { t = x; x = y; y = t }
        n[x " " y]++; if (!(x " " y in first)) { first[x " " y] = NR; order[++k] = x " " y } }
    END { for (i = 1; i <= k; i++) if (n[order[i]] / 2 > 1) { print order[i], n[order[i]] / 2; exit } }' "$dump")
line=$(grep -m1 -E "^SW .* $ta .* - SW .* $tb " "$dump")
read -r _ lid_a port_a _ _ _ _ _ lid_b port_b _ <<<"$line"
# The same cable seen from its other end.
other=$(awk -v g="$tb" -v p="$port_b" -v h="$ta" -v q="$port_a" '$1 == "SW" && $4 == g && $3 == p && $11 == h && $10 == q' "$dump")
[[ -n "$other" ]] || fail "no reverse line for the cable $ta:$port_a - $tb:$port_b (lids $lid_a $lid_b)"
printf '%s\n%s\n' "$line" "$other" >"$work/trunk.lines"
grep -vxF -f "$work/trunk.lines" "$dump" >"$work/trunk.txt"
assemble "$work/trunk.txt" "$exports" "$work/trunk.xml"
sa=$(switch_name "$ta") sb=$(switch_name "$tb")
run_diff "$work/trunk.xml"
if [[ "$out" == "link with fewer cables: $sa -- $sb:"* ]]; then first=$sa second=$sb; else first=$sb second=$sa; fi
expect_one "trunk lost a cable" "$work/trunk.xml" \
    "link with fewer cables: $first -- $second: cables $cables -> $((cables - 1))" \
    "1 difference: 1 link with fewer cables"

# 3. A link trained at a lower speed: one host's QDR cable (both lines) as SDR.
host=mirage006
grep -c "'$host HCA-1'" "$dump" | grep -qx 2 || fail "expected two port lines for $host"
guid=$(grep -m1 -E "^CA .*'$host HCA-1'" "$dump" | awk '{print $11}')
sed -E "/'$host HCA-1'/s/ 4x QDR / 4x SDR /" "$dump" >"$work/speed.txt"
[[ $(diff "$dump" "$work/speed.txt" | grep -c '^>') -eq 2 ]] || fail "the speed edit did not change two lines"
assemble "$work/speed.txt" "$exports" "$work/speed.xml"
run_diff "$work/speed.xml"
# QDR signals 4 times faster than SDR: the rate reported must drop by 4.
read -r from to < <(sed -nE 's/.*: bandwidth ([0-9.]+) -> ([0-9.]+) Gbit\/s$/\1 \2/p' <<<"$out")
[[ -n "${from:-}" ]] && awk -v f="$from" -v t="$to" 'BEGIN { exit !(f == 4 * t) }' &&
    pass "QDR -> SDR: bandwidth $from -> $to Gbit/s" || fail "QDR -> SDR: unexpected bandwidths: $out"
expect_one "link slower" "$work/speed.xml" \
    "link slower: $host -- $(switch_name "$guid"): bandwidth ${from:-?} -> ${to:-?} Gbit/s" \
    "1 difference: 1 link slower"

# 4. A host gone: its export left out (the fabric still has it), then its
# cable left out of the fabric (its export still there). Either way the
# host is missing once, and its cable is not reported again.
host=bonobo005
guid=$(grep -m1 -E "^CA .*'$host HCA-1'" "$dump" | awk '{print $11}')
assemble "$dump" "$(exports_without $host)" "$work/no-export.xml"
expect_one "host without its export" "$work/no-export.xml" \
    "host missing: $host (linked to $(switch_name "$guid"))" "1 difference: 1 host missing"
grep -v "'$host HCA-1'" "$dump" >"$work/no-host.txt"
assemble "$work/no-host.txt" "$exports" "$work/no-host.xml"
expect_one "host out of the fabric" "$work/no-host.xml" \
    "host missing: $host (linked to $(switch_name "$guid"))" "1 difference: 1 host missing"

# 5. A host of another family: bonobo005 given mirage001's export (its
# HostName rewritten). The counts on the line are hwloc's own.
dir=$(exports_without $host)
sed 's/name="HostName" value="mirage001"/name="HostName" value="bonobo005"/' "$exports/mirage001.xml" >"$dir/$host.xml"
grep -q 'value="bonobo005"' "$dir/$host.xml" || fail "could not rename the export of mirage001"
assemble "$dump" "$dir" "$work/family.xml"
run_diff "$work/family.xml"
[[ "$out" == "host changed: $host: "* ]] || fail "another family: $out"
for what in pu core numanode; do
    e=$(hwloc-calc -i "$exports/$host.xml" --number-of $what all)
    n=$(hwloc-calc -i "$exports/mirage001.xml" --number-of $what all)
    label=$(case $what in pu) echo PUs ;; core) echo cores ;; numanode) echo "NUMA nodes" ;; esac)
    if [[ $e != "$n" ]]; then
        [[ "$out" == *"$label $e -> $n"* ]] && pass "another family: $label $e -> $n as hwloc-calc counts" ||
            fail "another family: expected '$label $e -> $n' (hwloc-calc) in: $out"
    else
        [[ "$out" != *"$label "* ]] || fail "another family: $label are the same ($e) but reported: $out"
    fi
done
expect_one "another family" "$work/family.xml" "$(head -1 <<<"$out")" "1 difference: 1 host changed"
run_diff "$work/family.xml" --json
python3 - "$out" "$(hwloc-calc -i "$exports/mirage001.xml" --number-of pu all)" <<'EOF' &&
import json, sys
lines = [json.loads(l) for l in sys.argv[1].splitlines()]
assert len(lines) == 2, lines
d, s = lines
assert d["difference"] == "machine_changed" and d["machine"] == "bonobo005", d
assert d["actual"]["num_pus"] == int(sys.argv[2]), d
assert s == {"identical": False, "differences": 1, "counts": {"machine_changed": 1}}, s
EOF
    pass "another family, JSON: one difference and the summary" || fail "another family, JSON: $out"

# 6. nettopo-discover --expect: the same check right after assembling; the
# archive is still written, the differences go to stderr.
code=0
"$discover" --hosts "$exports" --ibnetdiscover "$work/speed.txt" --name plafrim -o "$work/written.xml" \
    --expect "$work/expected.xml" >"$work/out" 2>"$work/err" || code=$?
[[ $code -eq 3 ]] && pass "discover --expect: exit 3" || fail "discover --expect: exit $code: $(cat "$work/err")"
cmp -s "$work/written.xml" "$work/speed.xml" && pass "discover --expect: archive written" ||
    fail "discover --expect: the archive is not the one assembled"
[[ $(grep -c "^nettopo-discover: link slower: mirage006 -- " "$work/err") -eq 1 ]] &&
    grep -q "^nettopo-discover: the cluster differs from $work/expected.xml: 1 difference: 1 link slower$" "$work/err" &&
    pass "discover --expect: the difference and the summary on stderr" || fail "discover --expect: $(cat "$work/err")"
[[ ! -s "$work/out" ]] || fail "discover --expect printed on stdout: $(cat "$work/out")"
code=0
"$discover" -q --hosts "$exports" --ibnetdiscover "$dump" -o "$work/same.xml" --expect "$work/expected.xml" \
    >"$work/out" 2>"$work/err" || code=$?
[[ $code -eq 0 && ! -s "$work/err" ]] && pass "discover --expect, unchanged: exit 0, quiet" ||
    fail "discover --expect, unchanged: exit $code: $(cat "$work/err")"

# 7. A broken file: exit 1 naming it; no archive written by discover.
head -c 2000 "$work/expected.xml" >"$work/broken.xml"
code=0
"$query" -i "$work/today.xml" diff "$work/broken.xml" >"$work/out" 2>"$work/err" || code=$?
[[ $code -eq 1 ]] && grep -q "broken.xml" "$work/err" && pass "broken expected file: exit 1 naming it" ||
    fail "broken expected file: exit $code: $(cat "$work/err")"
code=0
"$query" -i "$work/broken.xml" diff "$work/expected.xml" >"$work/out" 2>"$work/err" || code=$?
[[ $code -eq 1 ]] && grep -q "broken.xml" "$work/err" && pass "broken input: exit 1 naming it" ||
    fail "broken input: exit $code: $(cat "$work/err")"
code=0
"$discover" -q --hosts "$exports" --ibnetdiscover "$dump" -o "$work/not-written.xml" \
    --expect "$work/broken.xml" >"$work/out" 2>"$work/err" || code=$?
[[ $code -eq 1 && ! -e "$work/not-written.xml" ]] && grep -q "broken.xml" "$work/err" &&
    pass "discover --expect broken file: exit 1, nothing written" ||
    fail "discover --expect broken file: exit $code: $(cat "$work/err")"
code=0
"$query" -i "$work/today.xml" diff >"$work/out" 2>"$work/err" || code=$?
[[ $code -eq 2 ]] && pass "diff without the expected file: exit 2" || fail "diff without a file: exit $code"

[[ $failures -eq 0 ]] || { echo "$failures failure(s)"; exit 1; }
echo "topology diff: all checks passed"
