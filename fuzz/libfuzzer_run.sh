#!/bin/sh
# One time-boxed libFuzzer run of one harness, as the CI stage and the campaign run it:
#   fuzz/libfuzzer_run.sh TARGET SECONDS BUILD_DIR WORK_DIR
# BUILD_DIR holds fuzz/fuzz_TARGET and fuzz/seeds/TARGET (a GGUFSAFE_BUILD_FUZZERS build).
# The corpus grows in WORK_DIR/corpus/TARGET (kept between runs), findings land in
# WORK_DIR/artifacts/TARGET/, the log in WORK_DIR/logs/TARGET.log, and one result line
#   TARGET SECONDS EXECS EXEC_PER_SEC EDGES FEATURES CORPUS_FILES FINDINGS CPU_SECONDS
# in WORK_DIR/results/TARGET. Exit status 0 when the run ended without a finding; otherwise 1,
# after printing every reproducer as a path and as hex.
set -u
[ $# -eq 4 ] || { echo "usage: $0 TARGET SECONDS BUILD_DIR WORK_DIR" >&2; exit 2; }
t=$1 secs=$2 build=$3 work=$4
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$build/fuzz/fuzz_$t
seeds=$build/fuzz/seeds/$t
[ -x "$bin" ] || { echo "libfuzzer_run.sh: no $bin" >&2; exit 2; }
[ -d "$seeds" ] || { echo "libfuzzer_run.sh: no seeds in $seeds" >&2; exit 2; }
corpus=$work/corpus/$t
art=$work/artifacts/$t
log=$work/logs/$t.log
mkdir -p "$corpus" "$art" "$work/logs" "$work/results" # libFuzzer needs them to exist

# Leaks, UB and memory errors abort the run; the harnesses' oracles abort too.
ASAN_OPTIONS=${FUZZ_ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
UBSAN_OPTIONS=${FUZZ_UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:abort_on_error=1}
export ASAN_OPTIONS UBSAN_OPTIONS

dict=$root/fuzz/$t.dict # a harness's own dictionary, or the GGUF one
[ -f "$dict" ] || dict=$root/fuzz/gguf.dict
"$bin" -max_total_time="$secs" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
    -dict="$dict" -print_final_stats=1 -artifact_prefix="$art/" \
    "$corpus" "$seeds" >"$log" 2>&1
rc=$?
# CPU time of the fuzzer (user + system), from the shell's children times: the cores are
# shared, so wall time overstates the fuzzing done.
# (times must run in this shell, not in a pipeline's subshell).
times >"$work/logs/$t.times"
cpu=$(tail -n 1 "$work/logs/$t.times" | awk '{ n = 0; for (i = 1; i <= 2; i++) {
      split($i, a, "m"); n += a[1] * 60 + a[2] } printf "%d", n + 0.5 }')

stat() { sed -n "s/^stat::$1: *//p" "$log" | tail -n 1; }
execs=$(stat number_of_executed_units)
eps=$(stat average_exec_per_sec)
# the last status line: "#N DONE cov: E ft: F corp: C/..."
last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -n 1)
edges=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
features=$(echo "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
files=$(find "$corpus" -type f | wc -l)
# slow-unit-* files are reports, not failures (a real hang is a timeout-* artifact)
findings=$(find "$art" -type f ! -name 'slow-unit-*' | wc -l)
echo "$t $secs ${execs:-0} ${eps:-0} ${edges:-0} ${features:-0} $files $findings $cpu" \
    >"$work/results/$t"

if [ "$rc" -eq 0 ] && [ "$findings" -eq 0 ]; then
    exit 0
fi
echo "=== fuzz_$t: FINDING (libFuzzer exit status $rc); log $log"
grep -E 'ERROR: |oracle failed|runtime error|SUMMARY: ' "$log" | head -n 20
for f in $(find "$art" -type f ! -name 'slow-unit-*'); do
    echo "--- reproducer: $f ($(wc -c <"$f") bytes; the last 4 are the options trailer)"
    echo "    replay: $bin $f    (or replay_$t $f in any build)"
    od -Ax -tx1 -v "$f"
done
exit 1
