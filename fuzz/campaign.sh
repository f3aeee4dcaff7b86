#!/usr/bin/env bash
# A long local libFuzzer campaign over every harness (or the ones named):
#   fuzz/campaign.sh HOURS [TARGET...]            e.g.  nohup fuzz/campaign.sh 0.5 &
# Each harness fuzzes until it has had HOURS hours of CPU time (runs are repeated while the
# shared cores give it less), niced, two harnesses at a time (the project machine has 2 cores):
# on an idle machine the wall time is HOURS x ceil(targets / 2). The corpora are kept in
# WORK (default build/campaign) and grow across campaigns; the ASan+UBSan libFuzzer build is
# BUILD (default build/fuzz; configured and built here when missing).
#
# At the end it prints, per harness: CPU-minutes, runs, executions, exec/s, edges and features
# (libFuzzer's cov/ft), corpus files before and after -merge=1, and findings. A harness stops at
# its first finding; the finding is minimized into WORK/findings/<target>/, and what to add to
# corpus/regress/ is printed: see fuzz/README.md.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 HOURS [TARGET...]" >&2; exit 2; }
hours=$1
shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(open dequant decode_blocks roundtrip detect certify manifest walk policy baseline)
secs=$(awk -v h="$hours" 'BEGIN { s = int(h * 3600); print (s < 1 ? 1 : s) }')
build=${BUILD:-$root/build/fuzz}
work=${WORK:-$root/build/campaign}
parallel=${FUZZ_JOBS:-2}

if [ ! -f "$build/build.ninja" ]; then
    cmake -S "$root" -B "$build" -G Ninja -DCMAKE_C_COMPILER=clang-14 \
          -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGGUFSAFE_SANITIZE=address,undefined \
          -DGGUFSAFE_BUILD_FUZZERS=ON -DGGUFSAFE_BUILD_TESTS=OFF >/dev/null
fi
cmake --build "$build" --target fuzzers
mkdir -p "$work"
echo "campaign: ${#targets[@]} harnesses x ${secs}s, $parallel at a time; work in $work"

# Corpus files before the campaign, for the report.
declare -A before=()
for t in "${targets[@]}"; do
    before[$t]=0
    [ ! -d "$work/corpus/$t" ] || before[$t]=$(find "$work/corpus/$t" -type f | wc -l)
done

# One harness until it has had $secs of CPU time: the cores are shared, so runs are repeated
# (each as long as the CPU time still owed, at least a minute) on the growing corpus. Totals go
# to $work/totals/TARGET: wall seconds, CPU seconds, executions, runs. A finding ends it.
fuzz_target() {
    local t=$1 wall=0 cpu=0 execs=0 runs=0
    while [ "$cpu" -lt "$secs" ]; do
        local chunk=$((secs - cpu))
        [ "$chunk" -ge 60 ] || chunk=60
        local rc=0
        nice -n 10 sh "$root/fuzz/libfuzzer_run.sh" "$t" "$chunk" "$build" "$work" \
            >"$work/$t.report" 2>&1 || rc=1
        local r_execs r_cpu
        read -r _ _ r_execs _ _ _ _ _ r_cpu <"$work/results/$t"
        wall=$((wall + chunk)) cpu=$((cpu + r_cpu)) execs=$((execs + r_execs)) runs=$((runs + 1))
        echo "$wall $cpu $execs $runs" >"$work/totals/$t"
        [ "$rc" -eq 0 ] || break
    done
}

# Two at a time; a harness that finds something stops and is reported.
declare -A status=()
mkdir -p "$work/totals"
running=0
for t in "${targets[@]}"; do
    if [ "$running" -ge "$parallel" ]; then
        wait -n || true
        running=$((running - 1))
    fi
    fuzz_target "$t" &
    running=$((running + 1))
    echo "campaign: started fuzz_$t ($(date +%H:%M:%S))"
done
wait || true

# Minimize findings; merge corpora.
for t in "${targets[@]}"; do
    bin=$build/fuzz/fuzz_$t
    for f in $(find "$work/artifacts/$t" -type f ! -name 'slow-unit-*' 2>/dev/null); do
        mkdir -p "$work/findings/$t"
        min=$work/findings/$t/min-$(basename "$f")
        nice -n 10 "$bin" -minimize_crash=1 -runs=20000 -timeout=10 -exact_artifact_path="$min" \
            "$f" >"$min.log" 2>&1 || true
        [ -s "$min" ] || cp "$f" "$min"
        status[$t]="FINDING: $min"
    done
    mkdir -p "$work/corpus-min/$t"
    rm -f "$work/corpus-min/$t"/*
    nice -n 10 "$bin" -merge=1 -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
        "$work/corpus-min/$t" "$work/corpus/$t" >"$work/logs/$t.merge.log" 2>&1 || true
done

# The report.
{
    echo "| harness | CPU-minutes (wall) | runs | executions | exec/s (per CPU-second) | edges (cov) | features (ft) | corpus before | corpus after | merged | findings |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|"
    for t in "${targets[@]}"; do
        read -r _ _ _ _ edges ft files findings _ <"$work/results/$t" || true
        read -r wall cpu execs runs <"$work/totals/$t" || true
        merged=$(find "$work/corpus-min/$t" -type f | wc -l)
        echo "| fuzz_$t | $((cpu / 60)) ($((wall / 60))) | $runs | $execs | $((execs / (cpu > 0 ? cpu : 1))) | $edges | $ft | ${before[$t]} | $files | $merged | $findings |"
    done
} | tee "$work/summary.md"

failed=0
for t in "${targets[@]}"; do
    [ -n "${status[$t]:-}" ] || continue
    failed=1
    echo
    cat "$work/$t.report"
    for min in "$work/findings/$t"/min-*; do
        case $min in *.log) continue ;; esac
        echo "--- minimized: $min ($(wc -c <"$min") bytes)"
        od -Ax -tx1 -v "$min"
        # The payload is the input without its 4-byte options trailer.
        raw=$min.payload
        head -c $(($(wc -c <"$min") - 4)) "$min" >"$raw"
        trailer=$(tail -c 4 "$min" | od -An -tx1 -v | tr -d ' \n')
        echo "    without its trailer: $raw (sha256 $(sha256sum "$raw" | cut -d' ' -f1))"
        echo "    add it as corpus/regress/<area>_<what>.gguf (decode_blocks: <type>_<what>) with"
        echo "    its lines in corpus/regress/manifest.tsv written by hand: a default run, and a"
        echo "    fuzz_$t:$trailer run if it needs its trailer (corpus/regress/README.md)"
    done
done
exit $failed
