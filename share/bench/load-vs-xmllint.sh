#!/usr/bin/env bash
# load-vs-xmllint.sh QUERY ARCHIVE... : for each archive, ROUNDS (3) rounds of
# `xmllint --huge --noout` and of QUERY (a nettopo-query) loading it and
# printing its link count, one after the other in each round (issue 25's
# bound: the load within 3x xmllint, measured in one run). Prints wall,
# user and system seconds and the peak RSS of each, and the ratios of the
# round's wall and CPU (user + sys) times.
set -euo pipefail
query=$1
shift
for archive in "$@"; do
    if [ -e "${archive%.xml}.ntimg" ]; then
        echo "$archive has an image beside it: the load would read the image" >&2
        exit 2
    fi
    for round in $(seq "${ROUNDS:-3}"); do
        x=$(/usr/bin/time -f "%e %U %S %M" xmllint --huge --noout "$archive" 2>&1 >/dev/null)
        q=$(/usr/bin/time -f "%e %U %S %M" "$query" -i "$archive" num-links 2>&1 >/dev/null)
        read -r xw xu xs xm <<<"$x"
        read -r qw qu qs qm <<<"$q"
        awk -v a="$archive" -v r="$round" -v xw="$xw" -v xu="$xu" -v xs="$xs" -v xm="$xm" \
            -v qw="$qw" -v qu="$qu" -v qs="$qs" -v qm="$qm" 'BEGIN {
            printf "%s round %d: xmllint %.2f s (cpu %.2f) %d KB | load %.2f s (cpu %.2f) %d KB | wall %.1fx cpu %.1fx\n",
                a, r, xw, xu + xs, xm, qw, qu + qs, qm, qw / xw, (qu + qs) / (xu + xs) }'
    done
done
