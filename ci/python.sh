#!/usr/bin/env bash
# The Python package (python/): installed into a venv both ways and tested.
#   1. bundled: pip builds libggufsafe from the checkout with CMake and ships it in the package;
#      the whole pytest suite, and the issue's one-line check (certified: True)
#   2. over an installed library: `cmake --install` of the gcc build into a temporary prefix,
#      found through pkg-config; the suite again but the tests marked heavy
#   3. the suite once against the ASan+UBSan libraries (GGUFSAFE_LIBRARY_DIR), with the
#      compiler's ASan runtime preloaded and leak detection off (the 1,000-file loop checks
#      leaks: no mapping or descriptor left, no growth)
#   4. when mypy is installed, mypy --strict on the package's inline annotations, and the README's
#      uses type-checked against the installed package (py.typed, PEP 561)
# Debian's /usr/bin/python3 throughout (another python3 may come first on PATH), offline:
# --system-site-packages and --no-build-isolation use Debian's cffi, numpy, pytest, setuptools.
#   ci/python.sh [GCC_BUILD [ASAN_BUILD]]   defaults: build/gcc-release build/clang-asan
# Both builds must exist (ci/test.sh makes them first): the gcc one provides the corpus, the
# ggufsafe command the tests compare with, and the library to install.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
gcc_build=$(realpath "${1:-build/gcc-release}")
asan_build=$(realpath "${2:-build/clang-asan}")
py=/usr/bin/python3
venv=$root/build/python-venv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for f in "$gcc_build/corpus/generated/manifest.tsv" "$gcc_build/cli/ggufsafe" \
         "$asan_build/libggufsafe.so.0" "$asan_build/cli/libggufsafe_certify.so.0"; do
    [ -e "$f" ] || { echo "ci/python.sh: $f is missing: build it first (ci/test.sh)" >&2; exit 2; }
done

export GGUFSAFE_TEST_BUILD=$gcc_build GGUFSAFE_TEST_REQUIRE=1 PIP_NO_INDEX=1
export PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONDONTWRITEBYTECODE=1
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc 2>/dev/null || echo 2)}
unset GGUFSAFE_LIBRARY_DIR GGUFSAFE_BUNDLE
"$py" -m venv --system-site-packages --clear "$venv"

install() { # GGUFSAFE_BUNDLE value
    GGUFSAFE_BUNDLE=$1 "$venv/bin/pip" install -q --no-build-isolation --force-reinstall \
        --no-deps "$root/python"
}
run_tests() { # from outside the checkout, so that the installed package is the one imported
    (cd "$tmp" && "$venv/bin/python" -m pytest -q -p no:cacheprovider --durations=5 \
        "$root/python/tests" "$@")
}
loaded() {
    (cd "$tmp" && "$venv/bin/python" -c 'import ggufsafe; print(ggufsafe.library_paths[0])')
}

echo "--- bundled: the C library built by pip from the checkout"
install 1
case $(loaded) in
    "$venv"/*/ggufsafe/_libs/libggufsafe.so.0) ;;
    *) echo "ci/python.sh: the bundled install loads $(loaded)" >&2; exit 1 ;;
esac
certified=$("$venv/bin/python" -c \
    "import ggufsafe; print(ggufsafe.certify('conformance/samples/ggml-written.gguf').certified)")
[ "$certified" = True ] || { echo "ci/python.sh: the sample is not certified" >&2; exit 1; }
run_tests

echo "--- installed: cmake --install into a prefix, found by pkg-config"
cmake --install "$gcc_build" --prefix "$tmp/prefix" >/dev/null
export PKG_CONFIG_PATH=$tmp/prefix/lib/pkgconfig:$tmp/prefix/lib/x86_64-linux-gnu/pkgconfig
install 0
case $(loaded) in
    "$tmp/prefix"/*) ;;
    *) echo "ci/python.sh: the installed-library install loads $(loaded)" >&2; exit 1 ;;
esac
# The library found another way is the same library: the heavy corpus-wide and threading tests
# ran in the bundled run and run again under ASan.
GGUFSAFE_INCLUDE_DIR=$tmp/prefix/include run_tests -m "not heavy"

echo "--- ASan+UBSan libraries ($asan_build)"
asan_rt=$(clang-14 -print-file-name=libclang_rt.asan-x86_64.so)
(export GGUFSAFE_LIBRARY_DIR=$asan_build:$asan_build/cli LD_PRELOAD=$asan_rt
 export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
 case $(loaded) in
     "$asan_build"/*) ;;
     *) echo "ci/python.sh: the ASan run loads $(loaded)" >&2; exit 1 ;;
 esac
 run_tests)

if "$venv/bin/python" -c 'import mypy' 2>/dev/null; then
    echo "--- mypy: the package, and the README's uses against the installed package"
    (cd "$root/python" && "$venv/bin/python" -m mypy --strict --no-incremental \
        --cache-dir=/dev/null ggufsafe tests/typing_usage.py)
    cp "$root/python/tests/typing_usage.py" "$tmp/"
    (cd "$tmp" && "$venv/bin/python" -m mypy --strict --no-incremental --cache-dir=/dev/null \
        typing_usage.py)
else
    echo "--- mypy is not installed: the annotations are not checked"
fi
echo "ci/python.sh: passed"
