#!/usr/bin/env bash
# tools.interrupted_writes: a write killed at a random moment never damages
# its target, and leaves no temporary file after SIGTERM; the temporaries a
# SIGKILL can leave are removed by the next write of the same target, and a
# live writer's are not (share/doc/archive-format.md, "Atomic"; finding K1 of
# issue 15: SIGTERM used to leave a big.xml.tmp.XXXXXX of up to 31 MB).
#
# Two writers, each run $TRIALS times per signal (SIGTERM, SIGKILL) over an
# old file: nettopo-discover writing a 20 MB archive, nettopo-query index
# writing a 46 MB image. Each trial waits until the writer has opened its
# temporary (seen in /proc/PID/fd), then kills it after a random part of the
# write's measured duration (or lets it finish). Then: the target is
# byte-identical to the old file or to the complete new one; after SIGTERM
# no TARGET.tmp.* is left. Set SEED to replay a run (it is printed).
#
# Usage: interrupted_writes.sh BIN_DIR PROJECT_ROOT
# shellcheck disable=SC2015  # "A && pass || fail": pass and echo never fail
set -euo pipefail

# shellcheck source=common.sh
source "$(dirname "$0")/common.sh" interrupted "$@"
discover="$bin/nettopo-discover"
gen="$bin/nettopo-gen"
query="$bin/nettopo-query"
# Under a sanitizer (NETTOPO_SANITIZED, set by the sanitize build's tests) the
# writers run 10 times slower: 6 trials each there check the same paths; the
# release build runs the 20 per writer and signal this test stands for.
# Its writes are as slow on sources an eighth as large (40x40x40 and
# 30x30x30 tori), which still take long enough to be killed midway.
if [[ ${NETTOPO_SANITIZED:-} == 1 ]]; then
    trials=${TRIALS:-6} archive_dims=40x40x40 image_dims=30x30x30
else
    trials=${TRIALS:-20} archive_dims=80x80x80 image_dims=60x60x60
fi
seed=${SEED:-$((${EPOCHREALTIME/./} % 32768))}
RANDOM=$seed
echo "seed $seed, $trials trials per writer and signal"

now_ms() { echo $((${EPOCHREALTIME/./} / 1000)); }

# Waits until process PID has a temporary of the write open (an unnamed file,
# "(deleted)", or a named *.tmp.*, in folder $work) or has ended; sets
# $temporary_kind to "unnamed", "named" or "none seen".
wait_for_write() {
    local pid="$1" fds
    temporary_kind="none seen"
    while kill -0 "$pid" 2>/dev/null; do
        fds=$(ls -l "/proc/$pid/fd" 2>/dev/null || true)
        [[ "$fds" == *"$work/"*"(deleted)"* ]] && temporary_kind=unnamed && return 0
        [[ "$fds" == *"$work/"*".tmp."* ]] && temporary_kind=named && return 0
        sleep 0.002
    done
}

# The temporaries of TARGET left in its folder.
temporaries_of() { find "$work" -maxdepth 1 -name "$(basename "$1").tmp.*" -print; }

