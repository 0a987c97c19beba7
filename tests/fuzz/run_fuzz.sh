#!/usr/bin/env bash
# One fuzz target for a bounded time, from its seed corpus (seeds.sh, put
# together at run time from the project's test inputs and ../shared), its
# dictionary (dict/TARGET.dict) and the corpus earlier runs left in WORK_DIR.
# Exit 0 when libFuzzer found nothing; a finding is written to
# WORK_DIR/TARGET-crash-..., -leak-..., -oom-..., -timeout-... and fails.
#
# Usage: run_fuzz.sh FUZZER TARGET SECONDS WORK_DIR [libFuzzer options...]
# e.g. 30 minutes, one process:
#   tests/fuzz/run_fuzz.sh build/fuzz/bin/fuzz_description description 1800 build/fuzz/fuzz-work
set -euo pipefail
fuzzer=$1 target=$2 seconds=$3 work=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work/corpus-$target"
rm -rf "$work/seeds-$target"
"$here/seeds.sh" "$target" "$work/seeds-$target"
dict=()
[[ -f "$here/dict/$target.dict" ]] && dict=(-dict="$here/dict/$target.dict")
# -rss_limit_mb / -malloc_limit_mb: a reader that takes more than this for a
# 64 KiB input is a finding (amplification); -timeout: one input, seconds.
exec "$fuzzer" -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -malloc_limit_mb=1024 \
    -timeout=25 -print_final_stats=1 -artifact_prefix="$work/$target-" "${dict[@]}" "$@" \
    "$work/corpus-$target" "$work/seeds-$target" "$here/regressions/$target"
