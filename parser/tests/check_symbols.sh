#!/bin/sh
# Only gs_ symbols leave libggufsafe.so, and nothing in libggufsafe.a can clash with ggml
# (users link ggml beside us): every global defined symbol of the archive is gs_ or gsi_.
# usage: check_symbols.sh NM libggufsafe.a libggufsafe.so
set -eu
nm=$1 archive=$2 shared=$3
fail=0

exports=$("$nm" -D --defined-only "$shared" | awk '{print $3}')
[ -n "$exports" ] || { echo "no exported symbols in $shared"; exit 1; }
bad=$(printf '%s\n' "$exports" | grep -v '^gs_' || true)
if [ -n "$bad" ]; then
    echo "exported from $shared without the gs_ prefix:"; printf '  %s\n' $bad; fail=1
fi
for want in gs_open_file gs_open_memory gs_close gs_status_name gs_options_init gs_dequantize; do
    printf '%s\n' "$exports" | grep -qx "$want" || { echo "missing export: $want"; fail=1; }
done

# Sanitizer instrumentation defines a few globals of its own; they are not ours.
globals=$("$nm" -g --defined-only "$archive" | awk 'NF == 3 {print $3}' |
          grep -v -e '^__odr_asan' -e '^__asan' -e '^__ubsan' -e '^__sancov' -e '^__llvm' || true)
bad=$(printf '%s\n' "$globals" | grep -v -e '^gs_' -e '^gsi_' || true)
if [ -n "$bad" ]; then
    echo "global symbols of $archive outside gs_/gsi_:"; printf '  %s\n' $bad; fail=1
fi
for ggml in dequantize_row_q4_0 gguf_init_from_file gguf_find_key ggml_fp16_to_fp32 \
            ggml_type_size iq2xxs_grid kvalues_iq4nl; do
    if printf '%s\n' "$globals" "$exports" | grep -qx "$ggml"; then
        echo "clashes with ggml: $ggml"; fail=1
    fi
done
n_exports=$(printf '%s\n' "$exports" | wc -l)
n_globals=$(printf '%s\n' "$globals" | wc -l)
echo "$n_exports exported symbols, $n_globals archive globals, all prefixed"
exit $fail
