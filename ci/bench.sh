#!/usr/bin/env bash
# The benchmark of the whole process (docs/performance.md, "The benchmark"): one command that
# builds release, generates its inputs and prints every speed figure of ggufsafe as a ratio
# against a baseline measured in the same run, as one Markdown table. It is not a test and gates
# nothing: a smoke run (--quick) checks that it works, never how fast anything is.
#
#   ci/bench.sh [--quick] [--out FILE] [--work DIR] [--build DIR]
#
#   --quick      small inputs (64 MiB instead of 1 GiB, a tenth of the keys and tensors, 100
#                small files), 2 runs per figure: under 2 minutes, for smoke runs
#   --out FILE   also write the table (with its header lines) to FILE
#   --work DIR   where the inputs are generated (default build/bench/inputs; reused when there:
#                remove it to regenerate); nothing else is written outside the build folders
#   --build DIR  the release build (default build/bench)
#
# Baselines, all measured in this run: /bin/true (process start), ggml's gguf_init_from_file in
# its own process (gs_oracle report) and in ours (gs_oracle_bench), ggml's to_float per type,
# our library's parse from memory (gs_bench_parse), openssl dgst -sha256, openssl speed sha256
# (the SHA-256 limit of one thread), sha256sum, memcpy (gs_bench_memcpy), and for the scaling
# rows the previous size. ggml comes from the pinned package of ci/oracle_fetch.sh (its cache is
# reused, as ci/oracle_ci.sh does); without it the ggml rows say so and the others are measured.
#
# Needs: cmake, ninja, gcc, openssl, sha256sum, dd, awk; about 3.5 GiB free under the work folder
# (0.3 GiB with --quick) and 3 GiB of memory (the 1 GiB generator holds its file in memory).
# Timings are wall seconds, best of RUNS (5 for whole-process figures, 3 for the 1 GiB ones),
# with the user + system time of the fastest run beside it; the page cache is warmed before
# every file is timed, so nothing here measures the disk.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

quick=0
out_file=""
work=""
build=build/bench
while [ $# -gt 0 ]; do
    case $1 in
        --quick) quick=1 ;;
        --out) out_file=${2:?--out needs a FILE}; shift ;;
        --work) work=${2:?--work needs a DIR}; shift ;;
        --build) build=${2:?--build needs a DIR}; shift ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
    shift
done
work=${work:-$build/inputs}

die() { echo "bench.sh: $*" >&2; exit 2; }
note() { echo "bench.sh: $*" >&2; }
for tool in cmake ninja gcc openssl sha256sum dd awk; do
    command -v "$tool" >/dev/null || die "'$tool' is needed and not installed (ci/install_deps.sh installs it)"
done

if [ $quick = 1 ]; then
    runs=2 runs_big=2 big_mib=64 n_small=100
    keys=(4000 8000 16000) tensors=(2000 4000 8000) bytes_mib=(16 32 64)
    need_mib=400
else
    runs=5 runs_big=3 big_mib=1024 n_small=1000
    keys=(40000 80000 160000) tensors=(20000 40000 80000) bytes_mib=(256 512 1024)
    need_mib=3600
fi
mkdir -p "$work"
free_mib=$(df -Pm "$work" | awk 'NR == 2 { print $4 }')
if [ ! -f "$work/.complete-$quick" ]; then
    note "the inputs need about $need_mib MiB under $work ($free_mib MiB free) and up to 3 GiB of memory"
    [ "$free_mib" -ge "$need_mib" ] || die "not enough free space under $work"
fi

# ---- build -------------------------------------------------------------------------------------
oracle=OFF
oracle_why=""
if oracle_out=$(bash ci/oracle_fetch.sh 2>&1); then
    oracle=ON
else
    oracle_why=$(echo "$oracle_out" | head -n 1)
    note "ggml is not available, its rows are left out: $oracle_why"
fi
note "release build in $build (GGUFSAFE_ORACLE=$oracle)"
# CC applies to a new build folder only; an existing one keeps its compiler.
CC=${CC:-gcc} cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DGGUFSAFE_ORACLE=$oracle >/dev/null
targets=(ggufsafe_cli gs_bench_time gs_bench_memcpy gs_bench_inputs gs_bench_parse)
[ $oracle = ON ] && targets+=(gs_oracle gs_oracle_bench)
cmake --build "$build" -j "$(nproc)" --target "${targets[@]}" >/dev/null ||
    die "the release build failed (cmake --build $build --target ${targets[*]})"
