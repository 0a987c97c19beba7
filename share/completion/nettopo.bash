# bash completion for nettopo-query, -discover, -gen, -bench and -balance.
# Source it, or install it as share/bash-completion/completions/<tool> under
# each tool's name (cmake --install does), since bash-completion loads the file
# named after the command being completed.

_nettopo_query() {
    local cur prev words cword
    _init_completion || return
    local subcommands="num-pes num-machines num-nodes num-switches num-links machine-of node-of
        pes-of-machine pes-of-node on-same-machine on-same-node neighbors proximity ancestor hops
        distance path nearest distribute summary show cpuset-of draw export diff index"
    case "$prev" in
        -i|--input|--pairs|-o|--output|--rankfile|--slurm|--hostfile) _filedir; return ;;
        --format) COMPREPLY=($(compgen -W "slurm slurm-yaml scotch synthetic" -- "$cur")); return ;;
        --collapse|--machine|--budget-mb|--nodes) return ;;
        # a path between two PEs or machines, or a hostlist of machines
        --highlight) COMPREPLY=($(compgen -W "path:" -- "$cur")); compopt -o nospace; return ;;
        --policy) COMPREPLY=($(compgen -W "scatter compact" -- "$cur")); return ;;
        --kind) COMPREPLY=($(compgen -W "auto dense labels none" -- "$cur")); return ;;
        --index) COMPREPLY=($(compgen -W "auto always never" -- "$cur")); return ;;
        --node-level) COMPREPLY=($(compgen -W "auto l1 l2 l3 l4 l5 core package die group numa pu machine" -- "$cur")); return ;;
    esac
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "-i --input -q --quiet --json --node-level --allow-disconnected --allowed-only --index --nodes --hostfile --job -p --physical --mask --pairs --hops --all -o --output --collapse --highlight --format --machine --policy --rankfile --physical-slots --slurm --kind --budget-mb --help --version" -- "$cur"))
        return
    fi
    local w
    for w in "${words[@]:1:cword-1}"; do
        # diff's argument is the expected cluster: a file.
        [[ "$w" == diff ]] && { _filedir; return; }
        [[ " $subcommands " == *" $w "* ]] && return
    done
    COMPREPLY=($(compgen -W "$subcommands" -- "$cur"))
}

_nettopo_discover() {
    local cur prev words cword
    # Keep KIND=NS of --latency one word.
    _init_completion -n = || return
    case "$prev" in
        -i|--input|-o|--output|--slurm|--node-name-map|--expect) _filedir; return ;;
        # hwloc exports: files or directories of *.xml; dumps, one per subnet
        --hosts|--ibnetdiscover) _filedir; return ;;
        --node-level) COMPREPLY=($(compgen -W "auto l1 l2 l3 l4 l5 core package die group numa pu machine" -- "$cur")); return ;;
        --latency)
            [[ "$cur" == *=* ]] && return
            COMPREPLY=($(compgen -W "host-switch= switch-switch= all=" -- "$cur"))
            compopt -o nospace
            return ;;
        --host-name) COMPREPLY=($(compgen -W "auto export file" -- "$cur")); return ;;
        # The word is optional (--index alone: always): options still complete.
        --index) [[ "$cur" == -* ]] || { COMPREPLY=($(compgen -W "auto always never" -- "$cur")); return; } ;;
        --name|--default-machine) return ;;
    esac
    # --hosts and --ibnetdiscover take several paths: keep completing paths after the first.
    if [[ "$cur" != -* ]]; then
        local i
        for ((i = cword - 1; i > 0; i--)); do
            [[ "${words[i]}" == -* ]] || continue
            [[ "${words[i]}" == --hosts || "${words[i]}" == --ibnetdiscover ]] && { _filedir; return; }
            break
        done
    fi
    COMPREPLY=($(compgen -W "-i --input -o --output --show --summary --node-level --name
        --allow-disconnected -q --quiet --hosts --ibnetdiscover --node-name-map --slurm --hosts-only --mpi
        --default-machine --latency --strict --check --json --expect --allowed-only --host-name --index
        --help --version" -- "$cur"))
}

_nettopo_gen() {
    local cur prev words cword
    # Keep KIND=VALUE of --latency/--bandwidth one word.
    _init_completion -n = || return
    # The families and their options come from nettopo-gen's registry of
    # families, one line each: "NAME --OPTION ...". Ask the nettopo-gen being
    # completed, so the lists match that build.
    local gen=${words[0]} name opts families="" all_own=" "
    [[ "$gen" == "~/"* ]] && gen=$HOME/${gen#"~/"}
    local -A own=()
    while read -r name opts; do
        [[ -n "$name" ]] || continue
        families+=" $name"
        own[$name]=$opts
        all_own+="$opts "
    done < <("$gen" --completion-lists 2>/dev/null)
    local common="--preset --machine --machine-xml --allowed-only --node-level --latency --bandwidth -o --output
        --describe --name --summary --json --verify --verify-sources --force -q --quiet -h --help --version"
    case "$prev" in
        -o|--output|--machine-xml) _filedir; return ;;
        --node-level) COMPREPLY=($(compgen -W "auto l1 l2 l3 l4 l5 core package die group numa pu machine" -- "$cur")); return ;;
        --preset) COMPREPLY=($(compgen -W "tree-M mesh2D mesh3D tree-G" -- "$cur")); return ;;
        --latency|--bandwidth)
            [[ "$cur" == *=* ]] && return
            COMPREPLY=($(compgen -W "host-switch= switch-switch= local= global= all=" -- "$cur"))
            compopt -o nospace
            return ;;
        --machine|--name|--verify-sources)
            return ;;
    esac
    # Every family option takes a value.
    [[ "$prev" == --* && "$all_own" == *" $prev "* ]] && return
    # The family, if one is given; a preset takes its place.
    local i w family="" preset=""
    for ((i = 1; i < cword; i++)); do
        w=${words[i]}
        case "$w" in
            --preset) preset=1; ((i++)); continue ;;
            --machine|--machine-xml|--node-level|--latency|--bandwidth|-o|--output|--name) ((i++)); continue ;;
        esac
        [[ -z "$family" && "$families " == *" $w "* ]] && family=$w
    done
    if [[ -z "$family" && -z "$preset" && "$cur" != -* ]]; then
        COMPREPLY=($(compgen -W "$families" -- "$cur"))
        return
    fi
    [[ -n "$family" || -n "$preset" ]] && common=${common/--preset/}
    COMPREPLY=($(compgen -W "${family:+${own[$family]}} $common" -- "$cur"))
}

