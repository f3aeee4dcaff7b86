#!/usr/bin/env bash
# The whole test suite, as the README's test command and .ci/run run it:
#   1. install what is missing (apt-get)
#   2. gcc 12 release build (hardened, -Werror), every test
#   3. clang-14 ASan+UBSan build (-fno-sanitize-recover=all), every test
#   3a. the ABI against 0.1.0: abidiff of a RelWithDebInfo library (ci/abi_check.sh)
#   3b. ThreadSanitizer: hash, certify --deep and diff with 1 and 4 threads on multi-part sets
#       and the corpus, and the command on the sets (ci/tsan.sh)
#   3c. the Python package: installed bundled and over an installed library, pytest on both and
#       once against the ASan+UBSan library, mypy --strict on the inline-typed package (ci/python.sh)
#   4. aarch64 cross build (the command included, against arm64 libcrypto), the plain-C tests
#      under qemu-aarch64 (cortex-a53 and max): decoders, corpus, fuzz replays, regressions
#   5. fuzzing: every harness under libFuzzer and the reader under AFL++, ASan+UBSan, 60 s each;
#      the OSS-Fuzz build script run here (ci/fuzz_ci.sh)
#   6. coverage of parser/ and kernels/ over the whole suite, with its thresholds (ci/coverage.sh)
#   7. the ggml oracle: differential tests, benchmark smoke run, differential fuzzing
#      (ci/oracle_ci.sh; skipped when ggml's package cannot be fetched, unless
#      GGUFSAFE_REQUIRE_ORACLE=1, which .ci/run sets)
# Prints a per-stage time table at the end (see ci/TIMINGS.md for the budget).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
jobs=$(nproc 2>/dev/null || echo 2)

declare -a stage_names=() stage_secs=()
stage() {
    local name=$1; shift
    local t0=$SECONDS
    echo "=== $name"
    "$@"
    stage_names+=("$name")
    stage_secs+=($((SECONDS - t0)))
}

build_and_test() {
    local dir=$1; shift
    cmake -S "$root" -B "$dir" -G Ninja -DGGUFSAFE_WERROR=ON -DGGUFSAFE_REQUIRE_CRITERION=ON "$@" >/dev/null
    cmake --build "$dir" -j "$jobs"
    ctest --test-dir "$dir" -j "$jobs" --output-on-failure --timeout 900
}

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

stage "dependencies" sh ci/install_deps.sh
stage "gcc release: build + tests" build_and_test build/gcc-release \
    -DCMAKE_C_COMPILER=gcc -DCMAKE_BUILD_TYPE=Release
stage "clang ASan+UBSan: build + tests" build_and_test build/clang-asan \
    -DCMAKE_C_COMPILER=clang-14 -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGGUFSAFE_SANITIZE=address,undefined
stage "ABI: abidiff against 0.1.0, added symbols listed" bash ci/abi_check.sh build/abi
stage "ThreadSanitizer: threaded paths on sets and the corpus" bash ci/tsan.sh build/tsan
stage "python: bundled and installed, pytest (and under ASan), mypy" bash ci/python.sh \
    build/gcc-release build/clang-asan
stage "aarch64 cross + qemu (cortex-a53, max; scalar, neon)" bash ci/qemu_aarch64.sh
stage "fuzzing: libFuzzer + AFL++ (ASan+UBSan), OSS-Fuzz build" bash ci/fuzz_ci.sh
stage "coverage: parser/ and kernels/ (llvm-cov)" bash ci/coverage.sh
stage "ggml oracle: differential tests, benchmark, differential fuzzing" bash ci/oracle_ci.sh

echo
echo "| stage | seconds |"
echo "|---|---|"
total=0
for i in "${!stage_names[@]}"; do
    echo "| ${stage_names[$i]} | ${stage_secs[$i]} |"
    total=$((total + stage_secs[i]))
done
echo "| total | $total |"
echo "ci/test.sh: all stages passed"
