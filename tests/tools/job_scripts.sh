#!/usr/bin/env bash
# tools.job_scripts: every recipe of share/doc/job-scripts.md still prints
# what the page says. A recipe is a ```sh block preceded by a line
# `<!-- recipe: NAME -->`; the ```text block right after it is its expected
# stdout. Each runs with bash in its own scratch folder holding the page's
# inputs (cluster.topo, today.topo, gpu-node.xml), the tools first in PATH; a recipe fails
# on a nonzero exit or on any difference (shown as a diff).
#
# Usage: job_scripts.sh BIN_DIR PROJECT_ROOT [DOC]   (DOC: another page, for
# checking that a changed output line fails)
set -euo pipefail

# shellcheck source=common.sh
source "$(dirname "$0")/common.sh" jobscripts "$1" "$2"
doc="${3:-$root/share/doc/job-scripts.md}"
inputs="$root/tests/golden/inputs"

# Split the page into $work/recipes/NAME.sh and NAME.out.
mkdir -p "$work/recipes"
awk -v dir="$work/recipes" '
    /^<!-- recipe: [A-Za-z0-9_.-]+ -->$/ { name = $3; state = "want_sh"; next }
    state == "want_sh" && /^```sh$/      { state = "sh"; printf "" > (dir "/" name ".sh"); next }
    state == "sh" && /^```$/             { state = "want_text"; next }
    state == "sh"                        { print > (dir "/" name ".sh"); next }
    state == "want_text" && /^```text$/  { state = "text"; printf "" > (dir "/" name ".out"); next }
    state == "want_text" && /^$/         { next }
    state == "want_text"                 { print "recipe " name ": no ```text block after its ```sh block" > "/dev/stderr"; exit 1 }
    state == "text" && /^```$/           { state = ""; print name > (dir "/list"); next }
    state == "text"                      { print > (dir "/" name ".out"); next }
    END { if (state != "") { print "recipe " name ": unterminated block" > "/dev/stderr"; exit 1 } }
' "$doc"

[[ -s "$work/recipes/list" ]] || { echo "FAIL: no recipes found in $doc"; exit 1; }

while read -r name; do
    dir="$work/run-$name"
    mkdir -p "$dir"
    cp "$inputs/fattree.topo" "$dir/cluster.topo"
    cp "$inputs/fattree-today.topo" "$dir/today.topo"
    gpu_node="$root/../shared/data/hwloc-xml/ipa20-snc4-4xH100.xml"
    if [[ -f "$gpu_node" ]]; then cp "$gpu_node" "$dir/gpu-node.xml"; fi
    code=0
    (cd "$dir" && env -u SLURM_JOB_NODELIST -u PBS_NODEFILE -u NETTOPO_ARCHIVE \
        PATH="$bin:$PATH" bash "$work/recipes/$name.sh") \
        >"$work/$name.got" 2>"$work/$name.err" </dev/null || code=$?
    if [[ $code -ne 0 ]]; then
        fail "recipe $name: exit $code; stderr: $(cat "$work/$name.err")"
    elif ! diff -u "$work/recipes/$name.out" "$work/$name.got" >"$work/$name.diff"; then
        fail "recipe $name: output differs from the page (--- page, +++ run):"
        cat "$work/$name.diff"
    else
        echo "ok:   recipe $name"
    fi
done <"$work/recipes/list"

if [[ $failures -ne 0 ]]; then
    echo "$failures recipe(s) failed"
    exit 1
fi
echo "all recipes of $(basename "$doc") print what the page says"
