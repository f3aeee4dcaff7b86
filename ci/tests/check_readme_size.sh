#!/bin/sh
# The README stays a front page (issue #13: under 16 KB): what ggufsafe is, the two commands, a
# short tour and links. Anything longer belongs in docs/, one page per area.
# usage: check_readme_size.sh SOURCE_DIR
set -eu
limit=16384
size=$(wc -c < "$1/README.md")
if [ "$size" -ge "$limit" ]; then
    echo "README.md is $size bytes, at or over $limit: move the detail to a page in docs/"
    exit 1
fi
echo "README.md: $size bytes (limit $limit)"
