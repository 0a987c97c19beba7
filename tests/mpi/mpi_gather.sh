#!/usr/bin/env bash
# mpi.<CASE>: nettopo-discover --mpi under mpirun, several ranks of this one
# machine playing hosts node0, node1, ... (NETTOPO_HOSTNAME). The oracle is
# nettopo-discover --hosts on exports made by hwloc's own lstopo (this
# machine, `lstopo --disallowed --of xml`, HostName removed so that the file
# names the host) and on copies of real exports from ../shared/data that the
# ranks load instead of this machine (hwloc's HWLOC_XMLFILE): the archives
# must be byte-identical.
#
# Usage: mpi_gather.sh BIN_DIR PROJECT_ROOT CASE
#   CASE: ranks (1, 2, 4 ranks, --hosts-only), dedup (ranks sharing a host,
#   hosts sharing a tree), fabric (a Slurm topology.conf; plafrim's real
#   InfiniBand dump with three ranks as three of its hosts), failures (a rank
#   that fails, a rank killed, usage errors: exit codes, messages, no archive)
set -euo pipefail
[[ $# -eq 3 ]] || { echo "usage: $0 BIN_DIR PROJECT_ROOT CASE" >&2; exit 2; }
case_name=$3
# shellcheck source=../tools/common.sh
source "$(dirname "$0")/../tools/common.sh" "mpi-$case_name" "$1" "$2"
discover="$bin/nettopo-discover"
shared="${NETTOPO_SHARED_DATA:-$root/../shared/data}"
cd "$work"
unset NETTOPO_ARCHIVE HWLOC_XMLFILE NETTOPO_HOSTNAME NETTOPO_MPI_TEST_FAULT
# CI runs as root; shared memory without the single-copy mechanism that
# containers often forbid.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
# Under the sanitizers: Open MPI leaks at exit from components it has
# unloaded by then (LeakSanitizer sees "<unknown module>", which no
# suppression can name), so leak checking is off for these runs; address and
# undefined-behaviour checks stay on. The gather's own pieces are leak-checked
# by the unit tests ([signature], [gathered]).
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

# mpirun with NP ranks, rank R running as host node<R> (or as given by the
# HOST_OF_RANK array) with the environment of the ENV_OF_RANK array.
declare -a HOST_OF_RANK=() ENV_OF_RANK=()
run_ranks() { # NP ARGS...
    local np=$1
    shift
    local script='r=$OMPI_COMM_WORLD_RANK; eval "h=\${H$r:-node$r}; e=\${E$r:-}"; exec env NETTOPO_HOSTNAME="$h" $e "$0" "$@"'
    local -a vars=()
    for ((r = 0; r < np; ++r)); do
        vars+=("H$r=${HOST_OF_RANK[$r]:-node$r}" "E$r=${ENV_OF_RANK[$r]:-}")
    done
    env "${vars[@]}" mpirun --oversubscribe -np "$np" sh -c "$script" "$discover" --mpi "$@"
}

# The oracle's exports: this machine as lstopo exports it, and real exports.
lstopo --disallowed --of xml - | sed '/name="HostName"/d' >this.xml
real1="$shared/hwloc-xml/16em64t-4s2c2t.xml"
real2="$shared/hwloc-xml/28intel64-2p2g7c-CoDgroups.v1tov2.xml"
export_of() { # HOST SOURCE: the oracle's export of HOST (file named as the host)
    mkdir -p exports
    sed '/name="HostName"/d' "$2" >"exports/$1"
}

same_archive() { # WHAT GATHERED ORACLE
    if cmp -s "$2" "$3"; then
        echo "ok:   $1"
    else
        fail "$1: --mpi and --hosts differ: $(diff "$2" "$3" | head -6)"
    fi
}

case $case_name in
ranks)
    for np in 1 2 4; do
        rm -rf exports
        for ((r = 0; r < np; ++r)); do export_of "node$r" this.xml; done
        run_ranks "$np" --hosts-only --name flat -q -o "mpi$np.xml"
        "$discover" -q --hosts exports/* --hosts-only --name flat -o "hosts$np.xml"
        same_archive "$np ranks, --hosts-only" "mpi$np.xml" "hosts$np.xml"
        grep -q "<machines count=\"$np\">" "mpi$np.xml" || fail "$np ranks: not $np machines"
    done
    # Unnamed, a flat cluster is named after -o.
    run_ranks 2 --hosts-only -q -o named.xml
    grep -q '<nettopo [^>]*name="named"' named.xml || fail "unnamed: not named after -o"
    run_ranks 1 --hosts-only -q -o - >stdout.xml
    grep -q '<nettopo [^>]*name="cluster"' stdout.xml || fail "-o -: not named cluster"
    ;;
dedup)
    # Ranks 0 and 2 on node0, 1 and 3 on node1: two hosts.
    HOST_OF_RANK=(node0 node1 node0 node1)
    run_ranks 4 --hosts-only --name d -o two.xml 2>two.err
    export_of node0 this.xml
    export_of node1 this.xml
    "$discover" -q --hosts exports/* --hosts-only --name d -o two-hosts.xml
    same_archive "4 ranks on 2 hosts" two.xml two-hosts.xml
    grep -q 'gathered 4 ranks .*: 2 hosts of 1 machine type' two.err ||
        fail "4 ranks on 2 hosts: $(cat two.err)"
    # Three machine types over five hosts, one host twice: each tree travels once.
    rm -rf exports
    HOST_OF_RANK=(node0 node1 node2 node3 node4 node2)
    ENV_OF_RANK=("" "HWLOC_XMLFILE=$real1" "HWLOC_XMLFILE=$real2" "HWLOC_XMLFILE=$real1" "" "HWLOC_XMLFILE=$real2")
    run_ranks 6 --hosts-only --name d -o three.xml 2>three.err
    export_of node0 this.xml
    export_of node1 "$real1"
    export_of node2 "$real2"
    export_of node3 "$real1"
    export_of node4 this.xml
    "$discover" -q --hosts exports/* --hosts-only --name d -o three-hosts.xml
    same_archive "6 ranks, 5 hosts, 3 machine types" three.xml three-hosts.xml
    grep -q 'gathered 6 ranks .*: 5 hosts of 3 machine types' three.err ||
        fail "6 ranks, 3 types: $(cat three.err)"
    # One host name, two different trees: an error naming the host, no archive.
    HOST_OF_RANK=(node0 node1 node1)
    ENV_OF_RANK=("" "" "HWLOC_XMLFILE=$real1")
    status=0
    run_ranks 3 --hosts-only -o clash.xml 2>clash.err || status=$?
    [[ $status -ne 0 && ! -e clash.xml ]] || fail "one host, two trees: status $status"
    grep -q 'nettopo-discover: error: .*different machines.*node1 (ranks 1 and 2)' clash.err ||
        fail "one host, two trees: $(cat clash.err)"
    ;;
fabric)
    # Two leaf switches under one top switch, as Slurm describes them; node4
    # is not in the fabric and is reported, as with --hosts.
    printf 'SwitchName=leaf0 Nodes=node[0-1]\nSwitchName=leaf1 Nodes=node[2-3]\nSwitchName=top Switches=leaf[0-1]\n' >topology.conf
    ENV_OF_RANK=("" "HWLOC_XMLFILE=$real1" "" "HWLOC_XMLFILE=$real2" "")
    run_ranks 5 --slurm topology.conf -o slurm.xml 2>slurm.err
    for r in 0 2 4; do export_of "node$r" this.xml; done
    export_of node1 "$real1"
    export_of node3 "$real2"
    "$discover" --hosts exports/* --slurm topology.conf -o slurm-hosts.xml 2>slurm-hosts.err
    same_archive "5 ranks with a Slurm fabric" slurm.xml slurm-hosts.xml
    grep -q '<nettopo [^>]*name="topology"' slurm.xml || fail "fabric: not named after it"
    warning=$(grep 'warning' slurm-hosts.err)
    grep -qF "$warning" slurm.err || fail "fabric: the warning of --hosts ($warning) is not in: $(cat slurm.err)"
    # A real InfiniBand dump (plafrim's): three ranks as three of its hosts,
    # the others of the fabric left out and said so, as with --hosts.
    rm -rf exports
    HOST_OF_RANK=(bonobo001 mirage001 bonobo002)
    ENV_OF_RANK=("" "HWLOC_XMLFILE=$real1" "")
    ib="$shared/clusters/plafrim/ib-subnet-0.txt"
    run_ranks 3 --ibnetdiscover "$ib" -o ib.xml 2>ib.err
    export_of bonobo001 this.xml
    export_of mirage001 "$real1"
    export_of bonobo002 this.xml
    "$discover" --hosts exports/* --ibnetdiscover "$ib" -o ib-hosts.xml 2>ib-hosts.err
    same_archive "3 ranks on plafrim's InfiniBand fabric" ib.xml ib-hosts.xml
    grep -q '<machines count="3">' ib.xml || fail "plafrim: not 3 machines"
    [[ $(grep -c warning ib.err) == $(grep -c warning ib-hosts.err) ]] ||
        fail "plafrim: warnings differ: $(cat ib.err)"
    HOST_OF_RANK=()
    ENV_OF_RANK=("" "HWLOC_XMLFILE=$real1" "" "HWLOC_XMLFILE=$real2" "")
    for r in 0 2 4; do export_of "node$r" this.xml; done
    export_of node1 "$real1"
    export_of node3 "$real2"
    # --check works on the gathered hosts as on the exports.
    status=0
    run_ranks 4 --slurm topology.conf --check -q >check.txt || status=$?
    "$discover" --hosts exports/node[0-3] --slurm topology.conf --check -q >check-hosts.txt || true
    [[ $status -eq 0 ]] || fail "--check: status $status: $(cat check.txt)"
    cmp -s check.txt check-hosts.txt || fail "--check differs: $(diff check.txt check-hosts.txt | head -5)"
    ;;
failures)
    # A rank whose discovery fails: exit 1, the host named once, no archive,
    # and an archive already there is left as it was.
    echo old >kept.xml
    ENV_OF_RANK=("" "" "NETTOPO_MPI_TEST_FAULT=error" "")
    status=0
    run_ranks 4 --hosts-only -o kept.xml 2>fail.err || status=$?
    [[ $status -eq 1 ]] || fail "failing rank: status $status, not 1"
    [[ $(cat kept.xml) == old ]] || fail "failing rank: the archive was replaced"
    [[ $(grep -c 'nettopo-discover: error: discovery failed on 1 host node2: hwloc cannot' fail.err) == 1 ]] ||
        fail "failing rank: $(cat fail.err)"
    ENV_OF_RANK=("NETTOPO_MPI_TEST_FAULT=error" "" "NETTOPO_MPI_TEST_FAULT=error" "NETTOPO_MPI_TEST_FAULT=error")
    status=0
    run_ranks 4 --hosts-only -o none.xml 2>fail3.err || status=$?
    [[ $status -eq 1 && ! -e none.xml ]] || fail "3 failing ranks: status $status"
    grep -q 'discovery failed on 3 hosts node\[0,2-3\]: hwloc cannot' fail3.err ||
        fail "3 failing ranks: $(cat fail3.err)"
    leftovers=$(find . -maxdepth 1 -name 'kept.xml?*' -o -name 'none.xml*')
    [[ -z $leftovers ]] || fail "failing ranks: left $leftovers"
    # A rank killed by a signal: mpirun fails, nothing is written, not even a temporary.
    ENV_OF_RANK=("" "NETTOPO_MPI_TEST_FAULT=signal" "" "")
    status=0
    run_ranks 4 --hosts-only -o killed.xml >signal.out 2>&1 || status=$?
    [[ $status -ne 0 ]] || fail "killed rank: mpirun exited 0"
    leftovers=$(find . -maxdepth 1 -name 'killed*')
    [[ -z $leftovers ]] || fail "killed rank: left $leftovers"
    # Usage errors: exit 2, said once (by rank 0), before any discovery.
    ENV_OF_RANK=()
    for args in "" "--hosts this.xml --hosts-only" "--hosts-only --slurm x.conf"; do
        status=0
        # shellcheck disable=SC2086
        run_ranks 3 $args -o usage.xml 2>usage.err || status=$?
        [[ $status -eq 2 && ! -e usage.xml ]] || fail "usage '$args': status $status"
        [[ $(grep -c 'nettopo-discover: error:' usage.err) == 1 ]] || fail "usage '$args': $(cat usage.err)"
    done
    ;;
*)
    echo "unknown case $case_name" >&2
    exit 2
    ;;
esac
[[ $case_name == failures ]] || echo "ok:   $case_name"

if [[ $failures -gt 0 ]]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "all checks passed"
