#!/usr/bin/env bash
# Generates the bash completion of the tools from their own option tables
# (tools/common/completion_table.hpp): engine.bash, then for each tool a
# function holding what `TOOL --completion-table` prints. Run by the build
# (tools/CMakeLists.txt), so the completion always matches the tools built.
#
# Usage: generate.sh BIN_DIR OUTPUT
set -euo pipefail
bin=$1 out=$2
here=$(dirname "$0")
tmp=$(mktemp "$out.XXXXXX")
trap 'rm -f "$tmp"' EXIT
{
    cat "$here/engine.bash"
    for tool in query discover gen bench balance; do
        table=$("$bin/nettopo-$tool" --completion-table)
        [[ -n $table ]] || { echo "generate.sh: nettopo-$tool printed no table" >&2; exit 1; }
        [[ $table != *"'"* ]] || { echo "generate.sh: nettopo-$tool's table holds a quote" >&2; exit 1; }
        printf "\n_nettopo_%s() {\n    _nettopo_complete '\n%s\n'\n}\ncomplete -F _nettopo_%s nettopo-%s\n" \
            "$tool" "$table" "$tool" "$tool"
    done
} >"$tmp"
chmod 644 "$tmp"
mv "$tmp" "$out"
trap - EXIT
