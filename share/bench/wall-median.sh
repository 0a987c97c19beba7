#!/usr/bin/env bash
# wall-median.sh RUNS COMMAND [ARG]...: runs COMMAND RUNS times (its output
# thrown away) and prints the median, the minimum and the maximum of its
# whole-process wall time in ms, from date +%s%N around each run (a process
# start included: what a job script pays). For timings too short for
# /usr/bin/time's 10 ms (issue 26 part 7, share/doc/benchmarks.md).
set -euo pipefail
runs=$1
shift
times=()
for ((i = 0; i < runs; i++)); do
    start=$(date +%s%N)
    "$@" >/dev/null
    end=$(date +%s%N)
    times+=($(((end - start) / 1000)))
done
printf '%s\n' "${times[@]}" | sort -n | awk -v cmd="$*" '
    { t[NR] = $1 }
    END {
        m = NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2
        printf "%s: median %.1f ms, min %.1f, max %.1f (%d runs)\n", cmd, m / 1000, t[1] / 1000, t[NR] / 1000, NR
    }'