cli=$build/cli/ggufsafe
timer=$build/cli/gs_bench_time
gs_oracle=$build/conformance/oracle/runner/gs_oracle
oracle_bench=$build/conformance/oracle/runner/gs_oracle_bench

# ---- inputs ------------------------------------------------------------------------------------
gen=$build/cli/gs_bench_inputs
# gen_input KIND N FILE: FILE from gs_bench_inputs unless it is there; written under a temporary
# name first, so that an interrupted run never leaves a short file that a later one reuses
gen_input() {
    local kind=$1 n=$2 file=$3
    [ -s "$file" ] && return 0
    note "generating $file"
    "$gen" "$kind" "$n" "$file.tmp" || die "generating $file failed"
    mv "$file.tmp" "$file"
}
if [ ! -f "$work/.complete-$quick" ]; then
    big=$work/f16-$big_mib.gguf big_b=$work/f16-$big_mib-b.gguf
    if [ ! -s "$big" ] || [ ! -s "$big_b" ]; then
        note "generating $big and $big_b"
        "$gen" f16 "$big_mib" "$big.tmp" "$big_b.tmp" || die "generating $big failed"
        mv "$big_b.tmp" "$big_b"
        mv "$big.tmp" "$big"
    fi
    for n in "${keys[@]}"; do gen_input keys "$n" "$work/keys-$n.gguf"; done
    for n in "${tensors[@]}"; do gen_input tensors "$n" "$work/tensors-$n.gguf"; done
    for m in "${bytes_mib[@]}"; do
        [ "$m" = "$big_mib" ] || gen_input f16 "$m" "$work/f16-$m.gguf"
    done
    rm -rf "$work/small-$n_small"
    mkdir -p "$work/small-$n_small"
    note "generating $n_small small files in $work/small-$n_small"
    "$gen" small "$n_small" "$work/small-$n_small" || die "generating the small files failed"
    note "generating the parse benchmark's files"
    "$build/parser/bench/gs_bench_parse" --write "$work" >/dev/null ||
        die "gs_bench_parse --write failed"
    "$gen" small 1 "$work" || die "generating the tiny file failed"
    mv "$work/small-00000.gguf" "$work/tiny.gguf"
    touch "$work/.complete-$quick"
fi
big=$work/f16-$big_mib.gguf
big_b=$work/f16-$big_mib-b.gguf
tiny=$work/tiny.gguf
vocab=$work/vocab_merges.gguf
keys160=$work/keys_160k.gguf
for f in "$big" "$big_b" "$tiny" "$vocab" "$keys160"; do
    [ -s "$f" ] || die "$f is missing from the inputs: remove $work/.complete-$quick to regenerate"
done

# ---- measuring ---------------------------------------------------------------------------------
warm() { cat "$@" >/dev/null; }
# time_cmd RUNS EXPECT COMMAND...: "WALL USER SYS" of the fastest run
time_cmd() {
    local r=$1 expect=$2; shift 2
    "$timer" --runs "$r" --expect "$expect" -- "$@" || die "timing failed: $*"
}
# has_option COMMAND OPTION: whether the command's --help names OPTION (read whole first: grep -q
# stops at the match, and under pipefail the command's write into the closed pipe fails the test)
has_option() {
    local help
    help=$("$cli" "$1" --help 2>&1) || true
    grep -q -- "$2" <<<"$help"
}
wall() { echo "$1" | awk '{ print $1 }'; }
cpu() { echo "$1" | awk '{ print $2 + $3 }'; }
calc() { awk "BEGIN { printf \"%.6g\", $1 }"; }
# seconds as ms or s, three significant figures
show() {
    awk -v t="$1" 'BEGIN { if (t < 1) printf "%.3g ms", t * 1000; else printf "%.3g s", t }'
}

rows=()
# row FIGURE OURS_S OURS_CPU_S BASE_S BASE_NAME TARGET_MAX [NOTE]: ratio = ours / baseline in
# time (below 1: faster than the baseline); TARGET_MAX empty: a figure without a target.
row() {
    local figure=$1 ours=$2 ours_cpu=$3 base=$4 name=$5 target=${6:-} extra=${7:-}
    local ratio met="—" target_text="—"
    ratio=$(calc "$ours / $base")
    if [ -n "$target" ]; then
        target_text="≤ $target"
        met=$(awk -v r="$ratio" -v t="$target" 'BEGIN { print (r <= t) ? "yes" : "no" }')
    fi
    [ -n "$extra" ] && target_text="$target_text $extra"
    rows+=("| $figure | $(show "$ours") | $(show "$ours_cpu") | $(show "$base") | $name | $(printf '%.2f' "$ratio") | $target_text | $met |")
}
# pending FIGURE WHY: a figure this tree cannot measure yet
pending() { rows+=("| $1 | pending | | | | | $2 | no |"); }
section() { rows+=("| **$1** | | | | | | | |"); }

