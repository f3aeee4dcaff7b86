#!/usr/bin/env bash
# Fetches ggml's reference library for the differential oracle (conformance/oracle/): the npm
# package @node-llama-cpp/linux-x64, pinned to 3.22.1 and to its integrity hash, the build that
# produced conformance/kat and conformance/samples (x86-64 Linux). It is unpacked into the cache
#   ${GGUFSAFE_ORACLE_CACHE:-$HOME/.cache/ggufsafe/oracle}/node-llama-cpp-linux-x64-3.22.1/
# where gs_oracle looks for package/bins/linux-x64/libggml-base.so (GGUFSAFE_ORACLE_LIB names
# another file instead). Idempotent, and offline once cached: a verified tree is reused as it
# is, a cached tarball is checked again and unpacked, and npm is asked only when neither is.
#
# Prints the library's path and exits 0 when it is there. Otherwise prints why and exits 77
# (the tests skip), or 1 when GGUFSAFE_REQUIRE_ORACLE=1 (as .ci/run sets it).
set -euo pipefail

package=@node-llama-cpp/linux-x64
version=3.22.1
integrity='sha512-5uCCDNqWCNfaAm8aR/Uzxbo4HBpKgNF91kCHPepKhgMgV2OAmatoefbOlMihsqCiH2Od35E/eUHQCFbfRBJuOg=='
cache=${GGUFSAFE_ORACLE_CACHE:-${HOME:-/root}/.cache/ggufsafe/oracle}
dir=$cache/node-llama-cpp-linux-x64-$version
tarball=$dir.tgz
lib=$dir/package/bins/linux-x64/libggml-base.so

unavailable() {
    echo "oracle_fetch: $*" >&2
    if [ "${GGUFSAFE_REQUIRE_ORACLE:-0}" = 1 ]; then
        echo "oracle_fetch: GGUFSAFE_REQUIRE_ORACLE=1: the oracle is required" >&2
        exit 1
    fi
    echo "oracle_fetch: the differential tests will be skipped" >&2
    exit 77
}

# "sha512-<base64>" of a file, as npm writes integrity hashes.
integrity_of() {
    printf 'sha512-%s' "$(openssl dgst -sha512 -binary "$1" | base64 -w0)"
}

if [ -n "${GGUFSAFE_ORACLE_LIB:-}" ]; then
    [ -r "$GGUFSAFE_ORACLE_LIB" ] || unavailable "GGUFSAFE_ORACLE_LIB=$GGUFSAFE_ORACLE_LIB is not readable"
    echo "$GGUFSAFE_ORACLE_LIB"
    exit 0
fi
case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) ;;
    *) unavailable "the package is built for x86-64 Linux, this is $(uname -s)-$(uname -m)" ;;
esac
if [ -f "$dir/.verified" ] && [ -r "$lib" ]; then
    echo "$lib"
    exit 0
fi
command -v openssl >/dev/null || unavailable "openssl is needed to verify the package"
mkdir -p "$cache" || unavailable "cannot create $cache"

if [ ! -f "$tarball" ] || [ "$(integrity_of "$tarball")" != "$integrity" ]; then
    command -v npm >/dev/null || unavailable "npm is not installed, and $tarball is missing or fails verification"
    work=$(mktemp -d "$cache/fetch.XXXXXX")
    trap 'rm -rf "$work"' EXIT
    if ! (cd "$work" && npm pack "$package@$version" --silent >/dev/null 2>"$work/npm.log"); then
        unavailable "npm pack $package@$version failed (offline?): $(tail -n 3 "$work/npm.log" | tr '\n' ' ')"
    fi
    got=$(integrity_of "$work"/*.tgz)
    if [ "$got" != "$integrity" ]; then
        # Never a skip: a package that changed under a pinned version is an attack or a bug.
        echo "oracle_fetch: integrity mismatch for $package@$version: got $got, pinned $integrity" >&2
        exit 1
    fi
    mv "$work"/*.tgz "$tarball"
fi

# Unpack beside the final place, then move it in: a half-unpacked tree is never used.
rm -rf "$dir.unpack"
mkdir -p "$dir.unpack"
tar -xzf "$tarball" -C "$dir.unpack"
[ -r "$dir.unpack/package/bins/linux-x64/libggml-base.so" ] ||
    unavailable "the package has no package/bins/linux-x64/libggml-base.so"
echo "$package@$version $integrity $(stat -c %s "$tarball") bytes" >"$dir.unpack/.verified"
rm -rf "$dir"
mv "$dir.unpack" "$dir"
echo "$lib"
