#!/usr/bin/env bash
# Golden-output tests of nettopo-query, nettopo-discover, nettopo-gen, nettopo-balance and nettopo-bench (its errors: timings are not pinned), in the spirit of
# hwloc's lstopo tests: every case of tests/golden/cases.txt runs one tool
# from the project root, and its standard output, standard error and exit
# status must match what is pinned in the repository.
#
# Usage:
#   run_golden.sh [--update] [--case NAME]... BIN_DIR PROJECT_ROOT
#   run_golden.sh --check-orphans BIN_DIR PROJECT_ROOT
#
#   BIN_DIR        folder holding the nettopo tools
#   PROJECT_ROOT   the source tree; the tools run with it as working directory
#   --case NAME    run only this case (repeatable); default: every case
#   --update       rewrite the expected files from what the tools print now
#                  (for humans, after an intended change: review the diff!).
#                  Exit statuses live in cases.txt and are never rewritten:
#                  a status mismatch is still a failure.
#   --check-orphans  fail if tests/golden/expected/ holds a file that no case
#                  uses (a renamed or deleted case left it behind)
#
# Expected files, in tests/golden/expected/:
#   NAME.txt   the standard output of case NAME
#   NAME.err   its standard error
# A missing file means "expected empty"; --update writes a file only when the
# stream is not empty and removes the file of a stream that became empty.
#
# Exits 0 when every selected case passes, 1 when some fail (listed at the
# end, with a unified diff of each difference), 2 on bad usage or a malformed
# cases file.
set -euo pipefail

usage() {
    sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//' >&2
    exit 2
}

update=0
orphans=0
selected=()
while [[ $# -gt 0 ]]; do
    case "$1" in
    --update) update=1; shift ;;
    --check-orphans) orphans=1; shift ;;
    --case)
        [[ $# -ge 2 ]] || usage
        selected+=("$2"); shift 2 ;;
    -h | --help) usage ;;
    --) shift; break ;;
    -*) echo "run_golden.sh: unknown option '$1'" >&2; usage ;;
    *) break ;;
    esac
