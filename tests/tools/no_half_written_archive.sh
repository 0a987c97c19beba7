#!/usr/bin/env bash
# tools.no_half_written_archive: nettopo-discover never leaves a partial
# archive behind, and a failed run does not touch an existing archive
# (share/doc/archive-format.md, "Atomic").
#
# Usage: no_half_written_archive.sh BIN_DIR PROJECT_ROOT
# shellcheck disable=SC2015  # "A && pass || fail": pass and echo never fail
set -euo pipefail

# shellcheck source=common.sh
source "$(dirname "$0")/common.sh" atomic "$@"
discover="$bin/nettopo-discover"
good="$root/tests/golden/inputs/fig9b.topo"
other="$root/tests/golden/inputs/ring4.topo"
bad="$root/tests/golden/inputs/errors/syntax-error.topo"
newer="$root/tests/golden/inputs/errors/newer-version.xml"


# Runs discover with the given arguments; sets $code and $stderr_text.
run_discover() {
    code=0
    "$discover" "$@" >"$work/stdout" 2>"$work/stderr" </dev/null || code=$?
    stderr_text=$(cat "$work/stderr")
}

# No temporary file of the writer (TARGET.tmp.XXXXXX) may be left in DIR.
no_temp_files() {
    local dir="$1" left
    left=$(find "$dir" -maxdepth 1 -name '*.tmp.*' -print)
    if [[ -n "$left" ]]; then
        fail "temporary files left behind in $dir: $left"
        return 1
    fi
    return 0
}

# 1. A bad description, no archive yet: exit 1, nothing written.
d="$work/fresh"
mkdir "$d"
run_discover -i "$bad" -o "$d/out.xml"
[[ $code -eq 1 ]] && pass "bad description -> exit 1" || fail "bad description: exit $code, expected 1"
[[ "$stderr_text" == *"syntax-error.topo:4:"* ]] || fail "message does not name file:line: $stderr_text"
[[ ! -e "$d/out.xml" ]] && pass "no out.xml after a failed run" || fail "out.xml exists after a failed run"
no_temp_files "$d" && pass "no out.xml.tmp.* after a failed run"
[[ ! -s "$work/stdout" ]] || fail "a failed run printed on stdout: $(cat "$work/stdout")"

# 2. An existing good archive survives failed runs byte for byte.
d="$work/existing"
mkdir "$d"
run_discover -q -i "$good" -o "$d/out.xml"
[[ $code -eq 0 && -s "$d/out.xml" ]] || fail "could not write the good archive (exit $code): $stderr_text"
cp -p "$d/out.xml" "$work/reference.xml"
for input in "$bad" "$newer"; do
    run_discover -i "$input" -o "$d/out.xml"
    [[ $code -eq 1 ]] && pass "$(basename "$input") over an archive -> exit 1" ||
        fail "$(basename "$input") over an archive: exit $code, expected 1"
    cmp -s "$d/out.xml" "$work/reference.xml" && pass "old archive byte-identical after $(basename "$input")" ||
        fail "the old archive changed after a failed run with $(basename "$input")"
    no_temp_files "$d" || true
done
[[ "$(ls -A "$d")" == "out.xml" ]] || fail "unexpected files beside the archive: $(ls -A "$d")"

# Sanity: a successful run does replace it (else the checks above prove nothing),
# with the same bytes as the pinned archive, and ordinary permissions.
run_discover -q -i "$other" -o "$d/out.xml"
[[ $code -eq 0 ]] || fail "rewriting the archive: exit $code: $stderr_text"
cmp -s "$d/out.xml" "$root/tests/golden/expected/discover-ring4.txt" &&
    pass "a good run replaces the archive (same bytes as -o -)" ||
    fail "the rewritten archive differs from tests/golden/expected/discover-ring4.txt"
mode=$(umask 022 && rm -f "$d/mode.xml" && "$discover" -q -i "$good" -o "$d/mode.xml" && stat -c %a "$d/mode.xml")
[[ "$mode" == 644 ]] && pass "archive mode 644 under umask 022" || fail "archive mode $mode under umask 022, expected 644"
# a file replaced keeps the permissions its owner gave it
mode=$("$discover" -q -i "$good" -o "$d/mode.xml" && chmod 600 "$d/mode.xml" &&
    "$discover" -q -i "$good" -o "$d/mode.xml" && stat -c %a "$d/mode.xml")
[[ "$mode" == 600 ]] && pass "a rewritten archive keeps mode 600" || fail "a rewritten archive has mode $mode, expected 600"
rm -f "$d/mode.xml"
no_temp_files "$d" || true

# 3. The write fails after the temporary file was written (the target is a
#    directory, so the final rename fails): exit 1, the temporary file is removed.
d="$work/target-is-dir"
mkdir -p "$d/out.xml"
run_discover -i "$good" -o "$d/out.xml"
[[ $code -eq 1 ]] && pass "target is a directory -> exit 1" || fail "target is a directory: exit $code, expected 1"
[[ -d "$d/out.xml" && -z "$(ls -A "$d/out.xml")" ]] || fail "the directory in the way was modified"
no_temp_files "$d" && pass "no temporary file left when the rename fails"

# 4. The target's folder does not exist: exit 1, nothing created.
run_discover -i "$good" -o "$work/no-such-dir/out.xml"
[[ $code -eq 1 ]] && pass "missing folder -> exit 1" || fail "missing folder: exit $code, expected 1"
[[ ! -e "$work/no-such-dir" ]] || fail "the missing folder was created"

if [[ $failures -gt 0 ]]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "all checks passed"
