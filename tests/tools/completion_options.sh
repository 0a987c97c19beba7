#!/usr/bin/env bash
# tools.completion_options: the shell completion (share/completion/nettopo.bash)
# offers every long option each tool's --help lists, and each of its
# subcommands' --help: an option added to a tool and forgotten in its
# completion fails here. The tool's completion function
# is _nettopo_<tool>; an option counts as offered when the function's text
# holds it.
#
# Usage: completion_options.sh BIN_DIR PROJECT_ROOT
set -euo pipefail

# shellcheck source=common.sh
source "$(dirname "$0")/common.sh" completion-options "$@"

completion="$root/share/completion/nettopo.bash"
for tool in query discover gen bench balance; do
    body=$(awk -v head="_nettopo_$tool() {" '$0 == head {inside = 1} inside {print} inside && /^}/ {exit}' \
        "$completion")
    if [[ -z $body ]]; then
        fail "nettopo-$tool: no _nettopo_$tool in $completion"
        continue
    fi
    # The tool's options and its subcommands' (nettopo-bench's are all theirs).
    help=$("$bin/nettopo-$tool" --help)
    # nettopo-gen's families complete from `nettopo-gen --completion-lists`
    # at run time (tools.gen_registry checks those): its own options only.
    subs=$(sed -n '/^Subcommands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p' <<<"$help")
    [[ $tool == gen ]] && subs=""
    for sub in $subs; do
        help+=$'\n'$("$bin/nettopo-$tool" "$sub" --help)
    done
    options=$(grep -oE '^ +(-[a-zA-Z],)?--[a-z][a-z0-9-]*' <<<"$help" |
        grep -oE -- '--[a-z][a-z0-9-]*' | sort -u)
    [[ $(wc -l <<<"$options") -ge 5 ]] || { fail "nettopo-$tool: --help lists too few options"; continue; }
    missing=()
    for option in $options; do
        grep -qe "$option" <<<"$body" || missing+=("$option")
    done
    [[ ${#missing[@]} -eq 0 ]] && pass "nettopo-$tool: all $(wc -l <<<"$options") options offered" ||
        fail "nettopo-$tool: the completion does not offer ${missing[*]}"
done
# A test that cannot fail is a defect: an option the completion lacks is found.
body=$(awk '$0 == "_nettopo_balance() {" {inside = 1} inside {print} inside && /^}/ {exit}' \
    "$completion" | sed 's/--mpi//g')
grep -qe "--mpi" <<<"$body" && fail "the self-check removed nothing" ||
    pass "self-check: a completion without --mpi would be caught"
if [[ $failures -gt 0 ]]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "all checks passed"
