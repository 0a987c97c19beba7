#!/usr/bin/env bash
# tools.limits_env: the declared limits (share/doc/limits.md) as the tools
# raise them: NETTOPO_MAX_VERTICES and NETTOPO_MAX_LINKS at the limit and one
# past it, a bad value (exit 2), and nettopo-gen's memory estimate, refused at
# once and lifted by --force (issue 15, finding G1).
#
# Usage: limits_env.sh BIN_DIR PROJECT_ROOT
set -euo pipefail

# shellcheck source=common.sh
source "$(dirname "$0")/common.sh" limits "$@"

# expect WHAT WANT_CODE WANT_STDERR_PART [VAR=VALUE...] -- COMMAND...
expect() {
    local what="$1" want_code="$2" want_err="$3"
    shift 3
    local vars=()
    while [[ $# -gt 0 && "$1" != -- ]]; do vars+=("$1"); shift; done
    shift
    local code=0
    env -u NETTOPO_MAX_VERTICES -u NETTOPO_MAX_LINKS "${vars[@]+"${vars[@]}"}" "$@" \
        >"$work/stdout" 2>"$work/stderr" </dev/null || code=$?
    if [[ "$code" != "$want_code" ]] || { [[ -n "$want_err" ]] && ! grep -qF -- "$want_err" "$work/stderr"; }; then
        fail "$what: exit $code, stderr '$(cat "$work/stderr")' (expected exit $want_code and '$want_err')"
    else
        echo "ok:   $what"
    fi
}

# 4 machines, 1 switch, 4 links.
printf 'machines n[0-3] pu:1\nswitch s\nlink n0 s 1\nlink n1 s 1\nlink n2 s 1\nlink n3 s 1\n' \
    >"$work/star.topo"
q=("$bin/nettopo-query" -i "$work/star.topo" summary)
expect "5 vertices at NETTOPO_MAX_VERTICES=5" 0 "" NETTOPO_MAX_VERTICES=5 -- "${q[@]}"
expect "5 vertices past NETTOPO_MAX_VERTICES=4" 1 \
    "star.topo:2: machines and switches: 5, more than the limit of 4 (set NETTOPO_MAX_VERTICES" \
    NETTOPO_MAX_VERTICES=4 -- "${q[@]}"
expect "4 links at NETTOPO_MAX_LINKS=4" 0 "" NETTOPO_MAX_LINKS=4 -- "${q[@]}"
expect "4 links past NETTOPO_MAX_LINKS=3" 1 \
    "star.topo:6: links: 4, more than the limit of 3 (set NETTOPO_MAX_LINKS" \
    NETTOPO_MAX_LINKS=3 -- "${q[@]}"
expect "NETTOPO_MAX_VERTICES=0 is bad usage" 2 "NETTOPO_MAX_VERTICES='0'" \
    NETTOPO_MAX_VERTICES=0 -- "${q[@]}"
expect "NETTOPO_MAX_LINKS=x is bad usage" 2 "NETTOPO_MAX_LINKS='x'" NETTOPO_MAX_LINKS=x -- "${q[@]}"

# Slurm: names per file, raised by the same variable.
printf 'SwitchName=s0 Nodes=n[0-3]\nSwitchName=s1 Nodes=m[0-3]\nSwitchName=t Switches=s[0-1]\n' \
    >"$work/two.conf"
d=("$bin/nettopo-discover" -q --slurm "$work/two.conf" --default-machine pu:1 -o "$work/o.xml")
# 10 names (with s[0-1]), 11 vertices: at the vertex limit (the names' own
# limit at its value is tests/unit/support/test_limits.cpp's).
expect "10 Slurm names, 11 vertices, at NETTOPO_MAX_VERTICES=11" 0 "" NETTOPO_MAX_VERTICES=11 -- "${d[@]}"
expect "10 Slurm names past NETTOPO_MAX_VERTICES=9" 1 \
    "two.conf:3: names in this file's hostlists: 10, more than the limit of 9" \
    NETTOPO_MAX_VERTICES=9 -- "${d[@]}"

# nettopo-gen: sizes by the variables, the memory estimate by --force.
g=("$bin/nettopo-gen" ring --machines 16 --machine pu:1 -q -o "$work/r.xml")
expect "gen ring 16 at NETTOPO_MAX_VERTICES=16" 0 "" NETTOPO_MAX_VERTICES=16 -- "${g[@]}"
expect "gen ring 16 past NETTOPO_MAX_VERTICES=15" 2 \
    "machines and switches: 16, more than the limit of 15" NETTOPO_MAX_VERTICES=15 -- "${g[@]}"
expect "gen ring 16 past NETTOPO_MAX_VERTICES=15, --force" 0 "" NETTOPO_MAX_VERTICES=15 -- \
    "${g[@]}" --force
# complete --machines 30000: 449,985,000 links, about 54 GiB estimated.
start=$(date +%s%N)
expect "gen complete 30000 refused at once by its estimate" 2 "--force generates it anyway" \
    NETTOPO_MAX_LINKS=2147483647 -- "$bin/nettopo-gen" complete --machines 30000 -q -o "$work/c.xml"
elapsed_ms=$((($(date +%s%N) - start) / 1000000))
[[ $elapsed_ms -lt 2000 ]] || fail "the refusal took $elapsed_ms ms"
[[ ! -e "$work/c.xml" ]] || fail "a refused generation wrote $work/c.xml"

if [[ $failures -gt 0 ]]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "all checks passed"
