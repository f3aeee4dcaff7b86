#!/bin/sh
# Installs, with apt-get, every package ggufsafe's build and test suite need, skipping those
# already present. Debian 12. Run as root (or with sudo available). The aarch64 stage
# (ci/qemu_aarch64.sh) links against Debian's arm64 OpenSSL and runs on its arm64 runtime:
# packages named <name>:arm64 come from the multiarch archive, so the arm64 architecture is
# added to dpkg first (once; dpkg --add-architecture is idempotent, the check avoids a needless
# apt-get update).
set -eu

PACKAGES="build-essential cmake ninja-build pkg-config git ca-certificates xz-utils
clang-14 llvm-14 libclang-rt-14-dev lld-14
libcriterion-dev libssl-dev
afl++
gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user
libssl-dev:arm64 libssl3:arm64 libc6:arm64
python3 python3-jsonschema
python3-venv python3-pip python3-setuptools python3-wheel python3-cffi python3-numpy python3-pytest mypy
binutils file zip unzip
abigail-tools
groff-base man-db zsh
chromium fonts-dejavu-core"

# groff-base and man-db check the generated man pages (groff -ww, man --warnings), zsh the zsh
# completion (zsh -n): test_cli_generate. chromium and fonts-dejavu-core render diff's HTML page
# headless (test_diff_html_render) and make the README's screenshot (docs/img/make_screenshots.sh).
# npm fetches ggml's package for the oracle and the node readers of the conformance matrix:
# Debian's nodejs and npm, unless a Node.js with npm is already installed (NodeSource's, say).
command -v npm >/dev/null 2>&1 || PACKAGES="$PACKAGES nodejs npm"

missing=""
for p in $PACKAGES; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
[ -z "$missing" ] && exit 0

echo "ci/install_deps.sh: installing:$missing"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "need root (or sudo) to install:$missing" >&2; exit 1; }
    SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    $SUDO dpkg --add-architecture arm64
fi
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