# Process start and reading metadata, whole process.
note "process start and metadata"
warm "$tiny" "$vocab" "$keys160"
t_true=$(time_cmd "$runs" 0 /bin/true)
t_version=$(time_cmd "$runs" 0 "$cli" --version)
t_info_tiny=$(time_cmd "$runs" 0 "$cli" info "$tiny")
t_info_vocab=$(time_cmd "$runs" 0 "$cli" info "$vocab")
t_info_keys=$(time_cmd "$runs" 0 "$cli" info "$keys160")
parse_out=$("$build/parser/bench/gs_bench_parse" 20)
# gs_bench_parse's rows: | label | MB | PARSE ms | rate | MEMCPY ms | ratio |
parse_ms() { echo "$parse_out" | awk -F'|' -v l="$1" 'index($2, l) { gsub(/[ ms]/, "", $4); print $4 / 1000 }'; }
copy_ms() { echo "$parse_out" | awk -F'|' -v l="$1" 'index($2, l) { gsub(/[ ms]/, "", $6); print $6 / 1000 }'; }
p_keys=$(parse_ms "160,000 KVs") c_keys=$(copy_ms "160,000 KVs")
p_vocab=$(parse_ms "262,144-token") c_vocab=$(copy_ms "262,144-token")
if [ -z "$p_keys" ] || [ -z "$p_vocab" ]; then
    die "cannot read gs_bench_parse's table: $parse_out"
fi

section "process start and metadata (whole process unless said)"
row "ggufsafe --version" "$(wall "$t_version")" "$(cpu "$t_version")" "$(wall "$t_true")" "/bin/true"
row "ggufsafe info, tiny file (9 KB)" "$(wall "$t_info_tiny")" "$(cpu "$t_info_tiny")" "$(wall "$t_true")" "/bin/true"
if [ $oracle = ON ]; then
    t_ggml_tiny=$(time_cmd "$runs" 0 "$gs_oracle" report "$tiny")
    row "ggufsafe info, tiny file" "$(wall "$t_info_tiny")" "$(cpu "$t_info_tiny")" "$(wall "$t_ggml_tiny")" "ggml gguf_init_from_file, whole process"
fi
row "library parse, vocabulary 262,144 + 514,906 merges (19 MB), in process" "$p_vocab" "$p_vocab" "$c_vocab" "memcpy of the same bytes"
row "ggufsafe info, vocabulary" "$(wall "$t_info_vocab")" "$(cpu "$t_info_vocab")" "$p_vocab" "our library's parse, in process"
if [ $oracle = ON ]; then
    t_ggml_vocab=$(time_cmd "$runs" 0 "$gs_oracle" report "$vocab")
    row "ggufsafe info, vocabulary" "$(wall "$t_info_vocab")" "$(cpu "$t_info_vocab")" "$(wall "$t_ggml_vocab")" "ggml gguf_init_from_file, whole process" 0.1 "(10x faster)"
fi
row "library parse, 160,000 keys (6.4 MB), in process" "$p_keys" "$p_keys" "$c_keys" "memcpy of the same bytes"
row "ggufsafe info, 160,000 keys" "$(wall "$t_info_keys")" "$(cpu "$t_info_keys")" "$p_keys" "our library's parse, in process"
# #19's bound is absolute: the row's baseline is the bound itself, not a measurement
row "ggufsafe info, 160,000 keys" "$(wall "$t_info_keys")" "$(cpu "$t_info_keys")" 0.030 "the bound of 30 ms (a constant)" 1 "(under 30 ms)"
if [ $oracle = ON ] && [ $quick = 0 ]; then
    note "ggml on 160,000 keys (quadratic: about a minute, timed once)"
    t_ggml_keys=$(time_cmd 1 0 "$gs_oracle" report "$keys160")
    row "ggufsafe info, 160,000 keys" "$(wall "$t_info_keys")" "$(cpu "$t_info_keys")" "$(wall "$t_ggml_keys")" "ggml gguf_init_from_file, whole process (1 run)"
elif [ $oracle = ON ]; then
    rows+=("| ggufsafe info, 160,000 keys against ggml | | | | ggml gguf_init_from_file | | left out by --quick (ggml is quadratic: a minute) | — |")
