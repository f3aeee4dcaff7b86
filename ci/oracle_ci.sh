#!/usr/bin/env bash
# The ggml oracle stage of ci/test.sh (conformance/oracle/): everything that compares ggufsafe
# with ggml's own reference library.
#   1. fetch and verify ggml's package (ci/oracle_fetch.sh). When it cannot be had the stage is
#      skipped with a message, unless GGUFSAFE_REQUIRE_ORACLE=1 (.ci/run sets it): then it fails;
#   2. gcc release build with GGUFSAFE_ORACLE=ON (build/oracle-release): the differential tests
#      (ctest -L oracle: ggml-written files, random blocks, the corpus and its documented
#      disagreements, the differential harness over the corpus, GGUFSAFE_KERNEL=ggml against our
#      paths through the command), then a smoke run of the
#      benchmark against ggml and of ci/bench.sh --quick (every row present; no timing checked);
#   3. clang ASan+UBSan build (build/oracle-asan): the same tests, our side sanitized, ggml's
#      runner (never sanitized) in child processes;
#   4. clang libFuzzer build (build/oracle-fuzz): fuzz_oracle_diff for
#      GGUFSAFE_ORACLE_FUZZ_SECONDS (default 60), seeded with the corpus (corpus/regress/
#      included); any finding fails (the log and the reproducer are printed: keep the input in
#      corpus/regress/ with its manifest line and document the disagreement in
#      conformance/oracle/disagreements.tsv, or fix ggufsafe).
# Only the targets the oracle needs are built, in build/ (GGUFSAFE_ORACLE_BUILD_ROOT moves it).
# Prints a time per step.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
jobs=$(nproc 2>/dev/null || echo 2)
fuzz_seconds=${GGUFSAFE_ORACLE_FUZZ_SECONDS:-60}
builds=${GGUFSAFE_ORACLE_BUILD_ROOT:-build}
# as ci/test.sh sets them, when this stage runs on its own
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
targets="gs_oracle test_oracle_written test_oracle_blocks test_oracle_corpus replay_oracle_diff
         corpus_generated ggufsafe_cli gs_golden gs_fake_ggml_crash"

step() {
    local t0=$SECONDS
    echo "--- oracle: $1"
    shift
    "$@"
    echo "--- oracle: $((SECONDS - t0)) s"
}

fetch() {
    local rc=0
    bash ci/oracle_fetch.sh || rc=$?
    if [ $rc -eq 77 ]; then
        echo "oracle_ci.sh: ggml's package is not available: the oracle stage is skipped" \
             "(GGUFSAFE_REQUIRE_ORACLE=1 makes this a failure)"
        exit 0
    fi
    return $rc
}

build_and_test() {
    local dir=$1; shift
    cmake -S "$root" -B "$dir" -G Ninja -DGGUFSAFE_ORACLE=ON -DGGUFSAFE_WERROR=ON "$@" >/dev/null
    # shellcheck disable=SC2086
    cmake --build "$dir" -j "$jobs" --target $targets
    GGUFSAFE_REQUIRE_ORACLE=1 ctest --test-dir "$dir" -L oracle -j "$jobs" --output-on-failure \
        --timeout 900
}

bench() {
    cmake --build "$builds/oracle-release" -j "$jobs" --target gs_oracle_bench
    "$builds/oracle-release/conformance/oracle/runner/gs_oracle_bench" --quick
}

# ci/bench.sh --quick on the release build: exit 0 and every row of its table present. It checks
# that the benchmark works, never a figure: no timing is asserted.
bench_script() {
    local table rc=0
    table=$(mktemp)
    bash ci/bench.sh --quick --build "$builds/oracle-release" --out "$table" >/dev/null
    for row in "ggufsafe --version" "ggufsafe info, tiny file" "ggufsafe info, vocabulary" \
               "ggufsafe info, 160,000 keys" "gs_open_file, vocab_merges.gguf" \
               "to_float q4_K to f32" "to_float, all types" "ggufsafe hash --jobs 2" \
               "openssl dgst -sha256" "ggufsafe dequant --jobs 1 (statistics)" \
               "ggufsafe dequant --sha256 --jobs 1" "ggufsafe dequant --sha256 --jobs 2" \
               "ggufsafe diff --jobs 1 A B" "ggufsafe certify" \
               "info, keys" "certify, keys" "info, tensors" "certify, tensors" \
               "certify --deep --jobs 1, MiB of F16" "info, MiB of F16"; do
        if ! grep -qF "| $row" "$table"; then
            echo "oracle_ci.sh: ci/bench.sh --quick printed no row '$row'"
            rc=1
        fi
    done
    [ $rc = 0 ] || cat "$table"
    rm -f "$table"
    return $rc
}

fuzz() {
    local dir="$builds/oracle-fuzz" work
    cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_C_COMPILER=clang-14 -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DGGUFSAFE_SANITIZE=address,undefined -DGGUFSAFE_BUILD_FUZZERS=ON -DGGUFSAFE_ORACLE=ON \
        -DGGUFSAFE_BUILD_TESTS=OFF -DGGUFSAFE_WERROR=ON >/dev/null
    cmake --build "$dir" -j "$jobs" --target fuzz_oracle_diff gs_oracle corpus_generated
    work=$(mktemp -d)
    mkdir -p "$work/corpus" "$work/artifacts"
    local rc=0 dict=()
    if [ -f "$root/fuzz/gguf.dict" ]; then
        dict=(-dict="$root/fuzz/gguf.dict")
    fi
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:abort_on_error=1 \
    GGUFSAFE_REQUIRE_ORACLE=1 GS_ORACLE_TIMEOUT=10 \
        "$dir/conformance/oracle/fuzz_oracle_diff" -max_total_time="$fuzz_seconds" \
        -max_len=65536 -timeout=30 -rss_limit_mb=2048 "${dict[@]}" \
        -print_final_stats=1 -artifact_prefix="$work/artifacts/" \
        "$work/corpus" "$dir/corpus/generated" \
        >"$work/log" 2>&1 || rc=$?
    grep -E '^stat::(number_of_executed_units|average_exec_per_sec)|^fuzz_oracle_diff: ggml' \
        "$work/log" || true
    if [ $rc -ne 0 ] || [ -n "$(ls -A "$work/artifacts")" ]; then
        tail -n 40 "$work/log"
        for f in "$work"/artifacts/*; do
            [ -f "$f" ] && echo "reproducer $f: $(od -An -tx1 -v "$f" | tr -d ' \n' | cut -c1-400)"
        done
        echo "oracle_ci.sh: fuzz_oracle_diff found a disagreement (log and reproducers above)"
        rm -rf "$work"
        return 1
    fi
    rm -rf "$work"
}

step "fetch and verify ggml's package" fetch
step "gcc release: differential tests" build_and_test "$builds/oracle-release" \
    -DCMAKE_C_COMPILER=gcc -DCMAKE_BUILD_TYPE=Release
step "benchmark against ggml (smoke run)" bench
step "ci/bench.sh --quick (smoke run: every row, no timing checked)" bench_script
step "clang ASan+UBSan: differential tests" build_and_test "$builds/oracle-asan" \
    -DCMAKE_C_COMPILER=clang-14 -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DGGUFSAFE_SANITIZE=address,undefined
step "differential fuzzing for $fuzz_seconds s" fuzz
echo "oracle_ci.sh: passed"