# run_trials NAME KIND TARGET OLD NEW WRITER...: OLD is put in place of TARGET,
# WRITER (which writes NEW's bytes to TARGET through a temporary of KIND,
# named or unnamed) is started and killed, $trials times per signal.
run_trials() {
    local name="$1" kind="$2" target="$3" old="$4" new="$5"
    shift 5
    # Calibration: how long the write lasts once its temporary is open, the
    # shortest of three runs (a first run on a cold cache lasts far longer,
    # and kills timed by it would mostly come after the write).
    local pid t0 t1 write_ms=0 run
    for run in 1 2 3; do
        rm -f "$target"
        "$@" >/dev/null 2>"$work/stderr" &
        pid=$!
        wait_for_write "$pid"
        t0=$(now_ms)
        wait "$pid" || fail "$name: the calibration run failed: $(cat "$work/stderr")"
        t1=$(now_ms)
        cmp -s "$target" "$new" || fail "$name: a complete run does not write the expected bytes"
        ((write_ms == 0 || t1 - t0 + 1 < write_ms)) && write_ms=$((t1 - t0 + 1))
    done
    echo "$name: the write lasts about $write_ms ms, through a temporary: $temporary_kind"
    [[ $temporary_kind == "$kind" ]] || fail "$name: expected a $kind temporary, saw $temporary_kind"
    local signal
    for signal in TERM KILL; do
        local killed=0 completed=0 strays=0 i
        for ((i = 0; i < trials; i++)); do
            cp "$old" "$target"
            "$@" >/dev/null 2>"$work/stderr" &
            pid=$!
            wait_for_write "$pid"
            local ms=$((RANDOM % (write_ms * 11 / 10 + 1)))
            sleep "$((ms / 1000)).$(printf %03d $((ms % 1000)))"
            kill -s "$signal" "$pid" 2>/dev/null || true
            local code=0
            { wait "$pid"; } 2>/dev/null || code=$? # no "Killed" line from bash
            local expected_code=$((128 + $(kill -l "$signal")))
            if [[ $code -eq 0 ]]; then
                completed=$((completed + 1))
                # The write took less than the wait: later kills come sooner.
                ((ms < write_ms)) && write_ms=$((ms > 0 ? ms : 1))
            elif [[ $code -eq $expected_code ]]; then
                killed=$((killed + 1))
            else
                fail "$name SIG$signal trial $i (${ms} ms): exit $code: $(cat "$work/stderr")"
            fi
            if ! cmp -s "$target" "$old" && ! cmp -s "$target" "$new"; then
                fail "$name SIG$signal trial $i (${ms} ms): the target is neither the old nor the new file"
            fi
            local left
            left=$(temporaries_of "$target")
            if [[ -n "$left" ]]; then
                strays=$((strays + 1))
                [[ $signal == TERM ]] && fail "$name SIGTERM trial $i (${ms} ms) left $left"
            fi
        done
        echo "$name SIG$signal: $killed killed while writing, $completed completed, $strays left a temporary"
        # A test that never kills a write proves nothing.
        [[ $killed -ge $((trials / 4)) ]] &&
            pass "$name SIG$signal: the target whole in $trials trials" ||
            fail "$name SIG$signal: only $killed of $trials trials were killed while writing"
    done
    # The next write removes what SIGKILL left.
    "$@" >/dev/null 2>"$work/stderr" || fail "$name: the write after the kills failed"
    [[ -z "$(temporaries_of "$target")" ]] && pass "$name: the next write leaves no temporary" ||
        fail "$name: temporaries left after the next write: $(temporaries_of "$target")"
}

# The sources: a 512,000-machine torus (its archive is 20 MB) and a 216,000-machine one
# (a 46 MB image), an eighth of that under a sanitizer, read from images so that the
# tools' time goes to writing; the old files are those of a small torus.
"$gen" torus --dims "$archive_dims" -o "$work/new.xml" -q
"$query" -q -i "$work/new.xml" index --kind none -o "$work/archive-source.ntimg" >/dev/null
"$gen" torus --dims "$image_dims" -o "$work/image-source.xml" -q
"$query" -q -i "$work/image-source.xml" index --kind none -o "$work/image-source.ntimg" >/dev/null
"$query" -q -i "$work/image-source.ntimg" index --kind none -o "$work/new.ntimg" >/dev/null
"$gen" torus --dims 10x10x10 -o "$work/old.xml" -q
"$query" -q -i "$work/old.xml" index --kind none -o "$work/old.ntimg" >/dev/null
rm "$work/image-source.xml"

run_trials archive unnamed "$work/target.xml" "$work/old.xml" "$work/new.xml" \
    "$discover" -q -i "$work/archive-source.ntimg" -o "$work/target.xml"
run_trials image unnamed "$work/target.ntimg" "$work/old.ntimg" "$work/new.ntimg" \
    "$query" -q -i "$work/image-source.ntimg" index --kind none -o "$work/target.ntimg"

