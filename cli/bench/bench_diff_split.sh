#!/usr/bin/env bash
# The cost of diff's tensor lookups in a split set (docs/performance.md). Not a test: it prints
# figures. Writes T one-element tensors twice as one file and twice as a set of P parts
# (make_split_set.py), then times in the same run, best of RUNS by CPU time, `ggufsafe diff` of
# the two files and of the two sets, and prints the set's cost as a ratio to the file's. With
# O(1) lookups the ratio stays near 1 whatever P is; matching by probing every part was
# O(T x P) (issue #14: 36 s of CPU against 0.8 s at T = 400,000, P = 4,000).
#
#   cli/bench/bench_diff_split.sh BUILD_DIR [T] [P] [RUNS]      (defaults 100000 1000 3)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?usage: bench_diff_split.sh BUILD_DIR [T] [P] [RUNS]}
tensors=${2:-100000}
parts=${3:-1000}
runs=${4:-3}
cli=$build/cli/ggufsafe
cmake --build "$build" --target ggufsafe_cli >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for side in a b; do
    python3 "$here/make_split_set.py" "$work" "one_$side" "$tensors" 1
    python3 "$here/make_split_set.py" "$work" "set_$side" "$tensors" "$parts"
done
cat "$work"/* >/dev/null # warm the page cache

# The least CPU time (user + system, seconds) of RUNS runs of a command.
best_cpu() {
    local best="" out
    out=$(mktemp)
    for _ in $(seq "$runs"); do
        /usr/bin/time -f "%U %S" -o "$out" "$@" >/dev/null
        read -r u s <"$out"
        c=$(echo "$u + $s" | bc -l)
        if [ -z "$best" ] || [ "$(echo "$c < $best" | bc -l)" = 1 ]; then
            best=$c
        fi
    done
    rm -f "$out"
    echo "$best"
}

last=$(printf '%05d' "$parts")
one=$(best_cpu "$cli" diff --jobs 1 "$work/one_a.gguf" "$work/one_b.gguf")
set=$(best_cpu "$cli" diff --jobs 1 "$work/set_a-00001-of-$last.gguf" \
      "$work/set_b-00001-of-$last.gguf")
echo "| diff of | tensors | parts | CPU s | vs one file |"
echo "|---|---|---|---|---|"
printf '| two files | %s | 1 | %.2f | 1.00x |\n' "$tensors" "$one"
printf '| two sets | %s | %s | %.2f | %.2fx |\n' "$tensors" "$parts" "$set" \
       "$(echo "$set / $one" | bc -l)"