fi

# Readers and decoders against ggml in one process.
if [ $oracle = ON ]; then
    note "ggml's reader and to_float in one process (gs_oracle_bench)"
    ob_args=(--parse "$vocab")
    [ $quick = 1 ] && ob_args=(--quick --parse "$vocab")
    ob_out=$("$oracle_bench" "${ob_args[@]}") || die "gs_oracle_bench failed"
    section "against ggml in one process (gs_oracle_bench: single thread)"
    # reader rows: | file | size | ggml s|ms | ours s|ms | ...
    while IFS='|' read -r _ file _ g o _; do
        row "gs_open_file, $(basename "$(echo "$file" | tr -d ' `')")" \
            "$(echo "$o" | awk '{ print ($2 == "s") ? $1 : $1 / 1000 }')" \
            "$(echo "$o" | awk '{ print ($2 == "s") ? $1 : $1 / 1000 }')" \
            "$(echo "$g" | awk '{ print ($2 == "s") ? $1 : $1 / 1000 }')" "ggml gguf_init_from_file, same process"
    done < <(echo "$ob_out" | awk -F'|' '/^\| .*\.gguf/ && /(ms|s) \|/')
    # decoder rows: | type | ggml cache | scalar | avx2 | x | x | ggml stream | scalar | avx2 | x | x |
    while IFS='|' read -r _ type gc _ ac _ _ gs _ as _ _; do
        type=$(echo "$type" | tr -d ' ')
        # rates, not times: the ratio is still ours / ggml in time (ggml's rate / ours)
        rows+=("$(awk -v t="$type" -v gc="$gc" -v ac="$ac" -v gs="$gs" -v as="$as" 'BEGIN {
            printf "| to_float %s to f32, streaming, AVX2 path | %.2f Gelem/s | | %.2f Gelem/s | ggml to_float | %.2f | — (cache-resident: %.2f) | — |",
                   t, as, gs, gs / as, gc / ac }')")
    done < <(echo "$ob_out" | awk -F'|' 'NF >= 12 && $3 ~ /^ *[0-9.]+ *$/ && $2 !~ /\.gguf/')
    geo=$(echo "$ob_out" | grep -m1 '^Geometric mean' || true)
    [ -n "$geo" ] && rows+=("| to_float, all types: $geo | | | | | | | |")
else
    section "against ggml: left out ($oracle_why)"
fi

# Hashing and decoding a 1 GiB file.
note "hashing and decoding $big_mib MiB (best of $runs_big)"
warm "$big" "$big"
bytes=$(stat -c %s "$big")
f32_bytes=$(( big_mib << 21 )) # every F16 element becomes 4 bytes
sha_rate=$(openssl speed -mr -seconds 1 -bytes 1048576 -evp sha256 2>/dev/null | awk -F: '/^\+F:/ { print $4 }')
[ -n "$sha_rate" ] || die "openssl speed printed no SHA-256 figure"
sha_limit=$(calc "$f32_bytes / $sha_rate")
mem_out=$("$build/cli/gs_bench_memcpy" "$(( f32_bytes >> 20 ))" "$runs_big")
t_memcpy=$(echo "$mem_out" | awk '{ print $1 }')
t_openssl=$(time_cmd "$runs_big" 0 openssl dgst -sha256 "$big")
t_sha256sum=$(time_cmd "$runs_big" 0 sha256sum "$big")
t_hash=$(time_cmd "$runs_big" 0 "$cli" hash --jobs 2 --quiet "$big")
t_openssl2=$(time_cmd "$runs_big" 0 openssl dgst -sha256 "$big")
[ "$(calc "$(wall "$t_openssl2") < $(wall "$t_openssl")")" = 1 ] && t_openssl=$t_openssl2
section "hashing $(( bytes >> 20 )) MiB (F16, 16 tensors; page cache warm; best of $runs_big)"
row "ggufsafe hash --jobs 2" "$(wall "$t_hash")" "$(cpu "$t_hash")" "$(wall "$t_openssl")" "openssl dgst -sha256, same file" 1.2
row "ggufsafe hash --jobs 2" "$(wall "$t_hash")" "$(cpu "$t_hash")" "$(wall "$t_sha256sum")" "sha256sum, same file"
row "openssl dgst -sha256" "$(wall "$t_openssl")" "$(cpu "$t_openssl")" "$(calc "$bytes / $sha_rate")" "SHA-256 of the same bytes at openssl speed's rate ($(calc "$sha_rate / 1e9") GB/s, one thread)"

