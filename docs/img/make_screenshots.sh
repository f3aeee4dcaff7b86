#!/bin/sh
# Makes docs/img/diff-html.png, the README's screenshot of `ggufsafe diff --html`: the three-way
# page (REF F32, A Q8_0, B Q4_0) of the 12-layer model that gs_diff_html_inputs writes, rendered
# by headless Chromium (ci/install_deps.sh installs chromium and fonts-dejavu-core).
#
#   docs/img/make_screenshots.sh [BUILD_DIR]     (default build/gcc, built with the tests)
#
# The page's bytes are deterministic; the PNG depends on Chromium's version and fonts. Keep the
# result under 150 KB (the script checks).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-$root/build/gcc}
build=$(cd "$build" && pwd)
cli=$build/cli/ggufsafe
gen=$build/cli/tests/gs_diff_html_inputs
for f in "$cli" "$gen"; do
    [ -x "$f" ] || { echo "make_screenshots.sh: $f is missing: build with tests first" >&2; exit 2; }
done
chromium=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chromium" ] || { echo "make_screenshots.sh: no chromium (ci/install_deps.sh)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$gen" "$work" 12
# exit 1: the gate fails (Q4_0 is worse than Q8_0 everywhere), which the page shows
# (relative names, so that the page shows no temporary directory)
(cd "$work" && "$cli" diff ref.gguf q8_0.gguf q4_0.gguf --max-nmse-ratio 1 --html page.html \
    --output report.txt) || [ $? -eq 1 ]
# the header and the first two rows of charts
HOME=$work timeout 60 "$chromium" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
    --hide-scrollbars --force-device-scale-factor=1 --no-first-run \
    --user-data-dir="$work/profile" --screenshot="$work/shot.png" --window-size=1200,640 \
    "file://$work/page.html" >/dev/null 2>&1
cp "$work/shot.png" "$here/diff-html.png"
size=$(wc -c < "$here/diff-html.png")
echo "docs/img/diff-html.png: $size bytes"
[ "$size" -lt 153600 ] || { echo "make_screenshots.sh: the screenshot is over 150 KB" >&2; exit 1; }
