#!/usr/bin/env bash
# ggml as a decoder path against ours, through the command (ctest oracle_ggml_decoder, label
# oracle): GGUFSAFE_KERNEL=ggml with the pinned libggml-base must give, tensor for tensor, the
# `dequant --sha256` lines of the scalar path and of the best SIMD path on
#   - the ggml-written sample (conformance/samples/), also against its committed hashes;
#   - every corpus file our reader opens in strict mode (corpus/manifest.tsv: GS_OK).
# A file with a tensor ggml cannot convert (Q8_1) must be refused with exit 2 naming that
# tensor and its type, never decoded by ours; every tensor of such a file of another type is
# compared one by one instead. ggml's decoders run in the command's plugin host child by
# default (`__plugin-host --ggml-kernel`): every file's lines, refusals and exit status must be
# those of the in-process ggml path (--plugin-in-process) too. Then a library that is not ggml,
# and the environment without a library, give their documented errors, and (with
# FAKE_CRASH_GGML, kernels/tests/fake_ggml.c, whose to_float crashes) a crash in ggml's decoder
# is reported by the command (exit 2, library and tensor) instead of killing it.
# usage: ggml_decoder.sh GGUFSAFE_BINARY SOURCE_DIR CORPUS_DIR WORK_DIR [FAKE_CRASH_GGML]
# Exits 77 (skipped) when the pinned ggml is not in the cache (ci/oracle_fetch.sh), unless
# GGUFSAFE_REQUIRE_ORACLE=1.
set -uo pipefail
bin=$1 src=$2 corpus=$3 work=$4 crash=${5:-}
lib=$(bash "$src/ci/oracle_fetch.sh" 2>/dev/null)
rc=$?
if [ $rc -ne 0 ]; then
    echo "SKIP: the pinned ggml is not available (ci/oracle_fetch.sh exit $rc)"
    exit $rc
fi
mkdir -p "$work"
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# sha256 lines of FILE on PATH (extra arguments go to dequant); the exit status is kept in $drc
hashes() {
    local kernel=$1 file=$2 out=$3; shift 3
    GGUFSAFE_GGML=$lib GGUFSAFE_KERNEL=$kernel "$bin" dequant --sha256 "$@" "$file" \
        >"$out" 2>"$out.err"
    drc=$?
}

compare_file() {
    local file=$1 tag=$2
    hashes scalar "$file" "$work/$tag.scalar"
    local src_rc=$drc
    hashes ggml "$file" "$work/$tag.in" --plugin-in-process
    local in_rc=$drc
    hashes ggml "$file" "$work/$tag.ggml"
    # the child (the default) and the in-process ggml path: the same lines, errors and status
    [ $drc -eq $in_rc ] && cmp -s "$work/$tag.in" "$work/$tag.ggml" &&
        cmp -s "$work/$tag.in.err" "$work/$tag.ggml.err" ||
        bad "$tag: ggml in the child (exit $drc) differs from in-process (exit $in_rc): $(diff "$work/$tag.in" "$work/$tag.ggml" | head -4) $(head -2 "$work/$tag.ggml.err")"
    children=$((children + 1))
    if [ $src_rc -ne 0 ]; then
        [ $drc -eq $src_rc ] || bad "$tag: scalar exit $src_rc, ggml exit $drc"
        return
    fi
    if [ $drc -eq 0 ]; then
        cmp -s "$work/$tag.scalar" "$work/$tag.ggml" ||
            bad "$tag: ggml's hashes differ from scalar's: $(diff "$work/$tag.scalar" "$work/$tag.ggml" | head -4)"
        compared=$((compared + 1))
        return
    fi
    # refused: exit 2, one tensor named, of a type ggml cannot convert
    if [ $drc -ne 2 ] || ! grep -q "^error: GS_E_KERNEL_UNAVAILABLE: tensor '.*' (q8_1): ggml .* has no decoder for this type, and ggufsafe does not decode it in ggml's place" "$work/$tag.ggml.err"; then
        bad "$tag: ggml exit $drc: $(head -2 "$work/$tag.ggml.err")"
        return
    fi
    refused=$((refused + 1))
    # the file's other tensors, one by one
    while read -r digest name type; do
        [ "$type" = q8_1 ] && continue
        hashes ggml "$file" "$work/$tag.one" --tensor "$name"
        [ $drc -eq 0 ] && [ "$(cat "$work/$tag.one")" = "$digest  $name  $type" ] ||
            bad "$tag: tensor $name: ggml gives '$(cat "$work/$tag.one")' (exit $drc), scalar '$digest'"
    done <"$work/$tag.scalar"
}

