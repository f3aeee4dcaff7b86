#!/bin/bash -eu
# OSS-Fuzz / ClusterFuzzLite build script: the fuzz_<target> harnesses, each with its seed
# corpus, dictionary and options. Uses only what OSS-Fuzz provides: $CC $CFLAGS $CXX $CXXFLAGS
# $LIB_FUZZING_ENGINE $OUT (and $WORK for scratch, defaulting under $OUT). Any engine works
# (libFuzzer, AFL++, honggfuzz): the harnesses only define LLVMFuzzerTestOneInput.
# fuzz/oss_fuzz_local.sh runs this script here, without a container, the way OSS-Fuzz would.
root=$(cd "$(dirname "$0")/.." && pwd)
work=${WORK:-$OUT/.work}
targets="open dequant decode_blocks roundtrip certify"
gen=$(command -v ninja >/dev/null && echo Ninja || echo "Unix Makefiles")
jobs=$(nproc 2>/dev/null || echo 2)

# 1. The library, the test writer and certification (conformance/certify/), compiled with the engine's $CFLAGS (coverage
#    instrumentation and sanitizers). Only static libraries: nothing is linked here.
cmake -S "$root" -B "$work/lib" -G "$gen" -DCMAKE_BUILD_TYPE=Debug \
      -DGGUFSAFE_BUILD_TESTS=OFF -DCMAKE_C_FLAGS="$CFLAGS"
cmake --build "$work/lib" -j "$jobs" --target ggufsafe_static gsw_writer gs_certify

# 2. The seeds, made by uninstrumented host tools (the corpus generator and the seed maker run
#    at build time, so they get no sanitizer or coverage flags).
CFLAGS= cmake -S "$root" -B "$work/seeds" -G "$gen" -DCMAKE_BUILD_TYPE=Release \
      -DGGUFSAFE_BUILD_TESTS=OFF -DCMAKE_C_FLAGS=""
cmake --build "$work/seeds" -j "$jobs" --target fuzz_seeds
seeds=$work/seeds/fuzz/seeds

# 3. Each harness, linked with the engine (by $CXX: the engines are C++).
lib=$work/lib/parser/libggufsafe.a
writer=$work/lib/corpus/writer/libgsw_writer.a
certify=$work/lib/conformance/cli/libgs_certify.a
includes="-I$root/include -I$root/corpus/writer -I$root/conformance/certify -I$root/conformance/cli
          -I$root/parser -I$root/kernels"
# certification's reports are written by the CLI's JSON and text writers (libcrypto is not
# needed: the harness never reaches the manifest code, the one user of SHA-256)
cli_objs=""
for c in cli_common json_writer num_format text_out; do
    $CC $CFLAGS $includes -c "$root/conformance/cli/$c.c" -o "$work/cli_$c.o"
    cli_objs="$cli_objs $work/cli_$c.o"
done
for t in $targets; do
    $CC $CFLAGS $includes -c "$root/fuzz/fuzz_$t.c" -o "$work/fuzz_$t.o"
    extra=""
    [ "$t" = roundtrip ] && extra=$writer
    [ "$t" = certify ] && extra="$certify $cli_objs -lpthread -lm"
    $CXX $CXXFLAGS "$work/fuzz_$t.o" $extra "$lib" $LIB_FUZZING_ENGINE -o "$OUT/fuzz_$t"
    rm -f "$OUT/fuzz_${t}_seed_corpus.zip"
    (cd "$seeds/$t" && zip -q -r "$OUT/fuzz_${t}_seed_corpus.zip" .)
    cp "$root/fuzz/gguf.dict" "$OUT/fuzz_$t.dict"
    printf '[libfuzzer]\nmax_len = 65536\ndict = fuzz_%s.dict\n' "$t" >"$OUT/fuzz_$t.options"
done
