#!/usr/bin/env bash
# tools.index_option: --index auto|always|never changes how nettopo-balance
# and nettopo-discover --check get their distances, never the answers.
# - nettopo-balance compares strategies (and balances once, writing the
#   mapping and a rankfile) with each word on a fat-tree less 30 % of its
#   switch links (no family: the general index), the same with its index kept
#   in a binary image, and the real clusters of ../shared/data assembled: the
#   outputs are equal but for the command line and the distance_index
#   parameter, which names a search for never and an index otherwise;
# - nettopo-discover --check's report (its hop histogram) is equal for the
#   three words on that damaged fat-tree (through its Slurm topology.conf)
#   and on the real clusters, and equals a BFS written here in Python;
# - a bad word exits 2 in nettopo-query's words.
#
# Usage: index_option.sh BIN_DIR PROJECT_ROOT
set -euo pipefail

# shellcheck source=common.sh
source "$(dirname "$0")/common.sh" index-option "$@"
query="$bin/nettopo-query"
discover="$bin/nettopo-discover"
balance="$bin/nettopo-balance"
cd "$root"
unset NETTOPO_ARCHIVE

"$bin/nettopo-gen" fat-tree --k 8 --n 3 --machine "pack:2 core:2 pu:1" -o "$work/ft.xml" 2>/dev/null
python3 share/bench/cut-switch-links.py --fraction 0.3 --seed 3 "$work/ft.xml" "$work/ftcut.xml" >/dev/null
mkdir -p "$work/kept"
cp "$work/ftcut.xml" "$work/kept/ftcut.xml"
"$query" -i "$work/kept/ftcut.xml" index >/dev/null # kept/ftcut.ntimg, beside it
[[ -f "$work/kept/ftcut.ntimg" ]] || fail "nettopo-query index wrote no image"
inputs=("$work/ftcut.xml" "$work/kept/ftcut.xml")
clusters=()
real_clusters=(avakas plafrim)
# Under a sanitizer the strategies run 10 times slower: one real cluster.
[[ ${NETTOPO_SANITIZED:-} == 1 ]] && real_clusters=(plafrim)
for cluster in "${real_clusters[@]}"; do
    dir=../shared/data/clusters/$cluster
    [[ -d "$dir" ]] || { echo "no $dir: skipped"; continue; }
    clusters+=("$cluster")
    "$discover" -q --hosts "$dir/hwloc" --ibnetdiscover "$dir/ib-subnet-0.txt" -o "$work/$cluster.xml"
    inputs+=("$work/$cluster.xml")
done

# The balance outputs without the lines that name the run's command and index.
strip() { grep -v -e '^# nettopo-balance' -e '^# parameters:' "$1" || true; }