compared=0 refused=0 children=0
sample=$src/conformance/samples/ggml-written.gguf
compare_file "$sample" sample
cmp -s "$work/sample.ggml" "$src/conformance/samples/ggml-written.dequant.sha256" ||
    bad "sample: ggml's hashes differ from conformance/samples/ggml-written.dequant.sha256"
hashes auto "$sample" "$work/sample.auto"
cmp -s "$work/sample.auto" "$work/sample.ggml" || bad "sample: ggml's hashes differ from the best path's"

n=0
while IFS=$'\t' read -r file _ strict _; do
    [ "$strict" = GS_OK ] || continue
    compare_file "$corpus/$file" "c$n"
    n=$((n + 1))
done <"$src/corpus/manifest.tsv"
[ $n -gt 100 ] || bad "only $n corpus files opened in strict mode"
[ $refused -gt 0 ] || bad "no file with a q8_1 tensor was refused: the refusal is untested"

# the documented errors
expect_error() {
    local what=$1 want=$2; shift 2
    env "$@" "$bin" dequant --sha256 "$sample" >"$work/err.out" 2>"$work/err.txt"
    local r=$?
    [ $r -eq 2 ] || bad "$what: exit $r, want 2"
    grep -qF -- "$want" "$work/err.txt" || bad "$what: stderr '$(head -1 "$work/err.txt")' lacks '$want'"
}
expect_error "no library" "has no usable ggml library: no ggml library loaded: name one with GGUFSAFE_GGML=PATH" \
    -u GGUFSAFE_GGML GGUFSAFE_KERNEL=ggml
expect_error "missing file" "has no usable ggml library: $work/none.so: no readable ggml library there" \
    GGUFSAFE_KERNEL=ggml GGUFSAFE_GGML="$work/none.so"
expect_error "not a library" "has no usable ggml library: $sample: dlopen failed:" \
    GGUFSAFE_KERNEL=ggml GGUFSAFE_GGML="$sample"

# a crash in ggml's decoder, in the child: reported (exit 2, library, tensor, type), not fatal
if [ -n "$crash" ]; then
    q80=$corpus/types/08_q8_0.gguf
    GGUFSAFE_KERNEL=ggml GGUFSAFE_GGML=$crash "$bin" dequant --sha256 "$q80" >"$work/crash.out" \
        2>"$work/crash.txt"
    r=$?
    [ $r -eq 2 ] || bad "crashing ggml: exit $r, want 2: $(head -2 "$work/crash.txt")"
    grep -qF "error: GS_E_DECODER_FAILED on tensor 't': ggml library $crash crashed with SIGSEGV (signal 11) decoding 204 bytes of type 8" "$work/crash.txt" ||
        bad "crashing ggml: not the crash report: $(head -2 "$work/crash.txt")"
    echo "a crash in ggml's to_float in the child: reported, exit 2"
fi

echo "$children files decoded by ggml in the child as in-process"
echo "$compared files equal on the ggml path, $refused refused for a q8_1 tensor (their other tensors equal)"
[ $fail -eq 0 ] && echo "PASS: ggml decoder, $((compared + refused)) files" || exit 1
