#!/usr/bin/env bash
# mpi.balance: nettopo-balance --mpi under mpirun, one rank per PE, on the Net
# Topo thesis' 12 PEs and, but under a sanitizer, on 32 PEs of a generated
# torus (exit 0, a run that moves tasks):
#  - NeighborLB's protocol (nettopo's neighbourhood and Charm++'s
#    torus_nd_5) and the gossip protocols' per-PE programs (grapevine,
#    grapevine-6.8, packdrop, packdrop-sbac, which the simulator runs in one
#    process) must end with the simulator's mapping, message count and
#    migrations, exactly.
# A job whose size is not the number of PEs, two strategies, a centralised
# strategy or an unknown option is a usage error (exit 2) named by rank 0.
#
# Usage: mpi_balance.sh BIN_DIR PROJECT_ROOT. Exit 77 (skipped) without
# mpirun.
set -euo pipefail
[[ $# -eq 2 ]] || { echo "usage: $0 BIN_DIR PROJECT_ROOT" >&2; exit 2; }
# shellcheck source=../tools/common.sh
source "$(dirname "$0")/../tools/common.sh" mpi-balance "$1" "$2"
balance="$bin/nettopo-balance"
if ! command -v mpirun >/dev/null; then
    echo "skipped: no mpirun (Debian package openmpi-bin)"
    exit 77
fi
cd "$work"
unset NETTOPO_ARCHIVE
export OMPI_MCA_btl_vader_single_copy_mechanism=none
# Open MPI's own start-up allocations are never freed (and come from dlopened
# components that no suppression can name), so leak checking is off for these
# runs under a sanitizer, as in mpi_gather.sh; address and undefined-behaviour
# checks stay on.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
as_root=()
[[ $(id -u) -eq 0 ]] && as_root=(--allow-run-as-root)
run() { mpirun "${as_root[@]}" --oversubscribe -np "$@"; }

# agree WHAT N NETTOPO_BALANCE_OPTIONS...: exit 0, the simulator as the
# reference, the same mapping and as many messages and migrations as the
# simulator, a non-empty run (some task moved).
agree() {
    local what=$1 n=$2
    shift 2
    local code=0
    run "$n" "$balance" --mpi "$@" >out.txt 2>err.txt || code=$?
    if [[ $code -ne 0 ]]; then
        fail "$what: exit $code: $(cat err.txt out.txt)"
        return
    fi
    local mpi ref sim moved sim_moved
    mpi=$(sed -n 's/^messages (MPI) *//p' out.txt)
    ref=$(sed -n 's/^messages (reference) *//p' out.txt)
    sim=$(sed -n 's/^messages (simulated) *//p' out.txt)
    moved=$(sed -n 's/^migrations (MPI) *//p' out.txt)
    sim_moved=$(sed -n 's/^migrations (simulated) *//p' out.txt)
    grep -q '^same mapping *yes$' out.txt && grep -q '^reference *simulator$' out.txt &&
        [[ -n $mpi && $mpi == "$ref" && $mpi == "$sim" && $moved == "$sim_moved" &&
            ${moved:-0} -gt 0 ]] &&
        pass "$what: the same mapping as the $(sed -n 's/^reference *//p' out.txt), $mpi messages, $moved migrations" ||
        fail "$what: $(cat out.txt)"
}

agree "Net Topo thesis, nettopo's neighbours" 12 -w nettopo-3600 -s neighbor
agree "Net Topo thesis, Charm++'s torus_nd_5" 12 -w nettopo-3600 -s neighbor-charm
agree "Net Topo thesis, grapevine" 12 -w nettopo-3600 -s grapevine
agree "Net Topo thesis, packdrop-sbac" 12 -w nettopo-3600 -s packdrop-sbac
# 32 ranks of a sanitized build take minutes to start on two cores: the
# release build runs these cases, the sanitizer build the four above (the
# programs themselves run under it in unit tests, one thread per PE).
if [[ ${NETTOPO_SANITIZED:-} != 1 ]]; then
    agree "Net Topo thesis, grapevine-6.8" 12 -w nettopo-3600 -s grapevine-6.8
    agree "Net Topo thesis, packdrop" 12 -w nettopo-3600 -s packdrop
    for s in neighbor-charm grapevine packdrop; do
        agree "a 4x4 torus of 2-PE machines, mesh2d, $s" 32 \
            --gen "torus --dims 4x4 --machine 'core:2 pu:1'" -w lb_test:tasks=800,pattern=mesh2d \
            -s $s
    done
fi

# refuse WHAT N SAYS NETTOPO_BALANCE_OPTIONS...: exit 2, rank 0's message.
refuse() {
    local what=$1 n=$2 says=$3
    shift 3
    local code=0
    run "$n" "$balance" --mpi "$@" >out.txt 2>err.txt || code=$?
    [[ $code -eq 2 ]] && grep -q -- "$says" err.txt &&
        [[ $(grep -c 'nettopo-balance: error:' err.txt) -eq 1 ]] &&
        pass "$what: exit 2, said once" ||
        fail "$what: exit $code: $(cat err.txt)"
}
refuse "5 ranks for 12 PEs" 5 "one rank per PE: the cluster has 12 PEs, the job 5 ranks" \
    -w nettopo-3600 -s neighbor
refuse "two strategies" 12 "runs one --strategy" -w nettopo-3600 -s neighbor,neighbor-charm
refuse "a centralised strategy" 12 "not 'greedy'" -w nettopo-3600 -s greedy
# Every rank parses the command line; only rank 0 says what is wrong.
refuse "an unknown option" 12 "not expected: --bogus" -w nettopo-3600 -s packdrop --bogus
[[ $failures -eq 0 ]] || { echo "$failures failures"; exit 1; }
