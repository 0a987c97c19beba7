#!/usr/bin/env bash
# tools.job_env: nettopo-query --job reads the allocation from the job's
# environment: $SLURM_JOB_NODELIST (a hostlist), else the host file named
# by $PBS_NODEFILE (one line per slot); neither set is a usage error (2).
#
# Usage: job_env.sh BIN_DIR PROJECT_ROOT
set -euo pipefail

# shellcheck source=common.sh
source "$(dirname "$0")/common.sh" job "$@"
query="$bin/nettopo-query"
inputs="$root/tests/golden/inputs"

# expect WHAT WANT_CODE WANT_STDOUT [VAR=VALUE...] -- ARGS...
expect() {
    local what="$1" want_code="$2" want_out="$3"
    shift 3
    local vars=()
    while [[ $# -gt 0 && "$1" != -- ]]; do vars+=("$1"); shift; done
    shift
    local code=0 out
    out=$(env -u SLURM_JOB_NODELIST -u PBS_NODEFILE -u NETTOPO_ARCHIVE "${vars[@]+"${vars[@]}"}" \
        "$query" -i "$inputs/fattree.topo" "$@" 2>"$work/stderr" </dev/null) || code=$?
    if [[ "$code" != "$want_code" || "$out" != "$want_out" ]]; then
        fail "$what: exit $code, stdout '$out' (expected exit $want_code, stdout '$want_out'); stderr: $(cat "$work/stderr")"
    else
        echo "ok:   $what"
    fi
}

expect "SLURM_JOB_NODELIST: view PE 0 is n06's first" 0 n06 \
    SLURM_JOB_NODELIST='n[06,03]' -- --job machine-of 0
expect "SLURM_JOB_NODELIST: view PE 16 is n03's first" 0 n03 \
    SLURM_JOB_NODELIST='n[06,03]' -- --job machine-of 16
expect "SLURM_JOB_NODELIST: 32 PEs" 0 32 SLURM_JOB_NODELIST='n[06,03]' -- --job num-pes
expect "PBS_NODEFILE: hosts once each, first-line order" 0 "n02" \
    PBS_NODEFILE="$inputs/jobs/pbs.nodefile" -- --job machine-of 0
expect "PBS_NODEFILE: 3 machines" 0 3 PBS_NODEFILE="$inputs/jobs/pbs.nodefile" -- --job num-machines
expect "SLURM_JOB_NODELIST wins over PBS_NODEFILE" 0 2 SLURM_JOB_NODELIST='n[06,03]' \
    PBS_NODEFILE="$inputs/jobs/pbs.nodefile" -- --job num-machines
expect "an empty SLURM_JOB_NODELIST falls back to PBS_NODEFILE" 0 3 SLURM_JOB_NODELIST= \
    PBS_NODEFILE="$inputs/jobs/pbs.nodefile" -- --job num-machines
expect "neither set: usage error" 2 "" -- --job num-pes
grep -q "neither SLURM_JOB_NODELIST nor PBS_NODEFILE" "$work/stderr" ||
    fail "neither set: the message does not name the variables"
expect "a PBS_NODEFILE that does not exist: bad data" 1 "" PBS_NODEFILE="$work/none" -- --job num-pes
expect "a host of SLURM_JOB_NODELIST not in the cluster: bad data" 1 "" \
    SLURM_JOB_NODELIST='n[08-09]' -- --job num-pes
grep -q '\$SLURM_JOB_NODELIST: a host is not in the cluster: n09; known machines: n\[01-08\]' "$work/stderr" ||
    fail "unknown host: the message does not name the variable and the host: $(cat "$work/stderr")"
# A host file names the line of the first host not in the cluster (issue 25).
expect "a host of PBS_NODEFILE not in the cluster: bad data" 1 "" \
    PBS_NODEFILE="$inputs/jobs/typo.hosts" -- --job num-pes
grep -q "typo.hosts:5: host 'n0l' is not in the cluster (nor are 2 more, from line 7: n\[12,09\]); did you mean n01?" "$work/stderr" ||
    fail "unknown host of PBS_NODEFILE: no file, line and suggestion: $(cat "$work/stderr")"

[[ $failures -eq 0 ]] || { echo "$failures check(s) failed"; exit 1; }
echo "all checks passed"