section "dequant, $(( bytes >> 20 )) MiB F16 to $(( f32_bytes >> 20 )) MiB f32 (best of $runs_big)"
# The rows against one thread's baselines run one thread (dequant and diff use every core
# unless told; a tree from before --jobs has one thread anyway).
one_job=() one_diff_job=() # empty: the command has no --jobs
has_option dequant --jobs && one_job=(--jobs 1)
has_option diff --jobs && one_diff_job=(--jobs 1)
t_deq=$(time_cmd "$runs_big" 0 "$cli" dequant "${one_job[@]}" "$big")
t_deq_sha=$(time_cmd "$runs_big" 0 "$cli" dequant --sha256 "${one_job[@]}" "$big")
row "ggufsafe dequant --jobs 1 (statistics)" "$(wall "$t_deq")" "$(cpu "$t_deq")" "$t_memcpy" "memcpy of the f32 output's size (gs_bench_memcpy)"
row "ggufsafe dequant --sha256 --jobs 1" "$(wall "$t_deq_sha")" "$(cpu "$t_deq_sha")" "$sha_limit" "SHA-256 of the f32 output at openssl speed's rate, one thread" 1.2 "(near the limit)"
# what no reading design goes below: the limit plus reading the input once, 32 KiB a read as the
# library reads it (dequant reads its data, it maps nothing: a file cut short is an error, not
# a SIGBUS; mapping it measured no faster, the page faults cost what the copy does)
t_read=$(time_cmd "$runs_big" 0 dd if="$big" of=/dev/null bs=32k status=none)
row "ggufsafe dequant --sha256 --jobs 1" "$(wall "$t_deq_sha")" "$(cpu "$t_deq_sha")" "$(calc "$sha_limit + $(wall "$t_read")")" "the SHA-256 limit + reading the input once (dd bs=32k: $(show "$(wall "$t_read")"))"
if [ ${#one_job[@]} -gt 0 ]; then
    t_deq_j1=$t_deq_sha # dequant --sha256 --jobs 1, timed above
    t_deq_j2=$(time_cmd "$runs_big" 0 "$cli" dequant --sha256 --jobs 2 "$big")
    row "ggufsafe dequant --sha256 --jobs 2" "$(wall "$t_deq_j2")" "$(cpu "$t_deq_j2")" "$(wall "$t_deq_j1")" "dequant --sha256 --jobs 1" 0.556 "(1.8x)"
    row "ggufsafe dequant --sha256 --jobs 2" "$(wall "$t_deq_j2")" "$(cpu "$t_deq_j2")" "$(calc "$sha_limit / 2")" "the SHA-256 limit over two threads" 1.2 "(near the limit)"
    row "ggufsafe dequant --sha256 --jobs 2" "$(wall "$t_deq_j2")" "$(cpu "$t_deq_j2")" "$(calc "($sha_limit + $(wall "$t_read")) / 2")" "the SHA-256 limit + reading the input once, over two threads"
    same=yes
    ref=$("$cli" dequant --sha256 --jobs 1 "$big")
    for j in 2 3 4; do
        [ "$("$cli" dequant --sha256 --jobs "$j" "$big")" = "$ref" ] || same=no
    done
    rows+=("| dequant --sha256 output identical for --jobs 1, 2, 3, 4 | $same | | | | | identical | $same |")
else
    pending "ggufsafe dequant --sha256 --jobs 2 against --jobs 1" "≤ 0.556 (1.8x): dequant has no --jobs yet"
fi

note "diff of two $big_mib MiB files"
warm "$big_b" "$big_b"
t_deq_b=$(time_cmd "$runs_big" 0 "$cli" dequant "${one_job[@]}" "$big_b")
t_diff=$(time_cmd "$runs_big" 0 "$cli" diff --quiet "${one_diff_job[@]}" "$big" "$big_b")
section "diff of two $(( bytes >> 20 )) MiB F16 files (best of $runs_big)"
row "ggufsafe diff --jobs 1 A B" "$(wall "$t_diff")" "$(cpu "$t_diff")" "$(calc "$(wall "$t_deq") + $(wall "$t_deq_b")")" "dequant A + dequant B (decoding both)" 1.5
if [ ${#one_diff_job[@]} -gt 0 ]; then
    t_diff2=$(time_cmd "$runs_big" 0 "$cli" diff --quiet --jobs 2 "$big" "$big_b")
    row "ggufsafe diff --jobs 2 A B" "$(wall "$t_diff2")" "$(cpu "$t_diff2")" "$(calc "$(wall "$t_deq") + $(wall "$t_deq_b")")" "dequant A + dequant B (one thread each)"
fi

# Many small files in one run.
note "certify of $n_small small files"
smalls=("$work/small-$n_small"/small-*.gguf)
[ ${#smalls[@]} = "$n_small" ] || die "$work/small-$n_small has ${#smalls[@]} files, $n_small expected: remove $work"
warm "${smalls[@]}"
t_one=$(time_cmd "$runs" 0 "$cli" certify --quiet "${smalls[0]}")
section "certify of $n_small small files (9 KB each)"
if "$cli" certify --quiet "${smalls[0]}" "${smalls[1]}" >/dev/null 2>&1; then
    t_many=$(time_cmd "$runs_big" 0 "$cli" certify --quiet "${smalls[@]}")
    per=$(calc "$(wall "$t_many") / $n_small")
    row "ggufsafe certify of $n_small files in one run, per file" "$per" "$(calc "$(cpu "$t_many") / $n_small")" "$(wall "$t_one")" "one certify process per file" "$(calc "0.002 / $(wall "$t_one")")" "(2 ms a file)"
else
    rows+=("| ggufsafe certify, one process per file | $(show "$(wall "$t_one")") | $(show "$(cpu "$t_one")") | | | | — | — |")
    pending "ggufsafe certify of $n_small files in one run, per file" "≤ 2 ms a file: certify takes one FILE yet"
fi

# Scaling: three sizes, doubling; the ratio to the previous size is 2.0 when linear.
scale() { # LABEL FILE-PREFIX SUFFIX COMMAND-ARGS... over the sizes in the array named by $sizes
    local label=$1 prefix=$2 suffix=$3; shift 3
    local prev="" n t f
    for n in "${sizes[@]}"; do
        f=$work/$prefix-$n$suffix.gguf
        [ -s "$f" ] || f=$work/$prefix-$n.gguf
        warm "$f"
        t=$(time_cmd "$runs" 0 "$cli" "$@" "$f")
        if [ -z "$prev" ]; then
            rows+=("| $label, $n | $(show "$(wall "$t")") | $(show "$(cpu "$t")") | | first size | | — | — |")
        else
            # CPU time: a shared machine stretches wall time, not the work done
            rows+=("$(awk -v w="$(wall "$t")" -v c="$(cpu "$t")" -v p="$(cpu "$prev")" -v l="$label, $n" '
                function show(t) { return t < 1 ? sprintf("%.3g ms", t * 1000) : sprintf("%.3g s", t) }
                BEGIN { r = c / p; printf "| %s | %s | %s | %s (CPU) | the half size | %.2f | ≤ 2.3 (linear: 2.0) | %s |",
                        l, show(w), show(c), show(p), r, r <= 2.3 ? "yes" : "no" }')")
        fi
        prev=$t
    done
}
note "scaling"
section "scaling with the input (whole process; ratio of CPU time to the half size's: 2.0 is linear)"
sizes=("${keys[@]}"); scale "info, keys" keys "" info
sizes=("${keys[@]}"); scale "certify, keys" keys "" certify --quiet
sizes=("${tensors[@]}"); scale "info, tensors" tensors "" info
sizes=("${tensors[@]}"); scale "certify, tensors" tensors "" certify --quiet
sizes=("${bytes_mib[@]}"); scale "certify --deep --jobs 1, MiB of F16" f16 "" certify --deep --jobs 1 --quiet
sizes=("${bytes_mib[@]}"); scale "info, MiB of F16" f16 "" info

# ---- the table ---------------------------------------------------------------------------------
{
    echo "$("$cli" --version | head -n 1), $(gcc --version | head -n 1), release build ($build)"
    echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores;" \
         "load: $(uptime | sed 's/.*load average/load average/')"
    echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')$([ $quick = 1 ] && echo ', --quick (smoke run: the figures mean little)')"
    echo
    echo "Times are wall time, the fastest of $runs runs ($runs_big for the $big_mib MiB files), CPU = user + system of that run;"
    echo "ratio = ours / baseline in time (below 1.00: faster than the baseline)."
    echo
    echo "| figure | ours (wall) | ours (CPU) | baseline (wall) | baseline | ratio | target | met |"
    echo "|---|---:|---:|---:|---|---:|---|---|"
    printf '%s\n' "${rows[@]}"
} | if [ -n "$out_file" ]; then tee "$out_file"; else cat; fi
