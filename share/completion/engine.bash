# bash completion for nettopo-query, -discover, -gen, -bench and -balance.
# Generated at build time (share/completion/generate.sh): this engine, then
# one function per tool holding the tool's own option table, as the tool
# printed it (`TOOL --completion-table`, tools/common/completion_table.hpp).
# Source it, or install it as share/bash-completion/completions/<tool> under
# each tool's name (cmake --install does), since bash-completion loads the
# file named after the command being completed.

# _nettopo_complete TABLE: completes the current word from the tool's table.
_nettopo_complete() {
    local table=$1 cur prev words cword
    # Keep KEY=VALUE and "lb_test:" one word.
    _init_completion -n =: || return
    local -A kind=() how=() values=() opts=() positional=()
    local commands=" " what sub names k h rest n
    while read -r what sub names k h rest; do
        case $what in
            command) commands+="$sub " ;;
            positional) positional[$sub]=$names ;;
            option)
                for n in ${names//,/ }; do
                    kind[$sub$n]=$k
                    how[$sub$n]=$h
                    values[$sub$n]=$rest
                done
                opts[$sub]+="${names//,/ } " ;;
        esac
    done <<<"$table"

    # The subcommand given, if any, and the options already given.
    local i w current=- given=" "
    for ((i = 1; i < cword; i++)); do
        w=${words[i]}
        if [[ $w == -* ]]; then
            given+="$w "
            k=${kind[$current$w]:-${kind[-$w]}}
            [[ -n $k && $k != flag && $w != *=* ]] && ((i++))
            continue
        fi
        [[ $current == - && $commands == *" $w "* ]] && current=$w
    done

    # The value of the option before the word.
    k=${kind[$current$prev]:-${kind[-$prev]}}
    local list=${values[$current$prev]:-${values[-$prev]}}
    case $k in
        file | files) _filedir; return ;;
        value) return ;;
        words)
            # A bare --index is allowed: an option may still follow.
            if [[ $cur != -* ]]; then
                [[ $cur == *=* ]] && return
                COMPREPLY=($(compgen -W "$list" -- "$cur"))
                [[ ${COMPREPLY[*]} == *[=:] ]] && compopt -o nospace
                return
            fi ;;
    esac
    # Options taking several paths keep completing paths after the first.
    if [[ $cur != -* ]]; then
        for ((i = cword - 1; i > 0; i--)); do
            w=${words[i]}
            [[ $w == -* ]] || continue
            [[ ${kind[$current$w]:-${kind[-$w]}} == files ]] && { _filedir; return; }
            break
        done
    fi

    if [[ $cur == -* ]]; then
        local offered="" o all=${opts[-]}
        [[ $current != - ]] && all+=" ${opts[$current]}"
        for o in $all; do
            h=${how[$current$o]:-${how[-$o]}}
            # Given once already, or standing in for the subcommand given.
            [[ $h == once* && $given == *" $o "* ]] && continue
            [[ $current != - && $h == *-alone ]] && continue
            offered+="$o "
        done
        COMPREPLY=($(compgen -W "$offered" -- "$cur"))
        return
    fi
    if [[ $current == - && $commands != " " ]]; then
        COMPREPLY=($(compgen -W "$commands" -- "$cur"))
        return
    fi
    [[ $current != - && ${positional[$current]} == file* ]] && _filedir
}
