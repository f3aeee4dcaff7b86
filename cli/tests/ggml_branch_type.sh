#!/usr/bin/env bash
# `--ggml PATH` on a type our registry does not know (ctest cli_ggml_branch_type): a Q8_0 file
# whose tensor is relabelled to id 43 (GS_TYPE_COUNT, the first id of no ggml release we know),
# read with the stand-in ggml of kernels/tests/fake_ggml.c, which has a type "q8_0_branch" there
# with Q8_0's geometry and a decoder writing 4.0 per element. Geometry and name must come from
# that ggml (info, certify), decoding from its to_float (dequant --sha256 = the sha256 of 32
# floats 4.0 per element), diff of the file against itself equal; without --ggml info refuses the file
# naming --ggml; a library without a symbol is the documented error. ggml's decoders run in the
# command's plugin host child by default: the same sha256 with --plugin-in-process, and a stand-in
# whose to_float crashes (FAKE_CRASH) is reported as a plugin crash (exit 2, library and tensor).
# GGUFSAFE_KERNEL=ggml (every type through ggml) runs in the same child by default: on the
# corpus' q8_0, f32, q8_K and q8_1 files (beside Q8_0_FILE) the child gives the in-process
# path's lines and exit status (ggml's marker values, F32 copied, Q8_K through
# dequantize_row_q8_K, Q8_1 refused per tensor), and FAKE_CRASH's to_float is reported as a
# crash by dequant, certify --deep and diff, with --ggml and with GGUFSAFE_GGML.
# usage: ggml_branch_type.sh GGUFSAFE FAKE_GOOD FAKE_NO_Q8_K FAKE_CRASH Q8_0_FILE WORK_DIR
set -uo pipefail
bin=$1 good=$2 noq8k=$3 crash=$4 q80=$5 work=$6
mkdir -p "$work"
file=$work/branch_type.gguf
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# relabel the first tensor's type field (GGUF v3: header, key-values, then tensor infos)
python3 - "$q80" "$file" <<'PY' || exit 1
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
assert b[:4] == b"GGUF" and struct.unpack_from("<I", b, 4)[0] == 3
n_t, n_kv = struct.unpack_from("<QQ", b, 8)
p = 24
size = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}
def skip(t, p):
    if t == 8:
        return p + 8 + struct.unpack_from("<Q", b, p)[0]
    if t == 9:
        et, n = struct.unpack_from("<IQ", b, p); p += 12
        for _ in range(n):
            p = skip(et, p)
        return p
    return p + size[t]
for _ in range(n_kv):
    p += 8 + struct.unpack_from("<Q", b, p)[0]
    t = struct.unpack_from("<I", b, p)[0]; p += 4
    p = skip(t, p)
p += 8 + struct.unpack_from("<Q", b, p)[0]
nd = struct.unpack_from("<I", b, p)[0]; p += 4 + 8 * nd
assert struct.unpack_from("<I", b, p)[0] == 8, "not a q8_0 tensor"
struct.pack_into("<I", b, p, 43)
open(sys.argv[2], "wb").write(b)
PY

"$bin" info --ggml "$good" "$file" >"$work/info.txt" 2>&1; r=$?
[ $r -eq 0 ] || bad "info --ggml: exit $r: $(head -3 "$work/info.txt")"
grep -qi "q8_0_branch" "$work/info.txt" || bad "info --ggml does not name ggml's type: $(cat "$work/info.txt")"
# the quantization mix counts it under ggml's name, text and JSON
grep -q "^  Q8_0_BRANCH  *1 tensor  *204 bytes .* 100.0%$" "$work/info.txt" ||
    bad "info --ggml: no mix line for ggml's type: $(cat "$work/info.txt")"
"$bin" info --json --ggml "$good" "$file" | python3 -c "
import json, sys
m = json.load(sys.stdin)['quantization_mix']
assert m == [{'type': 'q8_0_branch', 'type_id': 43, 'tensors': 1, 'bytes': 204, 'share_percent': 100.0}], m
" || bad "info --json --ggml: not ggml's type in quantization_mix"

"$bin" info "$file" >"$work/plain.txt" 2>&1; r=$?
[ $r -eq 1 ] || bad "info without --ggml: exit $r, want 1"
grep -q -- "--ggml" "$work/plain.txt" || bad "info without --ggml does not name --ggml: $(cat "$work/plain.txt")"

