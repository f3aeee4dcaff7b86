#!/usr/bin/env bash
# The cross-parser conformance matrix: every case of the generated corpus through every GGUF
# reader obtainable from the package registries here, each case in its own process with a time
# limit, and conformance/RESULTS.md written from the results.
#
#   conformance/matrix/run_matrix.sh [--build DIR] [--out FILE] [--raw FILE] [--timeout SECONDS]
#                                    [--jobs N]
#
# Readers (README.md in this folder defines each verdict):
#   ggufsafe strict, ggufsafe lenient   `ggufsafe info --part-only --profile P FILE`
#   ggml, ggml loading data             gs_oracle report [--load] FILE: gguf_init_from_file of
#                                       libggml-base.so from @node-llama-cpp/linux-x64 3.22.1
#                                       (ci/oracle_fetch.sh), metadata only (no_alloc, as
#                                       llama.cpp's loader), or reading the tensor data too
#   @huggingface/gguf, hyllama          the npm packages pinned in package.json/package-lock.json,
#                                       installed by `npm ci` into a cache directory
#                                       (${GGUFSAFE_MATRIX_CACHE:-$HOME/.cache/ggufsafe/matrix}),
#                                       run under node 20 (gguf_hf.mjs, gguf_hyllama.mjs)
# --build: a build directory to use (configured here when it has none: Release, GGUFSAFE_ORACLE=ON,
# tests off); default ${TMPDIR:-/tmp}/ggufsafe-matrix-build. --raw: also keep the results as
# TSV (case, reader, verdict, milliseconds, detail). --timeout: seconds of CPU time per case
# and reader (default 20). --jobs: cases run at once (default 2). Needs network only the first time.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${TMPDIR:-/tmp}/ggufsafe-matrix-build
out=$root/conformance/RESULTS.md
raw=
limit=20
jobs=2
while [ $# -gt 0 ]; do
    case $1 in
        --build) build=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --raw) raw=$2; shift 2 ;;
        --timeout) limit=$2; shift 2 ;;
        --jobs) jobs=$2; shift 2 ;;
        *) echo "usage: $0 [--build DIR] [--out FILE] [--raw FILE] [--timeout SECONDS] [--jobs N]" >&2
           exit 2 ;;
    esac
done
cache=${GGUFSAFE_MATRIX_CACHE:-${HOME:-/root}/.cache/ggufsafe/matrix}

# 1. ggufsafe, the ggml runner and the corpus.
if [ ! -f "$build/CMakeCache.txt" ]; then
    cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGGUFSAFE_ORACLE=ON \
        -DGGUFSAFE_BUILD_TESTS=OFF >/dev/null
fi
cmake --build "$build" --target ggufsafe_cli gs_oracle corpus_generated >/dev/null
corpus=$build/corpus/generated
cli=$build/cli/ggufsafe
oracle=$build/conformance/oracle/runner/gs_oracle

# 2. ggml's package (its column reads "n/a" when it cannot be had).
ggml_version=unavailable
if bash "$root/ci/oracle_fetch.sh" >/dev/null && probe=$("$oracle" probe); then
    ggml_version=$(echo "$probe" | sed 's/.* ggml \(.*\) commit \(.*\)/\1 (commit \2)/')
fi

# 3. The node readers at their pinned versions, installed once per lock file.
node_version=$(node --version)
case $node_version in
    v20.*) ;;
    *) echo "run_matrix.sh: node 20 is required, found $node_version" >&2; exit 1 ;;
esac
mkdir -p "$cache"
lock_sum=$(cat "$here/package.json" "$here/package-lock.json" | sha256sum | cut -c1-64)
if [ "$(cat "$cache/.installed" 2>/dev/null)" != "$lock_sum" ]; then
    cp "$here/package.json" "$here/package-lock.json" "$cache/"
    (cd "$cache" && npm ci --no-audit --no-fund --ignore-scripts >/dev/null)
    echo "$lock_sum" >"$cache/.installed"
