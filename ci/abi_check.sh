#!/usr/bin/env bash
# The ABI stage of ci/test.sh: libggufsafe.so against the 0.1.0 baseline (docs/abi.md,
# ci/abi/README.md).
#   1. the shared library, with debug info: BUILD_DIR is configured here when it has no build
#      yet (gcc, RelWithDebInfo, the library alone) and its ggufsafe_shared target built;
#      --lib FILE takes a library already built (the abi_check ctest does);
#   2. abidw of it, then abidiff against ci/abi/libggufsafe-0.1.0.abi, with the fields appended
#      at the end of the growable structs (ci/abi/growable.txt) set aside by
#      ci/abi/drop_appended.py: abidiff must report nothing (exit status 0). Any other change
#      fails: a removed or changed function, a changed enum, a field removed, moved or retyped,
#      a frozen struct touched (abidiff's exit bit 4, "ABI change", as much as bit 8,
#      "incompatible change");
#   3. every exported gs_ symbol is in the baseline or listed in ci/abi/added-since-0.1.0.txt,
#      and every listed symbol is exported.
# Usage: ci/abi_check.sh BUILD_DIR | ci/abi_check.sh --lib LIBGGUFSAFE_SO
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
abi=$root/ci/abi
baseline=$abi/libggufsafe-0.1.0.abi

for tool in abidw abidiff python3 nm readelf; do
    if ! command -v "$tool" >/dev/null; then
        echo "ci/abi_check.sh: $tool not found (ci/install_deps.sh installs abigail-tools)" >&2
        exit 2
    fi
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ "${1:-}" = "--lib" ] && [ $# -eq 2 ]; then
    lib=$2
elif [ $# -eq 1 ]; then
    build=$1
    if [ ! -f "$build/CMakeCache.txt" ]; then
        cmake -S "$root" -B "$build" -G Ninja -DCMAKE_C_COMPILER=gcc \
            -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGGUFSAFE_BUILD_TESTS=OFF \
            -DGGUFSAFE_BUILD_TOOLS=OFF -DGGUFSAFE_WERROR=ON >/dev/null
    fi
    if ! cmake --build "$build" --target ggufsafe_shared >"$work/build.log" 2>&1; then
        grep -E '(error|Error)[: ]' "$work/build.log" | grep -v '^/usr/bin/' | head -20 >&2
        echo "ci/abi_check.sh: FAILED: the library does not build ($build)" >&2
        exit 1
    fi
    lib=$(find "$build" -maxdepth 1 -name 'libggufsafe.so.*.*.*' -type f | head -n 1)
else
    echo "usage: ci/abi_check.sh BUILD_DIR | ci/abi_check.sh --lib LIBGGUFSAFE_SO" >&2
    exit 2
fi
if [ ! -f "$lib" ]; then
    echo "ci/abi_check.sh: no shared library ($lib)" >&2
    exit 2
fi
# grep reads all of readelf's output: after grep -q's first match readelf can die of SIGPIPE,
# which pipefail turns into "no debug info" (it did, in loaded ctest runs of the ASan build)
if ! readelf -S "$lib" | grep '\.debug_info' >/dev/null; then
    echo "ci/abi_check.sh: $lib has no debug info (build it RelWithDebInfo or Debug)" >&2
    exit 2
fi

status=0

# 2. the ABI, the appended fields aside
abidw --headers-dir "$root/include" --drop-private-types --no-show-locs --no-corpus-path \
    --no-comp-dir-path --out-file "$work/current.abi" "$lib"
python3 "$abi/drop_appended.py" "$baseline" "$work/current.abi" "$work/compared.abi" \
    "$abi/growable.txt"
rc=0
abidiff --no-added-syms "$baseline" "$work/compared.abi" >"$work/abidiff.txt" 2>&1 || rc=$?
if [ $rc -ne 0 ]; then
    echo "ABI changed against 0.1.0 (abidiff exit status $rc: $(
        [ $((rc & 8)) -ne 0 ] && echo "incompatible change, ")$(
        [ $((rc & 4)) -ne 0 ] && echo "ABI change, ")$(
        [ $((rc & 3)) -ne 0 ] && echo "abidiff error, ")see docs/abi.md):"
    sed 's/^/  /' "$work/abidiff.txt"
    status=1
fi

# 3. the added symbols, each listed
exported=$(nm -D --defined-only "$lib" | awk 'NF == 3 && $3 ~ /^gs_/ {print $3}' | sort -u)
known=$(grep -o "elf-symbol name='gs_[A-Za-z0-9_]*'" "$baseline" | sed "s/.*name='//; s/'//" |
        sort -u)
listed=$(sed 's/#.*//; s/[[:space:]]//g; /^$/d' "$abi/added-since-0.1.0.txt" | sort -u)
added=$(comm -23 <(echo "$exported") <(echo "$known"))
unlisted=$(comm -23 <(echo "$added") <(echo "$listed"))
stale=$(comm -13 <(echo "$exported") <(echo "$listed"))
if [ -n "$unlisted" ]; then
    echo "exported, but neither in the 0.1.0 baseline nor in ci/abi/added-since-0.1.0.txt:"
    printf '  %s\n' $unlisted
    status=1
fi
if [ -n "$stale" ]; then
    echo "listed in ci/abi/added-since-0.1.0.txt, but not exported:"
    printf '  %s\n' $stale
    status=1
fi

n_known=$(echo "$known" | grep -c .)
n_added=$(echo "$added" | grep -c . || true)
if [ $status -ne 0 ]; then
    echo "ci/abi_check.sh: FAILED ($lib)" >&2
    exit 1
fi
echo "ci/abi_check.sh: ABI compatible with 0.1.0 ($n_known symbols of 0.1.0 unchanged," \
     "$n_added added, all listed)"
