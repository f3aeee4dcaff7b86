#!/bin/sh
# Installs the build into a scratch prefix, then builds and runs a consumer project against it
# with find_package(ggufsafe) (shared and static) and with pkg-config. A build with the tools
# installs libggufsafe_certify too: a program then certifies SAMPLE through ggufsafe::certify,
# ggufsafe::certify_static and pkg-config's ggufsafe-certify.
# usage: consumer_test.sh BUILD_DIR SOURCE_DIR C_COMPILER "C_FLAGS" SAMPLE
set -eu
build=$1 src=$2 cc=$3 cflags=$4 sample=$5
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
test -f "$work/prefix/include/ggufsafe.h"
test -f "$work/prefix/lib/pkgconfig/ggufsafe.pc" || test -f "$work/prefix/lib64/pkgconfig/ggufsafe.pc"
cmake -S "$src/parser/tests/consumer" -B "$work/build" -G Ninja -DCMAKE_C_COMPILER="$cc" \
      -DCMAKE_C_FLAGS="$cflags" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/build" >/dev/null
want="32 33"
got=$("$work/build/consumer_shared" "$sample")
[ "$got" = "$want" ] || { echo "consumer_shared printed '$got', want '$want'"; exit 1; }
got=$("$work/build/consumer_static" "$sample")
[ "$got" = "$want" ] || { echo "consumer_static printed '$got', want '$want'"; exit 1; }
# The shared library carries a SONAME.
lib=$(ls "$work"/prefix/lib*/libggufsafe.so.*.*.* | head -n 1)
readelf -d "$lib" | grep -q 'SONAME.*libggufsafe\.so\.0' || { echo "no SONAME on $lib"; exit 1; }
# pkg-config
pcdir=$(dirname "$(ls "$work"/prefix/lib*/pkgconfig/ggufsafe.pc)")
flags=$(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags --libs ggufsafe)
# shellcheck disable=SC2086
"$cc" $cflags "$src/parser/tests/consumer/main.c" $flags -o "$work/consumer_pc"
got=$(LD_LIBRARY_PATH=$(dirname "$lib") "$work/consumer_pc" "$sample")
[ "$got" = "$want" ] || { echo "pkg-config consumer printed '$got'"; exit 1; }
echo "find_package (shared, static) and pkg-config consumers: OK"

# The certification library, when this build has it.
[ -f "$work/prefix/include/ggufsafe_certify.h" ] || { echo "no certification library: skipped"; exit 0; }
for h in ggufsafe_sink.h ggufsafe_manifest.h ggufsafe_diff.h; do
    test -f "$work/prefix/include/$h" || { echo "not installed: $h"; exit 1; }
done
want="certified 0 0 3 3"
for t in certify_shared certify_static; do
    test -x "$work/build/$t" || { echo "$t was not built: no ggufsafe::certify target?"; exit 1; }
    got=$("$work/build/$t" "$sample")
    [ "$got" = "$want" ] || { echo "$t printed '$got', want '$want'"; exit 1; }
done
clib=$(ls "$work"/prefix/lib*/libggufsafe_certify.so.*.*.* | head -n 1)
readelf -d "$clib" | grep -q 'SONAME.*libggufsafe_certify\.so\.0' ||
    { echo "no SONAME on $clib"; exit 1; }
flags=$(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags --libs ggufsafe-certify)
# shellcheck disable=SC2086
"$cc" $cflags "$src/parser/tests/consumer/certify.c" $flags -o "$work/certify_pc"
got=$(LD_LIBRARY_PATH=$(dirname "$clib") "$work/certify_pc" "$sample")
[ "$got" = "$want" ] || { echo "pkg-config certify consumer printed '$got'"; exit 1; }
echo "certification through ggufsafe::certify, ggufsafe::certify_static and pkg-config: OK"
