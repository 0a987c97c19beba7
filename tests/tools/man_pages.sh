#!/usr/bin/env bash
# tools.man_pages: every page in man/ renders without a groff warning or
# error, names in its SEE ALSO only pages that exist (in man/, or known
# pages of other packages), and every tool under tools/nettopo-* has a page.
# Needs groff (Debian package groff-base); without it the check is skipped
# with exit status 77, CTest's skip code (SKIP_RETURN_CODE in tests/CMakeLists.txt).
#
# Usage: man_pages.sh BIN_DIR PROJECT_ROOT
set -euo pipefail

# shellcheck source=common.sh
source "$(dirname "$0")/common.sh" man "$@"

if ! command -v groff >/dev/null 2>&1; then
    echo "SKIP: groff is not installed (Debian package groff-base); the man pages are not checked"
    exit 77
fi

# Pages of other packages that a SEE ALSO may name.
external_pages=(lstopo.1 hwloc.7 hwloc-calc.1 hwloc-info.1 hwloc-diff.1 ibnetdiscover.8
    slurm.conf.5 topology.conf.5 mpirun.1 taskset.1 numactl.8 dot.1 pkg-config.1 cmake.1
    xmllint.1)
external=" ${external_pages[*]} "

shopt -s nullglob
pages=("$root"/man/*.[1-9])
[[ ${#pages[@]} -gt 0 ]] || fail "no man page in $root/man"

for page in "${pages[@]}"; do
    name=$(basename "$page")

    # 1. groff renders it with every warning enabled, and says nothing.
    code=0
    groff -man -ww -z -Tutf8 "$page" >"$work/out" 2>&1 || code=$?
    if [[ $code -ne 0 || -s "$work/out" ]]; then
        fail "$name: groff (exit $code): $(cat "$work/out")"
    else
        echo "ok:   $name renders without warnings"
    fi

    # 2. The .TH line names the page as its file does: NAME.SECTION.
    th=$(grep -m1 '^\.TH ' "$page" || true)
    read -r _ title section _ <<<"$th"
    stem=${name%.*}
    if [[ "$title" != "${stem^^}" || "$section" != "${name##*.}" ]]; then
        fail "$name: '.TH $title $section' does not match the file name"
    fi

    # 3. SEE ALSO exists and names only pages that exist.
    if ! grep -q '^\.SH SEE ALSO' "$page"; then
        fail "$name: no SEE ALSO section"
        continue
    fi
    # The section's lines up to the next .SH, with the roff escapes that may
    # sit inside a reference removed (\- \& \fB \f(CR) and the macro name dropped.
    refs=$(sed -n '/^\.SH SEE ALSO/,/^\.SH /{/^\.SH /d;p}' "$page" |
        sed -e 's/\\-/-/g' -e 's/\\&//g' -e 's/\\f([A-Z][A-Z]//g' -e 's/\\f[A-Z]//g' \
            -e 's/^\.[A-Z]* *//' -e 's/"//g' |
        grep -oE '[A-Za-z0-9_.:+-]+ ?\([1-9][a-z]*\)' | tr -d ' ' || true)
    if [[ -z "$refs" ]]; then
        fail "$name: SEE ALSO names no page"
        continue
    fi
    bad=0
    while read -r ref; do
        target=${ref%%(*}
        sec=${ref#*(}
        sec=${sec%)}
        if [[ "$target.$sec" == "$name" ]]; then
            fail "$name: SEE ALSO names the page itself"
            bad=1
        elif [[ ! -f "$root/man/$target.$sec" && "$external" != *" $target.$sec "* ]]; then
            fail "$name: SEE ALSO names $ref, which is neither in man/ nor a known external page"
            bad=1
        fi
    done <<<"$refs"
    if [[ $bad -eq 0 ]]; then
        echo "ok:   $name SEE ALSO: $(tr '\n' ' ' <<<"$refs")"
    fi
done

# 4. Every tool has a page in section 1.
for dir in "$root"/tools/nettopo-*/; do
    tool=$(basename "$dir")
    if [[ -f "$root/man/$tool.1" ]]; then
        echo "ok:   $tool has man/$tool.1"
    else
        fail "$tool has no man page (man/$tool.1)"
    fi
done

if [[ $failures -gt 0 ]]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "all checks passed"
