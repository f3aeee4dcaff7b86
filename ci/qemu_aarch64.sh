#!/usr/bin/env bash
# The aarch64 stage of ci/test.sh: cross-compile the tree with gcc-aarch64-linux-gnu
# (ci/aarch64.cmake; gcc release, warnings are errors; the command and the certification
# library included, against Debian's arm64 libcrypto) into build/aarch64, then run the plain-C
# tests through qemu-aarch64 (ctest's emulator) once per CPU model, QEMU_CPU=cortex-a53 (ASIMD
# only) and QEMU_CPU=max (ASIMD, dotprod, SVE, ...). The *_scalar and *_neon tests carry
# GGUFSAFE_KERNEL=scalar / neon (kernels/tests/CMakeLists.txt), so each run covers both decoder
# paths:
#   kat_check_<path>        ggml's known-answer vectors (conformance/kat/*.out), NaN rule
#   golden_manifest_<path>  gs_golden --check against conformance/golden/manifest.tsv
#   simd_diff_neon          every NEON decoder against scalar, bit for bit (scalar is the
#                           reference itself, so it has no differential run)
#   bench_decode_smoke      the benchmark run to completion; qemu timings mean nothing
# and the reader, the writer and the corpus tools as an arm64 machine runs them:
#   corpus_manifest_drift   the generator (under qemu, its SHA-256 arm64 libcrypto's) gives
#                           exactly the checked-in corpus/manifest.tsv
#   corpus_sha256sum        the generated SHA256SUMS against the host's sha256sum
#   corpus_replay           every corpus verdict under both profiles, from file and memory
#   regress.<file>          each regression file's expected outcomes (corpus/regress/)
#   replay.<target>         every fuzz harness over its seeds
#   roundtrip_ggml_sample_* ggml's sample read and written back byte for byte
# The guest runs on Debian's arm64 multiarch runtime (libc6:arm64, libssl3:arm64 from
# ci/install_deps.sh): qemu-aarch64 -L / (ci/aarch64.cmake says why not the cross sysroot).
# Criterion exists for the host only, so the Criterion tests run in the host stages.
# Usage: ci/qemu_aarch64.sh   (GS_AARCH64_BUILD overrides the build directory)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
jobs=$(nproc 2>/dev/null || echo 2)
build=${GS_AARCH64_BUILD:-build/aarch64}
guest_root=/ # qemu-aarch64 -L, as in ci/aarch64.cmake
libcrypto=/usr/lib/aarch64-linux-gnu/libcrypto.so.3
decoder_tests=(kat_check_scalar golden_manifest_scalar kat_check_neon golden_manifest_neon
               simd_diff_neon bench_decode_smoke)
reader_tests=(corpus_manifest_drift corpus_sha256sum corpus_replay replay.open replay.dequant
              replay.decode_blocks replay.roundtrip replay.certify replay.manifest
              roundtrip_ggml_sample_write
              roundtrip_ggml_sample_compare)

for tool in aarch64-linux-gnu-gcc qemu-aarch64; do
    if ! command -v "$tool" >/dev/null; then
        echo "ci/qemu_aarch64.sh: $tool not found (ci/install_deps.sh installs it)" >&2
        exit 1
    fi
done
if [ ! -e "$libcrypto" ] || [ ! -e /lib/ld-linux-aarch64.so.1 ]; then
    echo "ci/qemu_aarch64.sh: no arm64 runtime ($libcrypto, /lib/ld-linux-aarch64.so.1):" \
         "ci/install_deps.sh installs libssl-dev:arm64" >&2
    exit 1
fi

t0=$SECONDS
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$root/ci/aarch64.cmake" \
    -DCMAKE_BUILD_TYPE=Release -DGGUFSAFE_WERROR=ON >/dev/null
cmake --build "$build" -j "$jobs"
echo "aarch64 build: $((SECONDS - t0)) s"

# Every regress.<file> test the build has (one per file of corpus/regress/).
mapfile -t regress_tests < <(ctest --test-dir "$build" -N -R '^regress\.' |
                             awk '$1 == "Test" && $2 ~ /^#/ { print $3 }')
