#!/usr/bin/env bash
# The mutation run, by hand before a release (not part of CI: it takes an hour or more):
#   nice -n 19 bash ci/mutate.sh [PATCH...]           (default: every ci/mutants/*.patch)
# Each ci/mutants/NNN-name.patch is one deliberate bug (a boundary flipped, an off-by-one, a
# dropped check) with two header lines:
#   # tests: <the ctest names that must catch it>
#   # why: <what the bug would let through>
# The tree as it is now (tracked and untracked files, not build/) is copied to WORK/src and built
# once (gcc, Release, WORK/build); every test a mutant names must pass there first. Then each
# mutant in turn is applied, the targets its tests run are rebuilt, its tests run, and the
# mutant is taken out again:
#   KILLED    a named test failed, or timed out (TIMEOUT seconds), or the mutant does not build
#             (counted apart: "by the compiler");
#   SURVIVED  every named test passed: a test is missing (or the mutant changes nothing);
#   STALE     the patch no longer applies: update it to the code it mutates.
# Prints one line per mutant, then the kill rate; WORK/results.tsv keeps them (mutant, verdict,
# the test that killed it, seconds). docs/testing.md records the latest run's figures.
# Environment: MUTATE_DIR (WORK, default build/mutate), MUTATE_JOBS (build jobs, default 1),
# MUTATE_TIMEOUT (seconds per test, default 300).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=${MUTATE_DIR:-$root/build/mutate}
jobs=${MUTATE_JOBS:-1}
timeout=${MUTATE_TIMEOUT:-300}
if [ $# -gt 0 ]; then
    patches=("$@")
else
    patches=("$root"/ci/mutants/*.patch)
fi
[ -f "${patches[0]}" ] || { echo "ci/mutate.sh: no mutants" >&2; exit 2; }

src=$work/src
build=$work/build
mkdir -p "$work"
echo "--- copying the tree to $src"
rm -rf "$src"
mkdir -p "$src"
# -m: the copies get today's times, so that a build left by an earlier (or interrupted) run is
# rebuilt from them; restored times would be older than its objects, and ninja would keep them.
(cd "$root" && git ls-files -z -c -o --exclude-standard | grep -zv '^build/' |
    xargs -0 tar -cf -) | tar -xmf - -C "$src"

echo "--- baseline build ($jobs jobs)"
cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGGUFSAFE_REQUIRE_CRITERION=ON \
      >/dev/null
cmake --build "$build" -j "$jobs" >"$work/baseline-build.log" 2>&1 || {
    tail -n 30 "$work/baseline-build.log"
    echo "ci/mutate.sh: the unmutated tree does not build"
    exit 2
}

tests_of() { sed -n 's/^# tests: //p' "$1" | head -n 1; }
why_of() { sed -n 's/^# why: //p' "$1" | head -n 1; }
# ctest's regex for a list of test names
regex_of() { printf '^(%s)$' "$(echo "$1" | tr ' ' '\n' | sed 's/\./\\./g' | paste -sd '|')"; }

# The build targets a list of tests runs: each test's program (its command's first word, whose
# file name is its target's), and the command, which the CLI tests run.
declare -A known=()
while read -r t _; do known[${t%:}]=1; done < <(ninja -C "$build" -t targets all)
targets_of() {
    local out=(ggufsafe_cli) exe
    for exe in $(ctest --test-dir "$build" -N -V -R "$(regex_of "$1")" |
                 sed -n 's/^[0-9]*: Test command: \([^ ]*\).*/\1/p'); do
        exe=${exe##*/}
        [ -n "${known[$exe]:-}" ] && out+=("$exe")
    done
    printf '%s\n' "${out[@]}" | sort -u
}

echo "--- baseline tests"
all_tests=$(for p in "${patches[@]}"; do tests_of "$p"; done | tr ' ' '\n' | sort -u | paste -sd ' ')
if ! ctest --test-dir "$build" -R "$(regex_of "$all_tests")" --timeout "$timeout" \
        >"$work/baseline-tests.log" 2>&1; then
    grep -E 'Failed|Timeout|Not Run' "$work/baseline-tests.log" | tail -n 20
    echo "ci/mutate.sh: a test the mutants name fails on the unmutated tree"
    exit 2
fi
missing=$(for t in $all_tests; do
    ctest --test-dir "$build" -N -R "$(regex_of "$t")" | grep -q 'Total Tests: 1' || echo "$t"
done)
if [ -n "$missing" ]; then
    echo "ci/mutate.sh: mutants name tests this build does not have: $missing"
    exit 2
fi

results=$work/results.tsv
printf 'mutant\tverdict\tby\tseconds\n' >"$results"
killed=0 survived=0 stale=0 by_compiler=0
survivors=()
for p in "${patches[@]}"; do
    name=$(basename "$p" .patch)
    tests=$(tests_of "$p")
    t0=$SECONDS
    if ! patch -p1 -d "$src" --dry-run --silent --forward <"$p" >/dev/null 2>&1; then
        verdict=STALE by=-
        stale=$((stale + 1))
    else
        patch -p1 -d "$src" --silent --forward <"$p"
        mapfile -t targets < <(targets_of "$tests")
        if ! cmake --build "$build" -j "$jobs" --target "${targets[@]}" \
                >"$work/$name.build.log" 2>&1; then
            verdict=KILLED by=compiler
            killed=$((killed + 1)) by_compiler=$((by_compiler + 1))
        else
            log=$work/$name.test.log
            if ctest --test-dir "$build" -R "$(regex_of "$tests")" --timeout "$timeout" \
                    --stop-on-failure >"$log" 2>&1; then
                verdict=SURVIVED by=-
                survived=$((survived + 1))
                survivors+=("$name")
            else
                verdict=KILLED
                by=$(sed -n 's/^[[:space:]]*[0-9]* - \([^ ]*\) (.*/\1/p' "$log" | paste -sd ',')
                killed=$((killed + 1))
            fi
        fi
        patch -p1 -d "$src" --silent --reverse <"$p"
    fi
    secs=$((SECONDS - t0))
    printf '%-9s %-40s %s (%ss)\n' "$verdict" "$name" "$by" "$secs"
    printf '%s\t%s\t%s\t%s\n' "$name" "$verdict" "$by" "$secs" >>"$results"
done
# the tree is back as it was: rebuild it so that the next run starts from the baseline
cmake --build "$build" -j "$jobs" >/dev/null 2>&1 || true

total=$((killed + survived))
echo
echo "mutants: ${#patches[@]}; killed $killed of $total that apply" \
     "($((total > 0 ? 100 * killed / total : 0))%; $by_compiler by the compiler)," \
     "survived $survived, stale $stale"
for s in "${survivors[@]}"; do
    echo "  survived: $s: $(why_of "$root/ci/mutants/$s.patch")"
done
[ "$stale" -eq 0 ] || echo "  stale patches do not apply any more: update them"
