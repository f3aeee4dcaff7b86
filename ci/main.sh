#!/usr/bin/env bash
# The main job on the bundled sample: installs what is missing, builds the release CLI,
# reports on conformance/samples/ggml-written.gguf (a file written by ggml's own writer) and
# certifies it, every tensor block included (exit 0: certified).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
sh ci/install_deps.sh
cmake -S . -B build/main -G Ninja -DCMAKE_C_COMPILER=gcc -DCMAKE_BUILD_TYPE=Release \
      -DGGUFSAFE_BUILD_TESTS=OFF >/dev/null
cmake --build build/main --target ggufsafe_cli
sample=conformance/samples/ggml-written.gguf
echo "\$ ggufsafe info $sample"
build/main/cli/ggufsafe info "$sample"
echo
echo "\$ ggufsafe certify --deep $sample"
build/main/cli/ggufsafe certify --deep "$sample"
