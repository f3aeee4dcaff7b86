#!/bin/sh
# Builds the AFL++ targets afl_<target> (persistent mode, shared-memory test cases) with
# afl-clang-fast under ASan+UBSan, plus the seeds, into BUILD_DIR (default build/afl).
#   fuzz/build_afl.sh [BUILD_DIR]
# Then, for example:
#   AFL_SKIP_CPUFREQ=1 AFL_NO_UI=1 afl-fuzz -V 60 -i BUILD_DIR/fuzz/seeds/open -o out \
#       -x fuzz/gguf.dict -- BUILD_DIR/fuzz/afl_open
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build/afl}
command -v afl-clang-fast >/dev/null || { echo "build_afl.sh: afl-clang-fast not found (apt-get install afl++)" >&2; exit 1; }
# afl-clang-fast instruments every file it compiles: the library, the harness and the driver.
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_C_COMPILER=afl-clang-fast \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGGUFSAFE_SANITIZE=address,undefined \
      -DGGUFSAFE_BUILD_TESTS=OFF -DGGUFSAFE_BUILD_AFL=ON >/dev/null
AFL_QUIET=1 cmake --build "$build" --target afl_open afl_dequant afl_decode_blocks afl_roundtrip afl_detect fuzz_seeds
