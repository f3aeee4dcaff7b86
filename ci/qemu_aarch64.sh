#!/usr/bin/env bash
# The aarch64 stage of ci/test.sh: cross-compile the tree with gcc-aarch64-linux-gnu
# (ci/aarch64.cmake; gcc release, warnings are errors) into build/aarch64, then run the plain-C
# tests through qemu-aarch64 (ctest's emulator) once per CPU model, QEMU_CPU=cortex-a53 (ASIMD
# only) and QEMU_CPU=max (ASIMD, dotprod, SVE, ...). Each run covers both decoder paths: the
# *_scalar and *_neon tests carry GGUFSAFE_KERNEL=scalar / neon (kernels/tests/CMakeLists.txt).
#   kat_check_<path>        ggml's known-answer vectors (conformance/kat/*.out), NaN rule
#   golden_manifest_<path>  gs_golden --check against conformance/golden/manifest.tsv
#   simd_diff_neon          every NEON decoder against scalar, bit for bit (scalar is the
#                           reference itself, so it has no differential run)
#   bench_decode_smoke      the benchmark run to completion; qemu timings mean nothing
# No Criterion or libcrypto exists for arm64 here, so only these plain-C programs run.
# Usage: ci/qemu_aarch64.sh   (GS_AARCH64_BUILD overrides the build directory)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
jobs=$(nproc 2>/dev/null || echo 2)
build=${GS_AARCH64_BUILD:-build/aarch64}
sysroot=/usr/aarch64-linux-gnu
tests=(kat_check_scalar golden_manifest_scalar kat_check_neon golden_manifest_neon simd_diff_neon
       bench_decode_smoke)
filter="^($(IFS='|'; echo "${tests[*]}"))\$"

for tool in aarch64-linux-gnu-gcc qemu-aarch64; do
    if ! command -v "$tool" >/dev/null; then
        echo "ci/qemu_aarch64.sh: $tool not found (ci/install_deps.sh installs it)" >&2
        exit 1
    fi
done

t0=$SECONDS
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$root/ci/aarch64.cmake" \
    -DCMAKE_BUILD_TYPE=Release -DGGUFSAFE_WERROR=ON >/dev/null
cmake --build "$build" -j "$jobs"
echo "aarch64 build: $((SECONDS - t0)) s"

# The CPU features the guest sees under QEMU_CPU=$1, from its dynamic loader (LD_SHOW_AUXV is
# handed to the guest only, so qemu's own host loader stays quiet).
cpu_features() {
    local hwcap
    hwcap=$(QEMU_CPU=$1 qemu-aarch64 -L "$sysroot" -E LD_SHOW_AUXV=1 \
                "$build/kernels/tests/kat_check" 2>/dev/null | awk '$1 == "AT_HWCAP:" { print $2 }')
    hwcap=$((16#${hwcap#0x}))
    # HWCAP bits (Linux arm64): 1 asimd, 20 asimddp, 22 sve.
    echo "asimd=$(((hwcap >> 1) & 1)) asimddp=$(((hwcap >> 20) & 1)) sve=$(((hwcap >> 22) & 1))"
}

# The "N passed, N failed" line of each test in a ctest -V log ("<number>: ..." output lines,
# numbers mapped to names by the "Start <number>: <name>" lines).
results() {
    awk '
        match($0, /Start +[0-9]+: /) { split(substr($0, RSTART), a, /[: ]+/); name[a[2]] = a[3] }
        /^[0-9]+: [0-9]+ passed, [0-9]+ failed/ {
            n = $1; sub(/:/, "", n); line = $0; sub(/^[0-9]+: /, "", line); result[name[n]] = line
        }
        /Test +#[0-9]+: bench_decode_smoke .*Passed/ { result["bench_decode_smoke"] = "ran to completion" }
        END { for (t in result) print t "\t" result[t] }' "$1"
}

status=0
declare -a table=()
for cpu in cortex-a53 max; do
    echo "=== QEMU_CPU=$cpu ($(cpu_features "$cpu"))"
    log="$build/qemu-$cpu.log"
    t1=$SECONDS
    ok=1
    QEMU_CPU=$cpu ctest --test-dir "$build" -R "$filter" -j "$jobs" -V --timeout 300 \
        >"$log" 2>&1 || ok=0
    declare -A res=()
    while IFS=$'\t' read -r name line; do
        res[$name]=$line
    done < <(results "$log")
    for t in "${tests[@]}"; do
        printf '  %-24s %s\n' "$t" "${res[$t]:-no result}"
        [ -n "${res[$t]:-}" ] || ok=0
    done
    # simd_diff exits 77 (ctest: skipped, not failed) when NEON is not active: here it must be.
    if ! grep -q '^[0-9]*: simd_diff: neon against scalar$' "$log"; then
        echo "  simd_diff did not run the NEON path"
        ok=0
    fi
    if [ $ok -eq 0 ]; then
        status=1
        echo "  FAILED; first failures (full log: $log):"
        grep -E '^[0-9]+: (FAIL|MISMATCH|SKIP|changed|missing|stale)|\*\*\*|Failed  ' "$log" |
            head -20 || true
    fi
    for path in scalar neon; do
        diff=n/a
        [ $path = neon ] && diff=${res[simd_diff_neon]:-none}
        table+=("| $cpu | $path | ${res[kat_check_$path]:-none} | ${res[golden_manifest_$path]:-none} | $diff |")
    done
    unset res
    echo "  $((SECONDS - t1)) s, $([ $ok -eq 1 ] && echo pass || echo FAIL)"
done

echo
echo "| QEMU_CPU | GGUFSAFE_KERNEL | kat_check | gs_golden --check | simd_diff |"
echo "|---|---|---|---|---|"
printf '%s\n' "${table[@]}"
echo "qemu stage: $((SECONDS - t0)) s"
if [ $status -ne 0 ]; then
    echo "ci/qemu_aarch64.sh: FAILED" >&2
    exit 1
fi
echo "ci/qemu_aarch64.sh: all runs passed"