_nettopo_bench() {
    local cur prev words cword
    _init_completion || return
    local commands="init save load fill proximity distance hops peer lca all"
    case "$prev" in
        --preset) COMPREPLY=($(compgen -W "tree-M mesh2D mesh3D tree-G" -- "$cur")); return ;;
        -i|--input) _filedir xml; return ;;
        --plot) _filedir svg; return ;;
        --gen|-r|--repetitions|--queries|--sources|--seed|--threads|--budget|--degrees|--algorithms|--warmup|--rounds|--outer) return ;;
    esac
    local i command=""
    for ((i = 1; i < cword; i++)); do
        [[ " $commands " == *" ${words[i]} "* ]] && command=${words[i]} && break
    done
    if [[ -z "$command" ]]; then
        COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
        return
    fi
    local common="-i --verify --csv --csv-comments --json --plot --help"
    if [[ "$command" == lca ]]; then
        COMPREPLY=($(compgen -W "$common --degrees --warmup --rounds --outer --seed --algorithms" -- "$cur"))
    else
        COMPREPLY=($(compgen -W "$common --preset --gen -r --repetitions --queries --sources --seed --threads --budget --allow-disconnected" -- "$cur"))
    fi
}

_nettopo_balance() {
    local cur prev words cword
    _init_completion || return
    case "$prev" in
        -s|--strategy)
            COMPREPLY=($(compgen -W "all $(nettopo-balance --list 2>/dev/null | awk '/^strategies:/{s=1;next} /^[a-z]/{s=0} s{print $1}')" -- "$cur"))
            return ;;
        -w|--workload)
            COMPREPLY=($(compgen -W "lb_test: $(nettopo-balance --list 2>/dev/null | awk '/^workload presets:/{s=1;next} s && $1 != "cluster:" {print $1}')" -- "$cur"))
            return ;;
        -i|--input) _filedir; return ;;
        --tasks|--graph|--mapping|--speeds|-o|--output|--rankfile|--slurm) _filedir; return ;;
        --node-level) COMPREPLY=($(compgen -W "auto l1 l2 l3 l4 l5 core package die group numa pu machine" -- "$cur")); return ;;
        --decision-time) COMPREPLY=($(compgen -W "measured none" -- "$cur")); return ;;
        --index) COMPREPLY=($(compgen -W "auto always never" -- "$cur")); return ;;
        --network) COMPREPLY=($(compgen -W "none gige ib shm" -- "$cur")); return ;;
        --gather) COMPREPLY=($(compgen -W "on off" -- "$cur")); return ;;
        --gen|--iterations|--every|--seed|--seeds|--loss|--delay|--max-delay|--intra-gbps|--link-gbps) return ;;
        --overhead-us|--gap-us|--intra-overhead-us|--intra-gap-us|--round-us|--migration-us|--local-ns|--noise) return ;;
        --refine-tolerance|--refine-step|--smart-threshold|--smart-gap-factor|--smart-passes|--topo-slack) return ;;
        --gossip-fanout|--grapevine-tolerance|--grapevine-phases|--packdrop-tolerance|--packdrop-tries|--reply-timeout) return ;;
    esac
    COMPREPLY=($(compgen -W "-i --input --gen --node-level --allowed-only -w --workload -s --strategy --iterations --every --seed --seeds --decision-time --tasks --graph --mapping --speeds -o --output --rankfile --slurm --loss --delay --max-delay --intra-gbps --link-gbps --network --overhead-us --gap-us --intra-overhead-us --intra-gap-us --round-us --gather --migration-us --local-ns --noise --refine-tolerance --refine-step --smart-threshold --smart-gap-factor --smart-passes --topo-slack --gossip-fanout --grapevine-tolerance --grapevine-phases --packdrop-tolerance --packdrop-tries --reply-timeout --mpi --index --json --csv --csv-comments -q --quiet --list --help --version" -- "$cur"))
}

complete -F _nettopo_query nettopo-query
complete -F _nettopo_discover nettopo-discover
complete -F _nettopo_gen nettopo-gen
complete -F _nettopo_bench nettopo-bench
complete -F _nettopo_balance nettopo-balance
