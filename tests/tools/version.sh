#!/usr/bin/env bash
# tools.version: every tool's --version prints "nettopo-<tool> <version>" then
# "hwloc <version>" and exits 0; the version is project(VERSION) of the top
# CMakeLists.txt, and hwloc's is the library's (pkg-config's, when it knows).
#
# Usage: version.sh BIN_DIR PROJECT_ROOT
set -euo pipefail

# shellcheck source=common.sh
source "$(dirname "$0")/common.sh" version "$@"

version=$(sed -nE 's/^project\(nettopo VERSION ([0-9]+\.[0-9]+\.[0-9]+).*/\1/p' "$root/CMakeLists.txt")
[[ -n "$version" ]] || { echo "FAIL: no project(nettopo VERSION x.y.z) in $root/CMakeLists.txt"; exit 1; }
hwloc_version=$(pkg-config --modversion hwloc 2>/dev/null || true)

for tool in nettopo-query nettopo-discover nettopo-gen nettopo-bench nettopo-balance; do
    code=0
    "$bin/$tool" --version >"$work/out" 2>"$work/err" </dev/null || code=$?
    mapfile -t lines <"$work/out"
    if [[ $code -ne 0 ]]; then
        fail "$tool --version: exit $code; stderr: $(cat "$work/err")"
    elif [[ ${#lines[@]} -ne 2 || -s "$work/err" ]]; then
        fail "$tool --version: ${#lines[@]} lines (expected 2), stderr '$(cat "$work/err")': $(cat "$work/out")"
    elif [[ "${lines[0]}" != "$tool $version" ]]; then
        fail "$tool --version: first line '${lines[0]}', expected '$tool $version'"
    elif ! [[ "${lines[1]}" =~ ^hwloc\ ([0-9]+\.[0-9]+\.[0-9]+)$ ]]; then
        fail "$tool --version: second line '${lines[1]}', expected 'hwloc X.Y.Z'"
    elif [[ -n "$hwloc_version" && "${BASH_REMATCH[1]}" != "$hwloc_version" ]]; then
        fail "$tool --version: hwloc ${BASH_REMATCH[1]}, pkg-config says $hwloc_version"
    else
        echo "ok:   $tool --version: ${lines[*]}"
    fi
done

if [[ $failures -gt 0 ]]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "all checks passed"
