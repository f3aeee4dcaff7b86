#!/usr/bin/env bash
# The hash and certify --deep benchmark (docs/performance.md). Not a test: it
# prints figures. Generates a llama-shaped model of more than 1 GiB (gs_bench_model), warms the
# page cache, then times in the same run, best of N: openssl dgst -sha256 (the single-stream
# limit of SHA-256 here), sha256sum, ggufsafe hash and ggufsafe certify --deep, and prints each
# as a ratio to openssl and to sha256sum.
#
#   cli/bench/bench_certify.sh BUILD_DIR [MODEL] [JOBS] [RUNS]
#
# BUILD_DIR is a release build (gs_bench_model and ggufsafe are built if missing); MODEL the
# file to use or create (default BUILD_DIR/bench-model.gguf); JOBS the --jobs of both commands
# (default 2); RUNS the repetitions, of which the fastest counts (default 5).
set -euo pipefail
build=${1:?usage: bench_certify.sh BUILD_DIR [MODEL] [JOBS] [RUNS]}
model=${2:-$build/bench-model.gguf}
jobs=${3:-2}
runs=${4:-5}
cli=$build/cli/ggufsafe
gen=$build/cli/gs_bench_model
cmake --build "$build" --target ggufsafe_cli gs_bench_model >/dev/null
if [ ! -s "$model" ]; then
    "$gen" "$model"
fi
size=$(stat -c %s "$model")
# Warm the page cache: every run below reads from memory, not from the disk.
cat "$model" >/dev/null
cat "$model" >/dev/null

# The best (lowest wall time) of RUNS runs of a command: "WALL CPU" in seconds, CPU being user
# plus system time of all its threads (on an idle machine with enough cores, wall < CPU).
best() {
    local best_w="" best_c="" out
    out=$(mktemp)
    for _ in $(seq "$runs"); do
        /usr/bin/time -f "%e %U %S" -o "$out" "$@" >/dev/null
        read -r w u s <"$out"
        if [ -z "$best_w" ] || [ "$(echo "$w < $best_w" | bc -l)" = 1 ]; then
            best_w=$w
            best_c=$(echo "$u + $s" | bc -l)
        fi
    done
    rm -f "$out"
    printf '%.3f %.3f' "$best_w" "$best_c"
}

# openssl first and last, so that a machine whose load changes is measured alike.
read -r t_openssl c_openssl <<<"$(best openssl dgst -sha256 "$model")"
read -r t_sha256sum c_sha256sum <<<"$(best sha256sum "$model")"
read -r t_hash c_hash <<<"$(best "$cli" hash --jobs "$jobs" "$model")"
read -r t_certify c_certify <<<"$(best "$cli" certify --deep --jobs "$jobs" "$model")"
read -r t_openssl2 c_openssl2 <<<"$(best openssl dgst -sha256 "$model")"
if [ "$(echo "$t_openssl2 < $t_openssl" | bc -l)" = 1 ]; then
    t_openssl=$t_openssl2
    c_openssl=$c_openssl2
fi

ratio() { printf '%.2fx' "$(echo "$1 / $2" | bc -l)"; }
echo "file: $model, $size bytes ($(echo "scale=2; $size / 1073741824" | bc -l) GiB)"
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"
echo "best of $runs runs, page cache warm, --jobs $jobs"
echo
echo "| command | wall s | CPU s | GB/s | wall vs openssl | wall vs sha256sum |"
echo "|---|---|---|---|---|---|"
row() {
    printf '| %s | %s | %s | %.2f | %s | %s |\n' "$1" "$2" "$3" \
        "$(echo "$size / $2 / 1000000000" | bc -l)" "$(ratio "$2" "$t_openssl")" \
        "$(ratio "$2" "$t_sha256sum")"
}
row "openssl dgst -sha256" "$t_openssl" "$c_openssl"
row "sha256sum" "$t_sha256sum" "$c_sha256sum"
row "ggufsafe hash --jobs $jobs" "$t_hash" "$c_hash"
row "ggufsafe certify --deep --jobs $jobs" "$t_certify" "$c_certify"
echo
echo "targets: hash within 1.2x of openssl, certify --deep within 1.5x"
