#!/usr/bin/env bash
# tools.env_archive: where nettopo-query reads its topology when -i is not
# given: $NETTOPO_ARCHIVE, else ./net_topo.xml, else this machine
# (lib/include/nettopo/tool_support.hpp, default_input()).
#
# Usage: env_archive.sh BIN_DIR PROJECT_ROOT
set -euo pipefail

# shellcheck source=common.sh
source "$(dirname "$0")/common.sh" env "$@"
query="$bin/nettopo-query"
discover="$bin/nettopo-discover"
inputs="$root/tests/golden/inputs"


# expect WHAT WANT_CODE WANT_STDOUT DIR [VAR=VALUE...] -- ARGS...
# Runs nettopo-query in DIR with NETTOPO_ARCHIVE unset, then the given
# variables set, and compares exit status and standard output.
expect() {
    local what="$1" want_code="$2" want_out="$3" dir="$4"
    shift 4
    local vars=()
    while [[ $# -gt 0 && "$1" != -- ]]; do vars+=("$1"); shift; done
    shift
    local code=0 out
    out=$(cd "$dir" && env -u NETTOPO_ARCHIVE "${vars[@]+"${vars[@]}"}" "$query" "$@" 2>"$work/stderr" </dev/null) ||
        code=$?
    if [[ "$code" != "$want_code" || ( -n "$want_out" && "$out" != "$want_out" ) ]]; then
        fail "$what: exit $code, stdout '$out' (expected exit $want_code, stdout '$want_out'); stderr: $(cat "$work/stderr")"
    else
        echo "ok:   $what"
    fi
}

"$discover" -q -i "$inputs/fig9b.topo" -o "$work/fig9b.xml"  # 12 PEs
"$discover" -q -i "$inputs/ring4.topo" -o "$work/ring4.xml"  #  8 PEs
mkdir "$work/empty" "$work/with-default"
cp "$work/ring4.xml" "$work/with-default/net_topo.xml"

expect "NETTOPO_ARCHIVE=<archive> num-pes" 0 12 "$work/empty" \
    NETTOPO_ARCHIVE="$work/fig9b.xml" -- num-pes
grep -q '"name":"fig9b"' <<<"$(cd "$work/empty" && NETTOPO_ARCHIVE="$work/fig9b.xml" "$query" --json summary)" ||
    fail "NETTOPO_ARCHIVE: summary does not name fig9b"
expect "NETTOPO_ARCHIVE=<description file> num-pes" 0 8 "$work/empty" \
    NETTOPO_ARCHIVE="$inputs/ring4.topo" -- num-pes
expect "./net_topo.xml in the working directory" 0 8 "$work/with-default" -- num-pes
expect "./net_topo.xml: distance(m0, m1) by the detour" 0 15 "$work/with-default" -- distance 0 2
expect "NETTOPO_ARCHIVE wins over ./net_topo.xml" 0 12 "$work/with-default" \
    NETTOPO_ARCHIVE="$work/fig9b.xml" -- num-pes
expect "an empty NETTOPO_ARCHIVE falls back to ./net_topo.xml" 0 8 "$work/with-default" \
    NETTOPO_ARCHIVE= -- num-pes
expect "-i wins over NETTOPO_ARCHIVE and ./net_topo.xml" 0 12 "$work/with-default" \
    NETTOPO_ARCHIVE="$work/ring4.xml" -- -i "$work/fig9b.xml" num-pes
expect "NETTOPO_ARCHIVE naming a missing file: exit 1" 1 "" "$work/with-default" \
    NETTOPO_ARCHIVE="$work/missing.xml" -- num-pes
grep -q "missing.xml: no such file (named by \$NETTOPO_ARCHIVE)" "$work/stderr" ||
    fail "the error does not name the missing archive and the variable: $(cat "$work/stderr")"
# Neither: this machine, through hwloc: one machine, at least one PE, and a
# note on stderr (no silent fallback in a job script) that -q leaves out.
expect "no NETTOPO_ARCHIVE, no ./net_topo.xml: this machine" 0 1 "$work/empty" -- num-machines
# (hwloc may add its own complaints, e.g. in a chroot without /sys.)
note="nettopo-query: no topology given (-i, \$NETTOPO_ARCHIVE or ./net_topo.xml): answering about this machine"
grep -qxF "$note" "$work/stderr" ||
    fail "reading this machine for want of a topology is not said on stderr: '$(cat "$work/stderr")'"
expect "-q: this machine, no note on stderr" 0 1 "$work/empty" -- -q num-machines
! grep -q "nettopo-query" "$work/stderr" || fail "-q still wrote a note on stderr: '$(cat "$work/stderr")'"
expect "a topology found: nothing on stderr" 0 8 "$work/with-default" -- num-pes
[[ ! -s "$work/stderr" ]] || fail "a found topology wrote on stderr: '$(cat "$work/stderr")'"

# -i takes an hwloc synthetic description, as lstopo -i does, when it names no
# file; hwloc-calc counts the PUs and cores of the same string.
synthetic="pack:2 l3:1 core:4 pu:2"
if command -v hwloc-calc >/dev/null; then
    expect "-i '$synthetic': its PUs, as hwloc-calc counts them" 0 \
        "$(hwloc-calc -i "$synthetic" -N pu all)" "$work/empty" -- -i "$synthetic" num-pes
    expect "-i '$synthetic': its cores are nodes at the core level" 0 \
        "$(hwloc-calc -i "$synthetic" -N core all)" "$work/empty" -- -i "$synthetic" --node-level core num-nodes
fi
expect "-i a synthetic description with an unknown type: exit 1" 1 "" "$work/empty" -- -i "pack:2 bogus:4" num-pes
grep -q "'pack:2 bogus:4': no such file, nor an hwloc synthetic description: unknown object type 'bogus'" "$work/stderr" ||
    fail "a bad synthetic description is not explained: $(cat "$work/stderr")"
expect "-i a missing file without ':' is still a missing file" 1 "" "$work/empty" -- -i nofile.xml num-pes
grep -q "nofile.xml: cannot read" "$work/stderr" || fail "missing file: $(cat "$work/stderr")"

if [[ $failures -gt 0 ]]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "all checks passed"
