#!/usr/bin/env bash
# mpi.distribute: the rankfiles of `nettopo-query distribute N --rankfile F`
# run by Open MPI's mpirun on this machine, each rank bound where the file
# says. For each topology, policy and N (one rank, all PUs, more than the PUs:
# --oversubscribe), every rank reports the CPUs it may run on
# (Cpus_allowed_list of /proc/self/status, OS indexes): exactly one, the OS
# index nettopo-query printed for that rank; and mpirun's --report-bindings
# line for the rank marks exactly the PU of the rank's logical index.
#
# Topologies: this machine as nettopo-query reads it (no -i), this machine as
# lstopo exports it (-i FILE), and tests/data/hwloc-smt-interleaved.xml, a
# made-up SMT machine whose logical and OS indexes differ, given to Open MPI
# too (hwloc_base_topo_file) so that it binds by that tree; only its PUs P#0
# and P#1 exist here, which the N=2 scatter placement uses.
#
# The command lines: mpirun --use-hwthread-cpus --rankfile F -np N (Open MPI
# 4.1 reads a rankfile's slot as a logical core without --use-hwthread-cpus,
# as a logical PU with it), and for --physical-slots the same with --mca
# rmaps_rank_file_physical 1 (slots are OS indexes). The physical form is
# also run on this machine's export restricted to its last PU and read with
# --allowed-only, where nettopo's logical numbering is not Open MPI's: the
# logical form would bind P#0 there.
#
# Usage: mpi_distribute.sh BIN_DIR PROJECT_ROOT. Exit 77 (skipped) without
# mpirun.
set -euo pipefail
[[ $# -eq 2 ]] || { echo "usage: $0 BIN_DIR PROJECT_ROOT" >&2; exit 2; }
# shellcheck source=../tools/common.sh
source "$(dirname "$0")/../tools/common.sh" mpi-distribute "$1" "$2"
query="$bin/nettopo-query"
if ! command -v mpirun >/dev/null; then
    echo "skipped: no mpirun (Debian package openmpi-bin)"
    exit 77
fi
cd "$work"
unset NETTOPO_ARCHIVE
export OMPI_MCA_btl_vader_single_copy_mechanism=none
as_root=()
[[ $(id -u) -eq 0 ]] && as_root=(--allow-run-as-root)

# The rank's allowed CPUs and its --report-bindings mask, one line a rank:
# "RANK CPULIST".
report='echo "$OMPI_COMM_WORLD_RANK $(sed -n "s/^Cpus_allowed_list:[[:space:]]*//p" /proc/self/status)"'

# check WHAT N POLICY MPIRUN_OPTIONS... -- NETTOPO_QUERY_OPTIONS...
# Also: the distribute options in the array `slots` (--physical-slots or
# nothing), and whether to check --report-bindings' masks in `masks`.
slots=()
masks=yes # no: the view's logical indexes are not Open MPI's (--allowed-only)
check() {
    local what=$1 n=$2 policy=$3
    shift 3
    local -a mpi_options=()
    while [[ $1 != -- ]]; do mpi_options+=("$1"); shift; done
    shift
    "$query" -q "$@" distribute "$n" --policy "$policy" >expected.txt
    "$query" -q "$@" distribute "$n" --policy "$policy" "${slots[@]}" \
        --rankfile rf >/dev/null
    [[ $(wc -l <rf) -eq $n ]] || { fail "$what: rankfile of $(wc -l <rf) lines"; return; }
    [[ ${#slots[@]} -eq 0 ]] || mpi_options+=(--mca rmaps_rank_file_physical 1)
    if ! mpirun "${as_root[@]}" "${mpi_options[@]}" --oversubscribe --use-hwthread-cpus \
        --report-bindings --rankfile rf -np "$n" sh -c "$report" >out.txt 2>bindings.txt; then
        fail "$what: mpirun failed: $(head -5 bindings.txt out.txt)"
        return
    fi
    local rank host pu os cpus mask
    while read -r rank host pu os; do
        cpus=$(awk -v r="$rank" '$1 == r { print $2 }' out.txt)
        [[ $cpus == "$os" ]] ||
            fail "$what: rank $rank bound to CPUs '$cpus', nettopo wrote PU L#$pu P#$os"
        # "[...] MCW rank R bound to ...: [B/.][./.]": one character a PU
        # in logical order ('/' between cores, '][' between packages).
        mask=$(sed -n "s/.*MCW rank $rank bound to .*: //p" bindings.txt | tr -d '/][')
        if [[ -n $mask && $masks == yes ]]; then # empty when Open MPI binds by a topology file
            [[ $mask == *B* && ${mask//[^B]/} == B && ${mask%%B*} == "$(printf '%*s' "$pu" '' | tr ' ' .)" ]] ||
                fail "$what: rank $rank --report-bindings mask '$mask', nettopo wrote PU L#$pu"
        fi
    done <expected.txt
    [[ $(wc -l <out.txt) -eq $n ]] || fail "$what: $(wc -l <out.txt) of $n ranks reported"
    echo "ok:   $what"
}

lstopo --of xml - >this.xml
pus=$("$query" -q num-pes)
for policy in scatter compact; do
    for n in 1 "$pus" $((pus + 1)) $((2 * pus + 1)); do
        check "this machine, $policy, N=$n" "$n" "$policy" --
        check "this machine's lstopo export, $policy, N=$n" "$n" "$policy" -- -i this.xml
        slots=(--physical-slots)
        check "this machine, $policy, N=$n, physical slots" "$n" "$policy" --
        slots=()
    done
done

# A job allowed only the last PU, as an export made inside its cgroup says
# (allowed_cpuset, as in ../shared/data/hwloc-xml/hagrid-restricted.xml):
# with --allowed-only nettopo numbers that PU L#0, Open MPI (which numbers
# every PU of the machine) L#<last>, so the rankfile must name it by OS index.
if [[ $pus -ge 2 && $pus -le 32 ]]; then
    last=$("$query" -q distribute "$pus" --policy compact | tail -1 | cut -d' ' -f4)
    sed "0,/allowed_cpuset=\"[^\"]*\"/s//allowed_cpuset=\"$(printf '0x%08x' $((1 << last)))\"/" \
        this.xml >restricted.xml
    slots=(--physical-slots)
    masks=no
    check "export allowing only P#$last, --allowed-only, physical slots, N=2" 2 scatter -- \
        -i restricted.xml --allowed-only
    [[ $(grep -c "slot=$last\$" rf) -eq 2 ]] || fail "allowed P#$last only: the rankfile says $(cat rf)"
    slots=()
    masks=yes
fi

# Logical slots and OS indexes that differ.
sed "s/HOSTNAME/$(hostname)/" "$root/tests/data/hwloc-smt-interleaved.xml" >smt.xml
if [[ $pus -ge 2 ]]; then
    check "SMT machine with interleaved OS indexes, scatter, N=2" 2 scatter \
        --mca hwloc_base_topo_file "$work/smt.xml" -- -i smt.xml
    grep -q 'slot=2' rf || fail "the interleaved machine's rankfile names no logical PU 2: $(cat rf)"
    slots=(--physical-slots)
    check "SMT machine with interleaved OS indexes, scatter, N=2, physical slots" 2 scatter \
        --mca hwloc_base_topo_file "$work/smt.xml" -- -i smt.xml
    grep -q 'slot=1' rf || fail "the interleaved machine's physical rankfile names no P#1: $(cat rf)"
    slots=()
fi
[[ $failures -eq 0 ]] || { echo "$failures failures"; exit 1; }