# A filesystem without unnamed files (NFS): open(O_TMPFILE) made to fail by a
# preloaded library (no_unnamed_files.cpp, built beside the tests). The
# named temporary is removed by the tools' SIGTERM handler, and what SIGKILL
# leaves by the next write.
preload=${NETTOPO_NO_UNNAMED_FILES:-}
if [[ -n "$preload" && -f "$preload" ]] && LD_PRELOAD="$preload" "$query" --version >/dev/null 2>&1; then
    trials=${NAMED_TRIALS:-10}
    LD_PRELOAD="$preload" run_trials "archive (named)" named "$work/target.xml" "$work/old.xml" \
        "$work/new.xml" "$discover" -q -i "$work/archive-source.ntimg" -o "$work/target.xml"
    # SIGINT (^C): with job control, so that the background writer does not
    # start with SIGINT ignored; once ignored (nohup), it stays ignored.
    rm -f "$work/target.xml"
    for ignored in no yes; do
        code=$(LD_PRELOAD="$preload" bash -c '
            set -m
            [[ $1 == yes ]] && trap "" INT
            "${@:3}" & pid=$!
            until [[ -n "$(find "$2" -maxdepth 1 -name "target.xml.tmp.*")" ]] || ! kill -0 $pid 2>/dev/null; do
                sleep 0.002
            done
            kill -INT $pid
            wait $pid 2>/dev/null
            echo $?' sigint "$ignored" "$work" \
            "$discover" -q -i "$work/archive-source.ntimg" -o "$work/target.xml" 2>/dev/null)
        left=$(temporaries_of "$work/target.xml")
        if [[ $ignored == no ]]; then
            [[ $code -eq 130 && -z "$left" && ! -e "$work/target.xml" ]] &&
                pass "SIGINT: exit 130, no temporary, no target" ||
                fail "SIGINT: exit $code, left: $left $(ls "$work"/target.xml 2>/dev/null)"
        else
            [[ $code -eq 0 && -z "$left" ]] && cmp -s "$work/target.xml" "$work/new.xml" &&
                pass "SIGINT ignored (nohup): the write completes" ||
                fail "SIGINT ignored: exit $code, left: $left"
        fi
    done
    unset LD_PRELOAD
else
    echo "SKIPPED: the named temporaries (no preloadable \$NETTOPO_NO_UNNAMED_FILES, or a sanitizer build)"
fi

# Stale temporaries, as a killed writer leaves them on a filesystem without
# unnamed files: the next write of the target removes those no process holds
# a lock on, and leaves a live writer's (locked), other files' and files of
# other names alone.
d="$work/stale"
mkdir "$d"
cp "$work/old.ntimg" "$d/t.ntimg"
for f in t.ntimg.tmp.Stale1 t.ntimg.tmp.Live22 t.ntimg.tmp.long123 u.ntimg.tmp.Other3 t.ntimg.tmp.ab-12; do
    echo partial >"$d/$f"
done
# The holder is the locking process itself (exec, no child): `flock FILE
# sleep 60` would leave its sleep running after the kill, holding the test's
# output open, and ctest waits for it for a minute.
(
    exec 9>>"$d/t.ntimg.tmp.Live22"
    flock 9
    exec sleep 60
) >/dev/null 2>&1 &
holder=$!
sleep 0.2
"$query" -q -i "$work/image-source.ntimg" index --kind none -o "$d/t.ntimg" >/dev/null ||
    fail "writing over stale temporaries failed"
kill "$holder" 2>/dev/null || true
wait "$holder" 2>/dev/null || true
cmp -s "$d/t.ntimg" "$work/new.ntimg" || fail "the image written over stale temporaries differs"
[[ ! -e "$d/t.ntimg.tmp.Stale1" ]] && pass "a stale temporary is removed by the next write" ||
    fail "the stale t.ntimg.tmp.Stale1 is still there"
for f in t.ntimg.tmp.Live22 t.ntimg.tmp.long123 u.ntimg.tmp.Other3 t.ntimg.tmp.ab-12; do
    [[ -e "$d/$f" ]] || fail "$f was removed, though it is not a stale temporary of t.ntimg"
done
pass "a locked temporary and files of other names are kept"

if [[ $failures -gt 0 ]]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "all checks passed"
