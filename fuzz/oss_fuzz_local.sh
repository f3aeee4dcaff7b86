#!/bin/sh
# Runs fuzz/build.sh here, with the environment OSS-Fuzz gives it for a libFuzzer + ASan/UBSan
# build (there is no container engine on this machine), then checks what it produced:
#   fuzz/oss_fuzz_local.sh [DIR]       (default build/oss-fuzz; $OUT is DIR/out)
# Every fuzz_<target> must exist with a non-empty <target>_seed_corpus.zip, a .dict and a
# .options file, and must run over its own seeds without a finding.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$root/build/oss-fuzz}
targets="open dequant decode_blocks roundtrip detect certify manifest open_file utf8 walk type_spec plugin_table"

CC=clang-14
CXX=clang++-14
# OSS-Fuzz's flags for this build (minus its libc++ and CFI details).
CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address,undefined \
-fsanitize-address-use-after-scope -fno-sanitize-recover=all -fsanitize=fuzzer-no-link"
CXXFLAGS=$CFLAGS
LIB_FUZZING_ENGINE=-fsanitize=fuzzer
OUT=$dir/out
WORK=$dir/work
export CC CXX CFLAGS CXXFLAGS LIB_FUZZING_ENGINE OUT WORK
rm -rf "$OUT"
mkdir -p "$OUT" "$WORK"
bash "$root/fuzz/build.sh" >"$dir/build.log" 2>&1 || {
    tail -n 40 "$dir/build.log"
    echo "oss_fuzz_local.sh: fuzz/build.sh failed (log: $dir/build.log)"
    exit 1
}

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
fail=0
for t in $targets; do
    f=$OUT/fuzz_$t
    for need in "$f" "${f}_seed_corpus.zip" "$f.dict" "$f.options"; do
        [ -s "$need" ] || { echo "missing or empty: $need"; fail=1; }
    done
    [ -x "$f" ] || continue
    seeds=$WORK/check/$t
    rm -rf "$seeds"
    mkdir -p "$seeds"
    (cd "$seeds" && unzip -q "${f}_seed_corpus.zip")
    n=$(find "$seeds" -type f | wc -l)
    # -runs=0: run every seed once, then stop
    if "$f" -runs=0 -max_len=65536 -dict="$f.dict" "$seeds" >"$dir/check-$t.log" 2>&1; then
        echo "fuzz_$t: built; $n seeds in the zip run clean"
    else
        tail -n 20 "$dir/check-$t.log"
        echo "fuzz_$t: FAILED on its seeds (log: $dir/check-$t.log)"
        fail=1
    fi
done
[ "$fail" -eq 0 ] || exit 1
echo "oss_fuzz_local.sh: build.sh produced every fuzzer, seed zip, dictionary and options file"
