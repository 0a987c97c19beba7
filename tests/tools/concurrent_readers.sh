#!/usr/bin/env bash
# tools.concurrent_readers: nettopo-query processes reading an archive, and
# the image beside it, while another process rewrites both over and over
# (two topologies in turn) always see one of the two topologies whole: the
# summary of the one or of the other, exit 0, nothing on stderr but the note
# that an image no longer stands for its archive (issue 15, "Concurrent
# readers"; share/doc/archive-format.md, "Atomic" and "When it is read").
#
# Usage: concurrent_readers.sh BIN_DIR PROJECT_ROOT
# shellcheck disable=SC2015  # "A && pass || fail": pass and echo never fail
set -euo pipefail

# shellcheck source=common.sh
source "$(dirname "$0")/common.sh" concurrent "$@"
discover="$bin/nettopo-discover"
gen="$bin/nettopo-gen"
query="$bin/nettopo-query"
rewrites=${REWRITES:-60}


# The two topologies and their summaries, each read alone.
"$gen" torus --dims 20x20x20 -o "$work/a.xml" -q
"$gen" fat-tree --k 8 --n 3 -o "$work/b.xml" -q
"$query" -q -i "$work/a.xml" summary >"$work/a.summary"
"$query" -q -i "$work/b.xml" summary >"$work/b.summary"
cmp -s "$work/a.summary" "$work/b.summary" && fail "the two topologies have the same summary"

# 1. An image made for the archive, then the archive replaced (the image is
#    not): the archive is read, with the note; the image alone still reads A.
d="$work/stale"
mkdir "$d"
"$discover" -q -i "$work/a.xml" -o "$d/c.xml" --index
[[ -s "$d/c.ntimg" ]] || fail "discover --index wrote no image"
"$gen" fat-tree --k 8 --n 3 -o "$d/c.xml" -q
"$query" -i "$d/c.xml" summary >"$work/out" 2>"$work/err" || fail "reading the replaced archive failed"
cmp -s "$work/out" "$work/b.summary" && pass "a replaced archive is read, not its old image" ||
    fail "the replaced archive was answered from its old image: $(head -1 "$work/out")"
grep -q "no longer stands for" "$work/err" && pass "the old image is said to be stale" ||
    fail "no note on the stale image: $(cat "$work/err")"
"$query" -q -i "$d/c.ntimg" summary >"$work/out" && cmp -s "$work/out" "$work/a.summary" ||
    fail "the image alone no longer reads its own topology"

# 2. Two readers of the archive and one of its image, while a writer rewrites
#    both (discover --index: the archive, then the image beside it).
d="$work/live"
mkdir "$d"
"$discover" -q -i "$work/a.xml" -o "$d/c.xml" --index
# reader NAME INPUT: reads INPUT until the writer is done; one line per read
# in $work/NAME.log: "a", "b", or "bad ..." with what it got.
reader() {
    local name="$1" input="$2" code
    while [[ ! -e "$work/done" ]]; do
        code=0
        "$query" -i "$input" summary >"$work/$name.out" 2>"$work/$name.err" || code=$?
        if [[ $code -ne 0 ]]; then
            echo "bad exit $code: $(head -c 300 "$work/$name.err")"
        elif grep -v "no longer stands for" "$work/$name.err" | grep -q .; then
            echo "bad stderr: $(head -c 300 "$work/$name.err")"
        elif cmp -s "$work/$name.out" "$work/a.summary"; then
            echo a
        elif cmp -s "$work/$name.out" "$work/b.summary"; then
            echo b
        else
            echo "bad summary: $(head -c 300 "$work/$name.out" | tr '\n' ' ')"
        fi
    done >"$work/$name.log"
}
reader archive1 "$d/c.xml" &
r1=$!
reader archive2 "$d/c.xml" &
r2=$!
reader image "$d/c.ntimg" &
r3=$!
for ((i = 0; i < rewrites; i++)); do
    source_file="$work/a.xml"
    [[ $((i % 2)) -eq 0 ]] && source_file="$work/b.xml"
    "$discover" -q -i "$source_file" -o "$d/c.xml" --index || fail "rewrite $i failed"
done
touch "$work/done"
wait "$r1" "$r2" "$r3"
for name in archive1 archive2 image; do
    reads=$(wc -l <"$work/$name.log")
    a=$(grep -c '^a$' "$work/$name.log" || true)
    b=$(grep -c '^b$' "$work/$name.log" || true)
    echo "$name reader: $reads reads during $rewrites rewrites: $a of one topology, $b of the other"
    if grep -q '^bad' "$work/$name.log"; then
        fail "$name reader saw a broken topology: $(grep -m3 '^bad' "$work/$name.log")"
    elif [[ $a -eq 0 || $b -eq 0 ]]; then
        fail "$name reader did not see both topologies (the test raced nothing)"
    else
        pass "$name reader: every read whole"
    fi
done
[[ -z "$(find "$d" -name '*.tmp.*')" ]] || fail "temporaries left: $(find "$d" -name '*.tmp.*')"

if [[ $failures -gt 0 ]]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "all checks passed"