tests=("${decoder_tests[@]}" "${reader_tests[@]}" "${regress_tests[@]}")
filter="^($(IFS='|'; echo "${tests[*]}" | sed 's/\./\\./g'))\$"

# The CPU features the guest sees under QEMU_CPU=$1, from its dynamic loader (LD_SHOW_AUXV is
# handed to the guest only, so qemu's own host loader stays quiet).
cpu_features() {
    local hwcap
    hwcap=$(QEMU_CPU=$1 qemu-aarch64 -L "$guest_root" -E LD_SHOW_AUXV=1 \
                "$build/kernels/tests/kat_check" 2>/dev/null | awk '$1 == "AT_HWCAP:" { print $2 }')
    hwcap=$((16#${hwcap#0x}))
    # HWCAP bits (Linux arm64): 1 asimd, 20 asimddp, 22 sve.
    echo "asimd=$(((hwcap >> 1) & 1)) asimddp=$(((hwcap >> 20) & 1)) sve=$(((hwcap >> 22) & 1))"
}

# Each test of a ctest -V log: name, ctest's verdict (Passed, Failed, Skipped, ...) and what to
# show: the last line it printed ("N passed, N failed", "PASS: N files", ...) when it passed,
# "passed" when it printed nothing, else the verdict. Paths (" in /...") are cut off.
# Output lines are "<number>: ..." after "<number>: Test timeout computed to be: ..."; numbers map
# to names by the "Start <number>: <name>" lines.
results() {
    awk '
        match($0, /Start +[0-9]+: /) { split(substr($0, RSTART), a, /[: ]+/); name[a[2]] = a[3] }
        /^[0-9]+: Test timeout computed/ { n = $1; sub(/:/, "", n); out[n] = 1; next }
        /^[0-9]+: / {
            n = $1; sub(/:/, "", n)
            if (out[n]) {
                line = $0; sub(/^[0-9]+: /, "", line); sub(/ in \/.*$/, "", line); last[n] = line
            }
        }
        match($0, /Test +#[0-9]+: [^ ]+ [ .*]*[A-Za-z ]+/) {
            split(substr($0, RSTART), a, /[# :]+/)
            verdict = $0; sub(/^.*Test +#[0-9]+: [^ ]+ [ .*]*/, "", verdict)
            sub(/ +[0-9.]+ sec$/, "", verdict)
            done[a[2]] = verdict
        }
        END {
            for (n in name) {
                v = done[n] == "" ? "no result" : done[n]
                if (name[n] == "bench_decode_smoke") { last[n] = "ran to completion" } # a table
                print name[n] "\t" v "\t" (v == "Passed" ? ((n in last) ? last[n] : "passed") : v)
            }
        }' "$1"
}

status=0
declare -A cell=()
for cpu in cortex-a53 max; do
    echo "=== QEMU_CPU=$cpu ($(cpu_features "$cpu"))"
    log="$build/qemu-$cpu.log"
    t1=$SECONDS
    ok=1
    QEMU_CPU=$cpu ctest --test-dir "$build" -R "$filter" -j "$jobs" -V --timeout 300 \
        >"$log" 2>&1 || ok=0
    declare -A verdict=() shown=()
    while IFS=$'\t' read -r name v line; do
        verdict[$name]=$v
        shown[$name]=$line
    done < <(results "$log")
    for t in "${tests[@]}"; do
        cell[$cpu,$t]=${shown[$t]:-no result}
        printf '  %-40s %s\n' "$t" "${cell[$cpu,$t]}"
        [ "${verdict[$t]:-}" = Passed ] || ok=0 # a skip is a failure here too
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
    unset verdict shown
    echo "  $((SECONDS - t1)) s, $([ $ok -eq 1 ] && echo pass || echo FAIL)"
done

echo
echo "| test | QEMU_CPU=cortex-a53 | QEMU_CPU=max |"
echo "|---|---|---|"
for t in "${tests[@]}"; do
    echo "| $t | ${cell[cortex-a53,$t]} | ${cell[max,$t]} |"
done
echo "qemu stage: $((SECONDS - t0)) s"
if [ $status -ne 0 ]; then
    echo "ci/qemu_aarch64.sh: FAILED" >&2
    exit 1
fi
echo "ci/qemu_aarch64.sh: all runs passed"
