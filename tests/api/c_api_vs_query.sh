#!/usr/bin/env bash
# api.c_api_vs_query.*: the C API answers what nettopo-query answers.
# `c_api_test --print TABLE FILE` lists the queries of one of its tables with
# the C API's answers; each query is asked again of nettopo-query on the same
# file and the two answers compared, numbers by value (the test prints them
# with 17 digits, the tool in shortest form), words as text.
#
# Usage: c_api_vs_query.sh C_API_TEST NETTOPO_QUERY TABLE FILE
set -euo pipefail
set -f # queries hold hostlists ('node[03,01]'): words, not file patterns
[[ $# -eq 4 ]] || { echo "usage: $0 C_API_TEST NETTOPO_QUERY TABLE FILE" >&2; exit 2; }
capi=$1 query=$2 table=$3 file=$4

# same A B: the two answers (values separated by spaces or ';') are equal.
same() {
    awk -v a="$1" -v b="$2" 'BEGIN {
        na = split(a, x, /[ ;]/); nb = split(b, y, /[ ;]/)
        if (na != nb) exit 1
        num = "^[-+]?[0-9.]+([eE][-+]?[0-9]+)?$"
        for (i = 1; i <= na; i++)
            if (x[i] ~ num && y[i] ~ num) { if (x[i] + 0 != y[i] + 0) exit 1 }
            else if (x[i] != y[i]) exit 1
    }'
}

answers=$("$capi" --print "$table" "$file")
asked=0 failures=0
while IFS=$'\t' read -r q capi_answer; do
    # shellcheck disable=SC2086 # the query is words: a sub-command and its arguments
    tool_answer=$("$query" -i "$file" $q | paste -sd ';' -)
    if ! same "$capi_answer" "$tool_answer"; then
        echo "FAIL: $q: nettopo-query '$tool_answer', C API '$capi_answer'"
        failures=$((failures + 1))
    fi
    asked=$((asked + 1))
done <<<"$answers"
[[ $asked -gt 0 ]] || { echo "FAIL: c_api_test printed no queries"; exit 1; }
echo "$asked queries, $failures different"
[[ $failures -eq 0 ]]
