#!/usr/bin/env bash
# The ThreadSanitizer stage: every threaded path of the command under clang-14's TSan
# (TSAN_OPTIONS=halt_on_error=1, so the first data race fails the stage):
#   1. a TSan build (BUILD_DIR, default build/tsan) of the command, test_threaded and the corpus;
#   2. test_threaded: hash (a reader and hashers), certify --deep (parallel scans) and diff
#      (parallel comparisons) with 1 and 4 threads, reports compared byte for byte, on two 3-part
#      sets of about 6 MiB a part and on every file of the generated corpus (certify --deep of
#      each; hash and diff with itself of those the lenient reader accepts), in one process;
#   3. the command itself, --jobs 4, on the sets: hash, certify --deep, diff of one with the other.
# dequant decodes on one thread and has no threaded path to check yet. Criterion cannot start
# under TSan (Snaipe/Criterion#274), so the stage runs plain programs only.
#
# clang-14's TSan needs a fixed layout of the address space: with vm.mmap_rnd_bits above 28 it
# cannot map its shadow ("FATAL: ThreadSanitizer: unexpected memory mapping"), so every run then
# goes under `setarch -R` (no address-space randomization for that process).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build=${1:-$root/build/tsan}
jobs=$(nproc 2>/dev/null || echo 2)
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"

run=()
bits=$(cat /proc/sys/vm/mmap_rnd_bits 2>/dev/null || echo 0)
if [ "$bits" -gt 28 ]; then
    run=(setarch "$(uname -m)" -R)
    echo "vm.mmap_rnd_bits is $bits (> 28): running under ${run[*]}"
fi

echo "--- build: clang-14 -fsanitize=thread"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_C_COMPILER=clang-14 \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGGUFSAFE_SANITIZE=thread -DGGUFSAFE_WERROR=ON >/dev/null
cmake --build "$build" -j "$jobs" --target ggufsafe_cli test_threaded corpus_generated

cli=$build/cli/ggufsafe
work=$build/tsan-work
rm -rf "$work"
mkdir -p "$work/sets"

echo "--- test_threaded: 1 and 4 threads on 3-part sets and the corpus"
"${run[@]}" "$build/cli/tests/test_threaded" --keep "$work/sets" \
    --corpus "$build/corpus/generated" "$root/corpus/manifest.tsv"

# One command under TSan: its exit status must be one the command documents (0, 1, 2); a race
# aborts it with TSan's report on stderr, which is printed.
tsan_run() {
    local log rc=0
    log=$(mktemp "$work/log.XXXXXX")
    "${run[@]}" "$cli" "$@" >/dev/null 2>"$log" || rc=$?
    if [ "$rc" -gt 2 ] || grep -q "ThreadSanitizer" "$log"; then
        echo "=== ggufsafe $* : exit $rc"
        cat "$log"
        rm -f "$log"
        return 1
    fi
    rm -f "$log"
}

echo "--- the command on the sets, --jobs 4"
a=$work/sets/a-00001-of-00003.gguf
b=$work/sets/b-00001-of-00003.gguf
tsan_run hash --jobs 4 "$a"
tsan_run certify --deep --jobs 4 "$a"
tsan_run diff --jobs 4 "$a" "$b"
echo "ci/tsan.sh: no data race in test_threaded (the sets and the corpus) nor in the command"
