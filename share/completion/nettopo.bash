# bash completion for nettopo-query and nettopo-discover.
# Source it, or install it as /usr/share/bash-completion/completions/nettopo-query
# (and a link named nettopo-discover).

_nettopo_query() {
    local cur prev words cword
    _init_completion || return
    local subcommands="num-pes num-machines num-nodes num-switches num-links machine-of node-of
        pes-of-machine pes-of-node on-same-machine on-same-node neighbors proximity ancestor hops
        distance path nearest summary show"
    case "$prev" in
        -i|--input|--pairs) _filedir; return ;;
        --node-level) COMPREPLY=($(compgen -W "auto l1 l2 l3 l4 l5 core package die group numa pu machine" -- "$cur")); return ;;
    esac
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "-i --input --json --node-level --allow-disconnected --pairs --hops --all --help" -- "$cur"))
        return
    fi
    local w
    for w in "${words[@]:1:cword-1}"; do
        [[ " $subcommands " == *" $w "* ]] && return
    done
    COMPREPLY=($(compgen -W "$subcommands" -- "$cur"))
}

_nettopo_discover() {
    local cur prev words cword
    _init_completion || return
    case "$prev" in
        -i|--input|-o|--output) _filedir; return ;;
        --node-level) COMPREPLY=($(compgen -W "auto l1 l2 l3 l4 l5 core package die group numa pu machine" -- "$cur")); return ;;
        --name) return ;;
    esac
    COMPREPLY=($(compgen -W "-i --input -o --output --show --summary --node-level --name --allow-disconnected -q --quiet --help" -- "$cur"))
}

complete -F _nettopo_query nettopo-query
complete -F _nettopo_discover nettopo-discover