"$bin" dequant --ggml "$good" --sha256 "$file" >"$work/sha.txt" 2>&1; r=$?
elems=$("$bin" dequant --ggml "$good" --json "$file" | python3 -c "import json,sys; print(json.load(sys.stdin)['tensors'][0]['n_elements'])")
want=$(python3 -c "import hashlib,struct,sys; print(hashlib.sha256(struct.pack('<f', 4.0) * int(sys.argv[1])).hexdigest())" "$elems")
[ $r -eq 0 ] || bad "dequant --ggml: exit $r: $(head -3 "$work/sha.txt")"
grep -q "^$want  .*  q8_0_branch$" "$work/sha.txt" || bad "dequant --ggml: '$(cat "$work/sha.txt")', want $want ... q8_0_branch"

"$bin" dequant --ggml "$good" --plugin-in-process --sha256 "$file" >"$work/sha_in.txt" 2>&1; r=$?
[ $r -eq 0 ] || bad "dequant --ggml --plugin-in-process: exit $r: $(head -3 "$work/sha_in.txt")"
cmp -s "$work/sha.txt" "$work/sha_in.txt" || bad "in process '$(cat "$work/sha_in.txt")' != child '$(cat "$work/sha.txt")'"

# a crash in ggml's to_float: the child dies, the command reports it (exit 2) and lives
tname=$("$bin" dequant --ggml "$good" --json "$file" | python3 -c "import json,sys; print(json.load(sys.stdin)['tensors'][0]['name'])")
for cmd in "dequant --sha256" "certify --deep" "diff --max-abs 0"; do
    two=""; [ "$cmd" = "diff --max-abs 0" ] && two=$file
    where="tensor '$tname'"
    [ "$cmd" = "certify --deep" ] && where="the tensor data at byte 128 of '$file' (--deep)"
    # shellcheck disable=SC2086
    "$bin" $cmd --ggml "$crash" "$file" $two >"$work/crash.txt" 2>&1; r=$?
    [ $r -eq 2 ] || bad "$cmd --ggml (crashing to_float): exit $r, want 2: $(tail -3 "$work/crash.txt")"
    grep -qF "GS_E_DECODER_FAILED on $where: ggml library $crash crashed with SIGSEGV (signal 11) decoding 204 bytes of type 43" "$work/crash.txt" ||
        bad "$cmd --ggml (crashing to_float): not the crash report naming $where and the library: $(tail -3 "$work/crash.txt")"
done

# certify: the type is defined by ggml (the corpus file's other findings stay); without --ggml
# the unknown type is the verdict
"$bin" certify --ggml "$good" "$file" >"$work/cert.txt" 2>&1
! grep -q "type id neither ggufsafe's registry" "$work/cert.txt" || bad "certify --ggml: $(head -1 "$work/cert.txt")"
"$bin" certify --deep --ggml "$good" "$file" >"$work/certdeep.txt" 2>&1
! grep -q "GS_E_UNKNOWN_TENSOR_TYPE\|type id neither" "$work/certdeep.txt" ||
    bad "certify --deep --ggml: $(grep -m1 "GS_E_UNKNOWN_TENSOR_TYPE\|type id neither" "$work/certdeep.txt")"
"$bin" certify "$file" >"$work/cert0.txt" 2>&1; r=$?
[ $r -eq 1 ] && grep -q "type id neither ggufsafe's registry" "$work/cert0.txt" ||
    bad "certify without --ggml: exit $r: $(head -1 "$work/cert0.txt")"

"$bin" diff --ggml "$good" --max-abs 0 "$file" "$file" >"$work/diff.txt" 2>&1; r=$?
[ $r -eq 0 ] || bad "diff --ggml: exit $r: $(tail -3 "$work/diff.txt")"

"$bin" info --ggml "$noq8k" "$file" >"$work/noq8k.txt" 2>&1; r=$?
[ $r -eq 2 ] || bad "info --ggml (no dequantize_row_q8_K): exit $r, want 2"
grep -qF "error: GS_E_KERNEL_UNAVAILABLE: --ggml: $noq8k: symbol dequantize_row_q8_K missing (not a libggml-base, or one without it)" "$work/noq8k.txt" ||
    bad "missing symbol: $(cat "$work/noq8k.txt")"

