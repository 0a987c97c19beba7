#!/usr/bin/env bash
# tools.gen_registry: nettopo-gen, its shell completion and its man page name
# the families and options of the library's registry of families, which
# `nettopo-gen --completion-lists` prints from the registry (a line a family:
# NAME --OPTION ...):
#  - `nettopo-gen --help` lists exactly those families, in that order, and
#    `nettopo-gen FAMILY --help` exactly that family's options;
#  - the completion (share/completion/nettopo.bash), called as bash calls it,
#    completes those families, after one of them its options and
#    nettopo-gen's own (but --preset), and nothing after a family's option
#    (they all take a value);
#  - the man page's FAMILIES section heads each family with exactly its options.
#
# Usage: gen_registry.sh BIN_DIR PROJECT_ROOT
set -euo pipefail

# shellcheck source=common.sh
source "$(dirname "$0")/common.sh" genregistry "$@"
gen="$bin/nettopo-gen"
cd "$root"

lists=$("$gen" --completion-lists)
families=()
declare -A own=()
while read -r name opts; do
    families+=("$name")
    own[$name]=$opts
done <<<"$lists"
[[ ${#families[@]} -gt 0 ]] || fail "--completion-lists printed no family"
all_own=" ${own[*]} "

# The tool's help.
got=$("$gen" --help | sed -n '/^Subcommands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p' | xargs)
[[ "$got" == "${families[*]}" ]] ||
    fail "nettopo-gen --help lists the families '$got', the registry '${families[*]}'"
for f in "${families[@]}"; do
    got=$("$gen" "$f" --help | sed -n 's/^  \(--[a-z-]*\).*/\1/p' | grep -vx -- --help | xargs)
    [[ "$got" == "${own[$f]}" ]] ||
        fail "nettopo-gen $f --help lists the options '$got', the registry '${own[$f]}'"
done

# The completion, with what bash-completion would provide.
# shellcheck disable=SC2034 # the variables _nettopo_gen reads
_init_completion() {
    words=("${COMP_WORDS[@]}")
    cword=$COMP_CWORD
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD - 1]}
}
_filedir() { :; }
compopt() { :; }
# What the completion offers for the command line "$@", the last word being completed.
completions() {
    (
        set +euo pipefail
        COMP_WORDS=("$@")
        COMP_CWORD=$(($# - 1))
        COMPREPLY=()
        _nettopo_gen
        echo "${COMPREPLY[*]}"
    )
}
set +u
# shellcheck source=../../share/completion/nettopo.bash
source share/completion/nettopo.bash
set -u

got=$(completions "$gen" "")
[[ "$got" == "${families[*]}" ]] || fail "completion of a family: '$got', not '${families[*]}'"
got=$(PATH="$bin:$PATH" completions nettopo-gen "")
[[ "$got" == "${families[*]}" ]] || fail "completion through PATH: '$got', not '${families[*]}'"
sorted() { tr ' ' '\n' <<<"$*" | sed '/^$/d' | sort -u | xargs; }
# After a family: its own options and nettopo-gen's but --preset.
common=$("$gen" --help | sed -n '/^Options:/,/^$/s/^  \(-[^ ]*\).*/\1/p' | tr ',' ' ' | xargs)
for f in "${families[@]}"; do
    got=$(completions "$gen" "$f" -)
    want="${own[$f]} ${common/--preset/}"
    [[ "$(sorted "$got")" == "$(sorted "$want")" ]] ||
        fail "completion after '$f': '$(sorted "$got")', expected '$(sorted "$want")'"
    for o in ${own[$f]}; do
        got=$(completions "$gen" "$f" "$o" "")
        [[ -z "$got" ]] || fail "completion of the value of $f $o: '$got', expected nothing"
    done
done
got=" $(completions "$gen" --preset tree-M --) "
for o in $all_own --preset; do
    [[ "$got" != *" $o "* ]] || fail "completion after a preset offers $o"
done

# The man page: in FAMILIES, each family's heading lines (after .TP) give its options.
declare -A man=()
while read -r name options; do
    man[$name]="${man[$name]:-} $options"
done < <(sed -n '/^\.SH FAMILIES/,/^\.SH /p' man/nettopo-gen.1 |
    awk 'tp && /^\.B / { line = $0; gsub(/\\-/, "-", line); split(line, w, " ");
                         printf "%s", w[2]; rest = line
                         while (match(rest, /--[a-z]+/)) {
                             printf " %s", substr(rest, RSTART, RLENGTH); rest = substr(rest, RSTART + RLENGTH) }
                         print "" }
         { tp = ($0 == ".TP") }')
[[ "$(sorted "${!man[@]}")" == "$(sorted "${families[@]}")" ]] ||
    fail "the man page's FAMILIES describe '$(sorted "${!man[@]}")', the registry has '$(sorted "${families[@]}")'"
for f in "${families[@]}"; do
    [[ "$(sorted "${man[$f]:-}")" == "$(sorted "${own[$f]}")" ]] ||
        fail "the man page gives $f the options '$(sorted "${man[$f]:-}")', the registry '$(sorted "${own[$f]}")'"
done

if [[ $failures -gt 0 ]]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "all checks passed"
