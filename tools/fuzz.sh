#!/usr/bin/env bash
# libFuzzer over line → decode → apply to the session host (Sources/dynd-fuzz, HostFuzzing).
#
#   tools/fuzz.sh [SECONDS]      (default 60; `make fuzz FUZZ_SECONDS=600`)
#
# Builds dynd-fuzz with libFuzzer and AddressSanitizer in .build-fuzz (the `swift build
# --sanitize=fuzzer` line below is the recipe; README.md, "Testing", `make fuzz`), then fuzzes for
# SECONDS from a writable copy of Tests/Fuzz/corpus (kept in .build-fuzz, so the checked-in seeds
# are never touched and coverage grows from run to run), with the protocol dictionary. An input
# addresses up to four peers (lines starting "@N ", N 0…3, and the actions "@N close", "@N
# reset", "@N stall", "@N read"; see HostFuzzDriver) and may be up to 1 MiB (-max_len); the
# driver's budget bounds each input's work. Exits non-zero if an input crashed, hung or broke an
# output check; the input is saved under .build-fuzz/artifacts/. Once fixed, add it to
# Tests/Fuzz/corpus as repro-NAME.jsonl.
set -euo pipefail

seconds="${1:-60}"
root="$(cd "$(dirname "$0")/.." && pwd)"
scratch="$root/.build-fuzz"
work="$scratch/corpus"
artifacts="$scratch/artifacts/"
log="$scratch/fuzz.log"

cd "$root"
echo "building dynd-fuzz (libFuzzer + ASan) in $scratch"
# Release: twice the executions of a debug build. The corpus replay test runs the same inputs
# through a debug build, with its assertions.
swift build -c release --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld \
  --product dynd-fuzz --scratch-path "$scratch"
binary="$scratch/release/dynd-fuzz"

mkdir -p "$work" "$artifacts"
for seed in Tests/Fuzz/corpus/*; do
  [ -e "$work/${seed##*/}" ] || cp "$seed" "$work/"
done

echo "fuzzing for ${seconds}s from $(ls "$work" | wc -l) inputs"
status=0
# SWIFT_BACKTRACE=enable=no: Swift's backtracer would catch the crash before libFuzzer saves it.
SWIFT_BACKTRACE=enable=no "$binary" \
  -max_total_time="$seconds" -timeout=20 -max_len=1048576 -print_final_stats=1 \
  -dict=Tests/Fuzz/protocol.dict -artifact_prefix="$artifacts" "$work" >"$log" 2>&1 || status=$?

echo "--- summary (full log: $log)"
grep -E '^#[0-9]+[[:space:]]+(INITED|DONE)' "$log" || true
grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' "$log" || true
echo "corpus: $(ls "$work" | wc -l) inputs in $work," \
  "$(grep -lE '^@[1-3]( |$)' "$work"/* 2>/dev/null | wc -l) of them on several connections," \
  "the largest $(ls -S "$work" | head -1 | xargs -I{} stat -c %s "$work/{}") bytes"
if [ "$status" -ne 0 ]; then
  echo "FAILED (libFuzzer exit $status):"
  grep -E 'ERROR: |Fatal error|SUMMARY: |Test unit written to' "$log" | head -20 || true
  exit "$status"
fi
echo "no crash"
