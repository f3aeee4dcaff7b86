#!/usr/bin/env bash
# The CI fuzz stage:
#   1. libFuzzer harnesses (clang-14, ASan+UBSan) into build/fuzz, AFL++ targets into build/afl;
#   2. the OSS-Fuzz build script run here (fuzz/oss_fuzz_local.sh): it must produce every
#      fuzzer with its seed zip, dictionary and options file;
#   3. every harness fuzzed for FUZZ_SECONDS (default 60) with libFuzzer, and the reader harness
#      with AFL++ as well, two at a time (2 cores), from the seeds (the generated corpus, files
#      of at most 64 KiB) with -max_len=65536;
#   4. a table of executions and exec/s per run.
# Builds go to $BUILD_ROOT (default build/): fuzz/, afl/, oss-fuzz/, fuzz-ci/ (the runs).
# Any finding (crash, oracle failure, leak, timeout, OOM) fails the stage, and its reproducer is
# printed as a path and as hex.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
secs=${FUZZ_SECONDS:-60}
jobs=$(nproc 2>/dev/null || echo 2)
parallel=2
broot=${BUILD_ROOT:-$root/build} # where the three builds and the work directory go
build=$broot/fuzz
afl_build=$broot/afl
work=$broot/fuzz-ci
targets=(open dequant decode_blocks roundtrip detect certify manifest open_file utf8 walk
         type_spec plugin_table)

echo "--- build: libFuzzer (ASan+UBSan) and AFL++"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_C_COMPILER=clang-14 \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGGUFSAFE_SANITIZE=address,undefined \
      -DGGUFSAFE_BUILD_FUZZERS=ON -DGGUFSAFE_BUILD_TESTS=OFF -DGGUFSAFE_WERROR=ON >/dev/null
cmake --build "$build" -j "$jobs" --target fuzzers
sh fuzz/build_afl.sh "$afl_build"

echo "--- OSS-Fuzz build script, run here"
sh fuzz/oss_fuzz_local.sh "$broot/oss-fuzz"

# Every run starts from the seeds alone, so the stage does the same work each time.
rm -rf "$work"
mkdir -p "$work/results"

# AFL++ on the reader: persistent mode, shared-memory test cases. Leak detection is off here
# (in persistent mode a leak cannot be tied to one input); fuzz_open checks the reader's
# allocations itself, and the libFuzzer run has LeakSanitizer on.
run_afl() {
    local t=$1 out=$work/afl-$1
    AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 AFL_NO_AFFINITY=1 \
    ASAN_OPTIONS=abort_on_error=1:symbolize=0:detect_leaks=0 \
    UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:symbolize=0 \
        afl-fuzz -V "$secs" -i "$build/fuzz/seeds/$t" -o "$out" -x fuzz/gguf.dict -t 10000 \
            -- "$afl_build/fuzz/afl_$t" >"$work/afl-$t.log" 2>&1 || true
    local stats=$out/default/fuzzer_stats
    local execs eps corpus cov findings
    execs=$(sed -n 's/^execs_done *: //p' "$stats" 2>/dev/null)
    eps=$(sed -n 's/^execs_per_sec *: //p' "$stats" 2>/dev/null)
    corpus=$(sed -n 's/^corpus_count *: //p' "$stats" 2>/dev/null)
    cov=$(sed -n 's/^bitmap_cvg *: //p' "$stats" 2>/dev/null)
    findings=$(find "$out/default/crashes" "$out/default/hangs" -type f -name 'id:*' 2>/dev/null |
               wc -l)
    if [ ! -f "$stats" ]; then
        findings=1 # afl-fuzz did not run: show its log
        tail -n 30 "$work/afl-$t.log"
    fi
    echo "afl_$t $secs ${execs:-0} ${eps:-0} ${cov:-?} - ${corpus:-0} $findings" \
        >"$work/results/afl_$t"
    [ "$findings" -eq 0 ] && return 0
    echo "=== afl_$t: FINDING; log $work/afl-$t.log"
    for f in $(find "$out/default/crashes" "$out/default/hangs" -type f -name 'id:*'); do
        echo "--- reproducer: $f ($(wc -c <"$f") bytes; the last 4 are the options trailer)"
        echo "    replay: $afl_build/fuzz/afl_$t < FILE    (or replay_$t FILE in any build)"
        od -Ax -tx1 -v "$f"
    done
    return 1
}

echo "--- fuzzing: ${secs}s per run, $parallel at a time"
t0=$SECONDS
failed=0
running=0
runs=()
for t in "${targets[@]}"; do runs+=("libfuzzer:$t"); done
runs+=("afl:open")
for r in "${runs[@]}"; do
    if [ "$running" -ge "$parallel" ]; then
        wait -n || failed=1
        running=$((running - 1))
    fi
    engine=${r%%:*} t=${r#*:}
    if [ "$engine" = libfuzzer ]; then
        sh fuzz/libfuzzer_run.sh "$t" "$secs" "$build" "$work" &
    else
        run_afl "$t" &
    fi
    running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
    wait -n || failed=1
    running=$((running - 1))
done

echo
echo "| run | seconds | executions | exec/s | edges (libFuzzer cov) / bitmap (AFL) | corpus | findings |"
echo "|---|---|---|---|---|---|---|"
for f in "$work"/results/*; do
    read -r name s execs eps edges _ files findings _ <"$f"
    case $name in afl_*) ;; *) name=fuzz_$name ;; esac
    echo "| $name | $s | $execs | $eps | $edges | $files | $findings |"
done
echo "fuzzing wall time: $((SECONDS - t0))s"
if [ "$failed" -ne 0 ]; then
    echo "ci/fuzz_ci.sh: FINDINGS (reproducers above)"
    exit 1
fi
echo "ci/fuzz_ci.sh: no findings"
