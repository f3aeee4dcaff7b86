#!/bin/sh
# libggufsafe_certify exports exactly its API: every dynamic symbol of the .so and every global of
# the .a is gs_certify_*, gs_manifest_*, gs_diff_* or gs_sink_* (the reader stays libggufsafe's,
# the engines' own functions and the helpers inside stay local), and the entry points are there.
# usage: check_certify_symbols.sh NM libggufsafe_certify.a libggufsafe_certify.so
set -eu
nm=$1 archive=$2 shared=$3
fail=0
api='^gs_(certify|manifest|diff|sink)_'
exports=$("$nm" -D --defined-only "$shared" | awk '{print $3}')
[ -n "$exports" ] || { echo "no exported symbols in $shared"; exit 1; }
bad=$(printf '%s\n' "$exports" | grep -Ev "$api" || true)
if [ -n "$bad" ]; then
    echo "exported from $shared outside the API:"; printf '  %s\n' $bad; fail=1
fi
globals=$("$nm" -g --defined-only "$archive" | awk 'NF == 3 {print $3}' |
          grep -v -e '^__odr_asan' -e '^__asan' -e '^__ubsan' -e '^__sancov' -e '^__llvm' || true)
bad=$(printf '%s\n' "$globals" | grep -Ev "$api" || true)
if [ -n "$bad" ]; then
    echo "global symbols of $archive outside the API:"; printf '  %s\n' $bad; fail=1
fi
for want in gs_certify_options_init gs_certify_path gs_certify_memory gs_certify_free \
            gs_certify_finding_at gs_certify_write_json gs_certify_write_sarif \
            gs_manifest_hash_path gs_manifest_parse gs_manifest_compare gs_manifest_write \
            gs_diff_open gs_diff_compare gs_diff_write_json gs_sink_init gs_sink_file; do
    for list in "$exports" "$globals"; do
        printf '%s\n' "$list" | grep -qx "$want" || { echo "missing: $want"; fail=1; }
    done
done
echo "$(printf '%s\n' "$exports" | wc -l) exported symbols, $(printf '%s\n' "$globals" | wc -l)" \
     "archive globals, all of the API"
exit $fail
