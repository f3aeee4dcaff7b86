#!/bin/bash -eu
# OSS-Fuzz / ClusterFuzzLite build script: the fuzz_<target> harnesses, each with its seed
# corpus, dictionary and options. Uses only what OSS-Fuzz provides: $CC $CFLAGS $CXX $CXXFLAGS
# $LIB_FUZZING_ENGINE $OUT (and $WORK for scratch, defaulting under $OUT). Any engine works:
# the harnesses only define LLVMFuzzerTestOneInput. fuzz/oss_fuzz_local.sh runs this script here.
root=$(cd "$(dirname "$0")/.." && pwd)
work=${WORK:-$OUT/.work}
# The harnesses, with the engine's flags (GGUFSAFE_OSS_FUZZ: fuzz/CMakeLists.txt).
cmake -S "$root" -B "$work/fuzz" -DCMAKE_BUILD_TYPE=Debug -DGGUFSAFE_BUILD_TESTS=OFF \
      -DGGUFSAFE_OSS_FUZZ=ON "-DGGUFSAFE_LIB_FUZZING_ENGINE=$LIB_FUZZING_ENGINE"
cmake --build "$work/fuzz" -j "$(nproc)" --target oss_fuzz_targets
# The seeds, made by uninstrumented host tools (they run at build time).
CFLAGS= CXXFLAGS= cmake -S "$root" -B "$work/seeds" -DCMAKE_BUILD_TYPE=Release \
      -DGGUFSAFE_BUILD_TESTS=OFF -DGGUFSAFE_OSS_FUZZ=ON
cmake --build "$work/seeds" -j "$(nproc)" --target fuzz_seeds
for f in "$work"/fuzz/oss-fuzz/fuzz_*; do
    t=${f##*/fuzz_}
    cp "$f" "$OUT/"
    rm -f "$OUT/fuzz_${t}_seed_corpus.zip"
    (cd "$work/seeds/fuzz/seeds/$t" && zip -q -r "$OUT/fuzz_${t}_seed_corpus.zip" .)
    dict=$root/fuzz/$t.dict # a harness's own dictionary, or the GGUF one
    [ -f "$dict" ] || dict=$root/fuzz/gguf.dict
    cp "$dict" "$OUT/fuzz_$t.dict"
    printf '[libfuzzer]\nmax_len = 65536\ndict = fuzz_%s.dict\n' "$t" >"$OUT/fuzz_$t.options"
done
