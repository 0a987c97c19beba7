#!/usr/bin/env bash
# tools.golden_driver: run_golden.sh itself catches what it must catch. In a
# scratch project root with three tiny cases, it must fail on a changed
# stdout, a changed stderr and a wrong exit status; --update must repair the
# first two but not the exit status; --check-orphans must notice a stray file.
#
# Usage: golden_driver.sh BIN_DIR PROJECT_ROOT
# shellcheck disable=SC2015  # "A && pass || fail": pass and echo never fail
set -euo pipefail

# shellcheck source=common.sh
source "$(dirname "$0")/common.sh" driver "$@"
driver="$root/tests/tools/run_golden.sh"


scratch="$work/root"
mkdir -p "$scratch/tests/golden/inputs" "$scratch/tests/golden/expected"
cp "$root/tests/golden/inputs/fig9b.topo" "$root/tests/golden/inputs/fig9b.pairs" \
    "$scratch/tests/golden/inputs/"
cat >"$scratch/tests/golden/cases.txt" <<'EOF'
# scratch cases
count | 0 | nettopo-query -i tests/golden/inputs/fig9b.topo num-pes
stdin | 0 | nettopo-query -i tests/golden/inputs/fig9b.topo distance --pairs - < tests/golden/inputs/fig9b.pairs
error | 2 | nettopo-query -i tests/golden/inputs/fig9b.topo distance 0 12
EOF
exp="$scratch/tests/golden/expected"

# run WANT_CODE ARGS...: runs the driver, checks its exit status, keeps its output in $log
run() {
    local want="$1" code=0
    shift
    "$driver" "$@" "$bin" "$scratch" >"$work/log" 2>&1 || code=$?
    log=$(cat "$work/log")
    if [[ "$code" != "$want" ]]; then
        fail "run_golden.sh $*: exit $code, expected $want; output:"$'\n'"$log"
        return 1
    fi
    return 0
}

run 0 --update && echo "ok:   --update writes the expected files"
[[ "$(cat "$exp/count.txt")" == 12 ]] || fail "count.txt should hold 12"
[[ ! -e "$exp/count.err" && ! -e "$exp/error.txt" ]] || fail "--update wrote a file for an empty stream"
grep -q "PE 12 does not exist" "$exp/error.err" || fail "error.err should hold the message"
[[ "$(tr '\n' ' ' <"$exp/stdin.txt")" == "8 20 80 0 8 80 " ]] || fail "stdin.txt: $(cat "$exp/stdin.txt")"
run 0 && echo "ok:   a clean tree passes"
run 0 --case count && echo "ok:   --case runs one case"
run 2 --case no-such-case && echo "ok:   an unknown --case is bad usage"

echo 13 >"$exp/count.txt"
run 1 && [[ "$log" == *"FAIL count"* && "$log" == *"-13"* && "$log" == *"+12"* ]] &&
    echo "ok:   a changed stdout fails, with a diff" || fail "changed stdout not reported as expected: $log"
echo "something else" >"$exp/error.err"
run 1 --case error && [[ "$log" == *"FAIL error"* && "$log" == *"stderr differs"* ]] &&
    echo "ok:   a changed stderr fails" || fail "changed stderr not reported: $log"
echo "unexpected" >"$exp/count.err"
run 1 --case count && [[ "$log" == *"stderr differs"* ]] &&
    echo "ok:   stderr expected empty but a .err file says otherwise fails" || fail "stray .err not reported: $log"
run 0 --update && run 0 && [[ ! -e "$exp/count.err" ]] &&
    echo "ok:   --update repairs stdout/stderr and removes emptied files"

sed -i 's/^error | 2 |/error | 1 |/' "$scratch/tests/golden/cases.txt"
run 1 --case error && [[ "$log" == *"exit status 2, expected 1"* ]] &&
    echo "ok:   a wrong exit status fails" || fail "wrong exit status not reported: $log"
run 1 --update --case error && echo "ok:   --update does not paper over an exit status"
sed -i 's/^error | 1 |/error | 2 |/' "$scratch/tests/golden/cases.txt"

touch "$exp/gone.txt"
run 1 --check-orphans && [[ "$log" == *"gone.txt"* ]] && echo "ok:   --check-orphans finds a stray file" ||
    fail "orphan not reported: $log"
rm "$exp/gone.txt"
run 0 --check-orphans && echo "ok:   --check-orphans passes on a clean tree"

echo "dup | 0 | nettopo-query -i tests/golden/inputs/fig9b.topo num-pes" >>"$scratch/tests/golden/cases.txt"
echo "dup | 0 | nettopo-query -i tests/golden/inputs/fig9b.topo num-pes" >>"$scratch/tests/golden/cases.txt"
run 2 && [[ "$log" == *"duplicate case name 'dup'"* ]] && echo "ok:   a duplicate case name is rejected" ||
    fail "duplicate case name not rejected: $log"

if [[ $failures -gt 0 ]]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "all checks passed"
