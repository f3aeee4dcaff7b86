#!/bin/sh
# The library on an x86-64 CPU without AVX, AVX2, FMA or F16C (qemu-x86_64 -cpu Nehalem): auto
# dispatch decodes on the scalar path (kat_check passes), simd_diff skips with a message, and
# GGUFSAFE_KERNEL=avx2 makes decodes fail cleanly with GS_E_KERNEL_UNAVAILABLE (exit status 1,
# no SIGILL). A positive control runs simd_diff under -cpu Haswell, where AVX2 must be found and
# match scalar, so a skip above cannot come from qemu failing to run the program at all.
# usage: nehalem_check.sh QEMU KAT_CHECK SIMD_DIFF KAT_DIR       (exit 77: skipped)
set -u
qemu=$1 kat_check=$2 simd_diff=$3 kat_dir=$4

if ! command -v "$qemu" >/dev/null 2>&1; then
    echo "SKIP: $qemu not found (Debian package qemu-user); the no-AVX2 check did not run"
    exit 77
fi

fail=0
# expect NAME WANT_STATUS PATTERN STATUS OUTPUT
expect() {
    if [ "$4" -ne "$2" ] || ! printf '%s\n' "$5" | grep -q -- "$3"; then
        echo "FAIL $1: exit status $4 (want $2), output must match '$3':"
        printf '%s\n' "$5" | tail -5 | sed 's/^/    /'
        fail=1
    else
        echo "ok   $1: exit status $4, '$(printf '%s\n' "$5" | grep -m1 -- "$3")'"
    fi
}

out=$(env -u GGUFSAFE_KERNEL "$qemu" -cpu Nehalem "$kat_check" "$kat_dir" 2>&1); rc=$?
expect "Nehalem: kat_check, auto dispatch (scalar path)" 0 " passed, 0 failed" $rc "$out"

out=$(env -u GGUFSAFE_KERNEL "$qemu" -cpu Nehalem "$simd_diff" 2>&1); rc=$?
expect "Nehalem: simd_diff skips" 77 "SKIP: no SIMD path is active (avx2 unavailable" $rc "$out"

out=$(env -u GGUFSAFE_KERNEL "$qemu" -cpu Nehalem "$simd_diff" avx2 2>&1); rc=$?
expect "Nehalem: simd_diff avx2 is refused" 77 "avx2 path is not usable.*GS_E_KERNEL_UNAVAILABLE" \
    $rc "$out"

out=$(GGUFSAFE_KERNEL=avx2 "$qemu" -cpu Nehalem "$kat_check" "$kat_dir" 2>&1); rc=$?
expect "Nehalem: GGUFSAFE_KERNEL=avx2 kat_check fails cleanly" 1 \
    "gs_dequantize returned GS_E_KERNEL_UNAVAILABLE" $rc "$out"
if printf '%s\n' "$out" | grep -qi "illegal instruction"; then
    echo "FAIL: an AVX instruction ran on the Nehalem CPU"
    fail=1
fi

out=$(GGUFSAFE_KERNEL=scalar "$qemu" -cpu Nehalem "$kat_check" "$kat_dir" 2>&1); rc=$?
expect "Nehalem: GGUFSAFE_KERNEL=scalar kat_check" 0 " passed, 0 failed" $rc "$out"

out=$(env -u GGUFSAFE_KERNEL "$qemu" -cpu Haswell "$simd_diff" --quick 2>&1); rc=$?
expect "Haswell (control): simd_diff runs the avx2 path" 0 "simd_diff: avx2 against scalar" \
    $rc "$out"

[ $fail -eq 0 ] && echo "nehalem_check: all passed" || echo "nehalem_check: FAILED"
exit $fail