for input in "${inputs[@]}"; do
    name=${input#"$work/"}
    once=(--tasks tests/golden/inputs/balance/tasks.csv --graph tests/golden/inputs/balance/graph.csv
        --mapping tests/golden/inputs/balance/mapping.csv)
    for word in auto always never; do
        "$balance" -q -i "$input" -w lb_test:tasks=600,pattern=mesh2d,iterations=80 \
            -s greedy,refine,neighbor,topo-greedy,topo-refine --decision-time none \
            --index "$word" >"$work/compare.$word"
        "$balance" -q -i "$input" "${once[@]}" -s topo-greedy --decision-time none \
            --index "$word" -o "$work/mapping.$word" --rankfile "$work/rankfile.$word" >/dev/null
    done
    grep -q 'distance_index=no index: a search per question' "$work/compare.never" ||
        fail "$name: --index never did not search: $(grep parameters "$work/compare.never")"
    for word in auto always; do
        grep -q 'distance_index=no index' "$work/compare.$word" &&
            fail "$name: --index $word built no index"
        cmp -s <(strip "$work/compare.$word") <(strip "$work/compare.never") ||
            fail "$name: strategy comparison differs between --index $word and never"
        cmp -s "$work/mapping.$word" "$work/mapping.never" ||
            fail "$name: the mapping differs between --index $word and never"
        cmp -s "$work/rankfile.$word" "$work/rankfile.never" ||
            fail "$name: the rankfile differs between --index $word and never"
    done
    # The image's kept index is what auto takes (the same words as an index built).
    if [[ $name == kept/* ]]; then
        grep -q 'distance_index=dense table' "$work/compare.auto" ||
            fail "the kept dense table was not used: $(grep parameters "$work/compare.auto")"
    fi
done

# Ordered pairs of distinct machines by hop count, by a BFS over the archive's
# links (machines are the first vertex ids; on these networks no path passes
# through a machine, so every vertex is expanded).
bfs_histogram() {
    python3 - "$1" <<'EOF'
import re, sys
from collections import deque
text = open(sys.argv[1]).read()
machines = int(re.search(r'<machines count="(\d+)"', text).group(1))
body = text[text.index(">", text.index("<links")) + 1:text.index("</links>")]
adj, previous = {}, []
for line in body.split("\n"):
    fields = line.split()
    if not fields:
        continue
    fields = fields + previous[len(fields):]
    previous = fields
    a, b = int(fields[0]), int(fields[1])
    adj.setdefault(a, []).append(b)
    adj.setdefault(b, []).append(a)
counts = []
for s in range(machines):
    dist = {s: 0}
    queue = deque([s])
    while queue:
        v = queue.popleft()
        if v != s and v < machines:
            continue
        for w in adj.get(v, []):
            if w not in dist:
                dist[w] = dist[v] + 1
                queue.append(w)
    for t in range(machines):
        if t != s and t in dist:
            counts += [0] * (dist[t] + 1 - len(counts))
            counts[dist[t]] += 1
print(",".join(map(str, counts)))
EOF
}
# The same histogram from a --check --json report.
report_histogram() {
    python3 -c 'import json, sys; print(",".join(map(str, json.load(open(sys.argv[1]))["hop_distribution"]["pairs_at_hops"])))' "$1"
}

"$query" -i "$work/ftcut.xml" export --format slurm -o "$work/ftcut.conf"
checks=("ftcut --slurm $work/ftcut.conf --default-machine pu:4")
for cluster in "${clusters[@]}"; do
    dir=../shared/data/clusters/$cluster
    checks+=("$cluster --hosts $dir/hwloc --ibnetdiscover $dir/ib-subnet-0.txt")
done
for check in "${checks[@]}"; do
    read -r name args <<<"$check"
    for word in auto always never; do
        # shellcheck disable=SC2086
        "$discover" $args --check --json --index "$word" >"$work/check.$word" || true
    done
    [[ -s "$work/check.never" ]] || fail "$name: --check printed nothing"
    for word in auto always; do
        cmp -s "$work/check.$word" "$work/check.never" ||
            fail "$name: --check differs between --index $word and never"
    done
    want=$(bfs_histogram "$work/$name.xml")
    got=$(report_histogram "$work/check.never")
    [[ "$got" == "$want" ]] || fail "$name: --check's hop histogram $got, the BFS says $want"
done

# A bad word: exit 2 and nettopo-query's message, in each tool's name.
fig9b=tests/golden/inputs/fig9b.topo
for run in "nettopo-query -i $fig9b distance 0 4" "nettopo-balance -w smartlb-50" \
    "nettopo-discover -i $fig9b -o $work/fig9b.xml"; do
    read -r tool args <<<"$run"
    set +e
    # shellcheck disable=SC2086
    "$bin/$tool" $args --index sometimes >/dev/null 2>"$work/err"
    status=$?
    set -e
    [[ $status -eq 2 ]] || fail "$tool --index sometimes: exit $status, not 2"
    grep -qx "$tool: error: --index: sometimes not in {auto,always,never} (see $tool --help)" \
        "$work/err" || fail "$tool --index sometimes said: $(cat "$work/err")"
done

[[ $failures -eq 0 ]] || exit 1
echo "index_option: the answers do not depend on --index"