done
[[ $# -eq 2 ]] || usage

bin_dir=$(cd "$1" && pwd)
root=$(cd "$2" && pwd)
cases_file="$root/tests/golden/cases.txt"
expected_dir="$root/tests/golden/expected"
[[ -f "$cases_file" ]] || { echo "run_golden.sh: no cases file $cases_file" >&2; exit 2; }
mkdir -p "$expected_dir"

# trim VAR: strips leading and trailing whitespace from the variable VAR (no fork).
trim() {
    local -n ref="$1"
    ref="${ref#"${ref%%[![:space:]]*}"}"
    ref="${ref%"${ref##*[![:space:]]}"}"
}

# Parse cases.txt into parallel arrays. Format (see the top of cases.txt):
#   NAME | EXIT_CODE | TOOL ARG... [< STDIN_FILE]
names=()
codes=()
commands=()
declare -A seen=()
line_no=0
while IFS= read -r line || [[ -n "$line" ]]; do
    line_no=$((line_no + 1))
    stripped="$line"
    trim stripped
    [[ -z "$stripped" || "$stripped" == \#* ]] && continue
    f_name="" f_code="" f_cmd="" f_extra=""
    IFS='|' read -r f_name f_code f_cmd f_extra <<<"$stripped"
    trim f_name
    trim f_code
    trim f_cmd
    if [[ -n "$f_extra" || -z "$f_cmd" ]]; then
        echo "$cases_file:$line_no: expected 'NAME | EXIT_CODE | TOOL ARGS... [< FILE]'" >&2
        exit 2
    fi
    if [[ ! "$f_name" =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]]; then
        echo "$cases_file:$line_no: bad case name '$f_name' (letters, digits, . _ -)" >&2
        exit 2
    fi
    if [[ ! "$f_code" =~ ^[0-9]+$ ]]; then
        echo "$cases_file:$line_no: bad exit code '$f_code'" >&2
        exit 2
    fi
    if [[ -n "${seen[$f_name]-}" ]]; then
        echo "$cases_file:$line_no: duplicate case name '$f_name' (first on line ${seen[$f_name]})" >&2
        exit 2
    fi
    seen[$f_name]=$line_no
    names+=("$f_name")
    codes+=("$f_code")
    commands+=("$f_cmd")
done <"$cases_file"

if [[ $orphans -eq 1 ]]; then
    bad=()
    shopt -s nullglob
    for f in "$expected_dir"/*; do
        base=$(basename "$f")
        stem="${base%.*}"
        ext="${base##*.}"
        if [[ ("$ext" != txt && "$ext" != err) || -z "${seen[$stem]-}" ]]; then
            bad+=("tests/golden/expected/$base")
        fi
    done
    if [[ ${#bad[@]} -gt 0 ]]; then
        echo "files in tests/golden/expected/ that no case of cases.txt uses:" >&2
        printf '  %s\n' "${bad[@]}" >&2
        exit 1
    fi
    echo "no orphan expected files (${#names[@]} cases)"
    exit 0
fi

for s in "${selected[@]+"${selected[@]}"}"; do
    if [[ -z "${seen[$s]-}" ]]; then
        echo "run_golden.sh: no case named '$s' in $cases_file" >&2
        exit 2
    fi
done

is_selected() {
    [[ ${#selected[@]} -eq 0 ]] && return 0
    local s
    for s in "${selected[@]}"; do [[ "$s" == "$1" ]] && return 0; done
    return 1
}

work=$(mktemp -d "${TMPDIR:-/tmp}/nettopo-golden.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Compares (or, with --update, rewrites) one expected stream file.
# Returns 1 on a difference that was not rewritten.
check_stream() {
    local name="$1" actual="$2" expected="$3" label="$4"
    if [[ $update -eq 1 ]]; then
        if [[ -s "$actual" ]]; then
            if [[ ! -f "$expected" ]] || ! cmp -s "$actual" "$expected"; then
                cp "$actual" "$expected"
                echo "  updated ${expected#"$root"/}"
            fi
        elif [[ -f "$expected" ]]; then
            rm -f "$expected"
            echo "  removed ${expected#"$root"/} (now empty)"
        fi
        return 0
    fi
    local want="$expected"
    [[ -f "$want" ]] || want=/dev/null
    if ! cmp -s "$actual" "$want"; then
        echo "  $label differs from ${expected#"$root"/}$([[ "$want" == /dev/null ]] && echo ' (missing: expected empty)'):"
        diff -u --label "expected $label" --label "actual $label" "$want" "$actual" | sed 's/^/    /' || true
        return 1
    fi
    return 0
}

failed=()
ran=0
for i in "${!names[@]}"; do
    name="${names[$i]}"
    is_selected "$name" || continue
    ran=$((ran + 1))
    want_code="${codes[$i]}"
    read -r -a words <<<"${commands[$i]}"
    stdin_file=/dev/null
    n=${#words[@]}
    if [[ $n -ge 2 && "${words[$((n - 2))]}" == "<" ]]; then
        stdin_file="${words[$((n - 1))]}"
        words=("${words[@]:0:$((n - 2))}")
    fi
    tool="${words[0]}"
    args=("${words[@]:1}")
    case "$tool" in
    nettopo-query | nettopo-discover | nettopo-gen | nettopo-bench | nettopo-balance) ;;
    *)
        echo "FAIL $name: unknown tool '$tool' (expected nettopo-query, nettopo-discover, nettopo-gen, nettopo-bench or nettopo-balance)"
        failed+=("$name"); continue ;;
    esac
    if [[ "$stdin_file" != /dev/null && ! -f "$root/$stdin_file" ]]; then
        echo "FAIL $name: no stdin file '$stdin_file' (paths are relative to the project root)"
        failed+=("$name"); continue
    fi

    out="$work/$name.out"
    err="$work/$name.err"
    code=0
    (
        cd "$root"
        # A fixed environment: no default archive, stable messages.
        unset NETTOPO_ARCHIVE SLURM_JOB_NODELIST PBS_NODEFILE  # --job: not inside a job
        export LC_ALL=C
        exec "$bin_dir/$tool" "${args[@]+"${args[@]}"}" <"$stdin_file" >"$out" 2>"$err"
    ) || code=$?

    ok=1
    report=$(
        status=0
        check_stream "$name" "$out" "$expected_dir/$name.txt" stdout || status=1
        check_stream "$name" "$err" "$expected_dir/$name.err" stderr || status=1
        exit $status
    ) || ok=0
    if [[ "$code" != "$want_code" ]]; then
        ok=0
        report="  exit status $code, expected $want_code (cases.txt; --update never changes it)"$'\n'"$report"
    fi
    if [[ $ok -eq 1 ]]; then
        echo "ok   $name"
        [[ -n "$report" ]] && printf '%s\n' "$report"
    else
        echo "FAIL $name: ${commands[$i]}"
        printf '%s\n' "$report"
        failed+=("$name")
    fi
done

echo
if [[ ${#failed[@]} -gt 0 ]]; then
    echo "${#failed[@]} of $ran golden cases failed:"
    printf '  %s\n' "${failed[@]}"
    exit 1
fi
echo "all $ran golden cases passed$([[ $update -eq 1 ]] && echo ' (expected files updated)')"