fi
cp "$here/classify.mjs" "$here/gguf_hf.mjs" "$here/gguf_hyllama.mjs" "$cache/"
hf_version=$(node -p "require('$cache/node_modules/@huggingface/gguf/package.json').version")
hyllama_version=$(node -p "require('$cache/node_modules/hyllama/package.json').version")

# 4. Every case through every reader: one line per case and reader,
#    case, reader, verdict (accepted rejected crashed hung n/a), milliseconds, detail.
#    The limit is CPU time (a soft ulimit -t, so SIGXCPU: the same verdict however loaded the
#    machine is), with a wall-clock backstop for a reader that blocks.
limited() {
    (ulimit -S -t "$limit" && exec timeout -k 1 $((limit * 3 + 10)) "$@")
}
one_case() {
    local file=$1 path=$corpus/$1 reader verdict detail rc t0 ms
    for reader in ggufsafe-strict ggufsafe-lenient ggml ggml-load hf hyllama; do
        t0=$(date +%s%N)
        set +e
        case $reader in
            ggufsafe-strict) detail=$(limited "$cli" info --part-only --profile strict "$path" 2>&1 >/dev/null) ;;
            ggufsafe-lenient) detail=$(limited "$cli" info --part-only --profile lenient "$path" 2>&1 >/dev/null) ;;
            ggml) detail=$(limited "$oracle" report "$path" 2>&1 >/dev/null) ;;
            ggml-load) detail=$(limited "$oracle" report "$path" --load 2>&1 >/dev/null) ;;
            hf) detail=$(cd "$cache" && limited node gguf_hf.mjs "$path" 2>&1) ;;
            hyllama) detail=$(cd "$cache" && limited node gguf_hyllama.mjs "$path" 2>&1) ;;
        esac
        rc=$?
        set -e
        ms=$(( ($(date +%s%N) - t0) / 1000000 ))
        if [ $rc -eq 124 ] || [ $rc -eq $((128 + 24)) ] ||
           { [ $rc -eq 137 ] && [ "$ms" -ge $(((limit * 3 + 10) * 1000)) ]; }; then
            verdict=hung # SIGXCPU, or the backstop
            detail="no verdict within $limit s of CPU time"
        elif [ $rc -ge 128 ]; then
            verdict=crashed
            detail="signal $((rc - 128)): $detail"
        elif [ $rc -eq 0 ]; then
            verdict=accepted
            detail=
        elif [ "${reader%%-*}" = ggml ] && [ $rc -ge 2 ]; then # usage, I/O, no library
            verdict=n/a
        elif [ $rc -eq 1 ] || { [ $rc -eq 2 ] && [ "${reader%%-*}" = ggufsafe ]; }; then
            verdict=rejected
        else
            verdict=crashed
        fi
        detail=$(printf '%s' "$detail" | head -n 1 | tr '\t\r' '  ' | cut -c1-200)
        detail=${detail#rejected: }
        detail=${detail#crashed: }
        printf '%s\t%s\t%s\t%s\t%s\n' "$file" "$reader" "$verdict" "$ms" "$detail"
    done
}
export -f limited one_case
export corpus cli oracle cache limit

results=$(mktemp)
trap 'rm -f "$results"' EXIT
started=$SECONDS
tail -n +2 "$corpus/manifest.tsv" | cut -f1 | xargs -d '\n' -P "$jobs" -n 1 bash -c 'one_case "$1"' _ >"$results"
echo "run_matrix.sh: $(cut -f1 "$results" | sort -u | wc -l) cases in $((SECONDS - started)) s" >&2
if [ -n "$raw" ]; then
    sort "$results" >"$raw"
fi

# 5. RESULTS.md.
node "$here/render_results.mjs" "$results" "$corpus/manifest.tsv" \
    "ggml $ggml_version" "@huggingface/gguf $hf_version" "hyllama $hyllama_version" \
    "node $node_version" "$("$cli" --version | head -n 1)" >"$out"
echo "run_matrix.sh: wrote $out" >&2