# GGUFSAFE_KERNEL=ggml: ggml's decoders for the registry's types, in the child by default
types=$(dirname "$q80")
marker() { # sha256 of N floats V
    python3 -c "import hashlib,struct,sys; print(hashlib.sha256(struct.pack('<f', float(sys.argv[2])) * int(sys.argv[1])).hexdigest())" "$1" "$2"
}
for case in "08_q8_0 q8_0 3" "15_q8_K q8_K 2" "00_f32 f32 -" "09_q8_1 q8_1 -"; do
    read -r f type value <<<"$case"
    GGUFSAFE_KERNEL=ggml "$bin" dequant --ggml "$good" --sha256 "$types/$f.gguf" \
        >"$work/k_$f.child" 2>"$work/k_$f.child.err"; rc=$?
    GGUFSAFE_KERNEL=ggml "$bin" dequant --ggml "$good" --plugin-in-process --sha256 \
        "$types/$f.gguf" >"$work/k_$f.in" 2>"$work/k_$f.in.err"; rin=$?
    [ $rc -eq $rin ] || bad "kernel ggml $f: child exit $rc, in process $rin"
    cmp -s "$work/k_$f.child" "$work/k_$f.in" && cmp -s "$work/k_$f.child.err" "$work/k_$f.in.err" ||
        bad "kernel ggml $f: the child's '$(cat "$work/k_$f.child" "$work/k_$f.child.err")' is not in-process's '$(cat "$work/k_$f.in" "$work/k_$f.in.err")'"
    case $type in
    q8_1)
        [ $rc -eq 2 ] && grep -q "^error: GS_E_KERNEL_UNAVAILABLE: tensor 't' (q8_1): ggml 0.25.1 (commit fake0001) from $good has no decoder for this type" "$work/k_$f.child.err" ||
            bad "kernel ggml q8_1: exit $rc: $(cat "$work/k_$f.child.err")" ;;
    f32)
        GGUFSAFE_KERNEL=scalar "$bin" dequant --sha256 "$types/$f.gguf" >"$work/k_f32.scalar"
        [ $rc -eq 0 ] && cmp -s "$work/k_$f.child" "$work/k_f32.scalar" ||
            bad "kernel ggml f32: not the scalar copy: $(cat "$work/k_$f.child" "$work/k_$f.child.err")" ;;
    *)
        n=$("$bin" dequant --json "$types/$f.gguf" | python3 -c "import json,sys; print(json.load(sys.stdin)['tensors'][0]['n_elements'])")
        grep -qx "$(marker "$n" "$value")  t  $type" "$work/k_$f.child" ||
            bad "kernel ggml $f: '$(cat "$work/k_$f.child" "$work/k_$f.child.err")', want ggml's marker $value" ;;
    esac
done
# a crash of ggml's to_float for a registry type: reported, not fatal
for cmd in "dequant --sha256" "certify --deep" "diff --max-abs 0"; do
    two=""; [ "$cmd" = "diff --max-abs 0" ] && two=$q80
    where="tensor 't'"
    [ "$cmd" = "certify --deep" ] && where="the tensor data at byte 128 of '$q80' (--deep)"
    for how in flag env; do
        lib=(--ggml "$crash"); envv=(GGUFSAFE_KERNEL=ggml)
        [ $how = env ] && lib=() envv=(GGUFSAFE_KERNEL=ggml GGUFSAFE_GGML="$crash")
        # shellcheck disable=SC2086
        env "${envv[@]}" "$bin" $cmd "${lib[@]}" "$q80" $two >"$work/kcrash.txt" 2>&1; r=$?
        [ $r -eq 2 ] || bad "GGUFSAFE_KERNEL=ggml $cmd ($how, crashing to_float): exit $r, want 2: $(tail -3 "$work/kcrash.txt")"
        grep -qF "GS_E_DECODER_FAILED on $where: ggml library $crash crashed with SIGSEGV (signal 11) decoding 204 bytes of type 8" "$work/kcrash.txt" ||
            bad "GGUFSAFE_KERNEL=ggml $cmd ($how, crashing to_float): not the crash report: $(tail -3 "$work/kcrash.txt")"
    done
done

[ $fail -eq 0 ] && echo "PASS: --ggml branch type" || exit 1
