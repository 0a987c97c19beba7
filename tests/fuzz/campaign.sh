#!/usr/bin/env bash
# A campaign: one target fuzzed (run_fuzz.sh, going on past findings) until
# it has had CPU_SECONDS of processor time, in runs of at most CHUNK seconds
# that share WORK_DIR's corpus. Processor time, not wall time, is what is
# counted, so a campaign run niced beside other work still fuzzes as long as
# it says. Each run's time (wall and CPU, from /usr/bin/time) and libFuzzer's
# last status line (executions, cov, ft, corpus, oom/timeout/crash) is
# appended to WORK_DIR/campaigns.log, one line per run:
#
#   TARGET wall=S cpu=S  #EXECS: cov: N ft: N corp: N ... oom/timeout/crash: a/b/c ...
#
# Usage: campaign.sh FUZZER TARGET CPU_SECONDS WORK_DIR [CHUNK]
# e.g. the 30 minutes of share/doc/robustness.md, beside other work:
#   nice -n 19 tests/fuzz/campaign.sh build/fuzz/bin/fuzz_slurm slurm 1800 build/fuzz/fuzz-work
set -euo pipefail
fuzzer=$1 target=$2 budget=$3 work=$4 chunk=${5:-600}
# One input's limit, wall seconds: a niced campaign may get a few percent of
# a core while other work runs, and run_fuzz.sh's 25 s would report inputs
# that take 0.5 s alone as timeouts. Each timeout it reports is to be run
# alone (fuzz_TARGET FILE) before it is called a finding.
timeout=${NETTOPO_FUZZ_TIMEOUT:-300}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
spent=0
while [ "$spent" -lt "$budget" ]; do
    left=$((budget - spent))
    seconds=$((left < chunk ? left : chunk))
    [ "$seconds" -lt 10 ] && seconds=10
    log="$work/$target-campaign.out"
    /usr/bin/time -f "%e %U %S" -o "$work/$target.time" \
        "$here/run_fuzz.sh" "$fuzzer" "$target" "$seconds" "$work" \
        -fork=1 -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1 -timeout="$timeout" \
        >"$log" 2>&1 || true
    # The last line: /usr/bin/time puts "Command exited with non-zero status
    # N" before it when libFuzzer stops on a finding it does not ignore.
    read -r wall user sys < <(tail -n 1 "$work/$target.time")
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%d", u + s + 0.5 }')
    # A run that used no processor time would loop for ever: stop and say so.
    if [ "$cpu" -lt 1 ]; then
        echo "campaign.sh: $target used no CPU time; see $log" >&2
        exit 1
    fi
    spent=$((spent + cpu))
    status=$(grep -a '^#[0-9]' "$log" | tail -n 1 || true)
    echo "$target wall=$wall cpu=$cpu  $status" >>"$work/campaigns.log"
done
