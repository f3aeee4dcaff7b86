#!/bin/sh
# The top-level entries of the repository are exactly the allowed ones (docs/architecture.md):
# the folders the design fixed, the three the architecture added, and the project's documents.
# Reads what git tracks (a build tree or scratch files do not count); outside a checkout, what
# is on disk minus build/.
# usage: check_top_level.sh SOURCE_DIR
set -eu
cd "$1"
allowed=".ci .clusterfuzzlite .gitignore CHANGELOG.md CMakeLists.txt CONTRIBUTING.md LICENSE
README.md SECURITY.md THIRD_PARTY.md ci cli cmake conformance corpus docs fuzz include kernels
parser python"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    entries=$(git ls-files | sed 's|/.*||' | sort -u)
else
    entries=$(ls -A | grep -v '^build$' | grep -v '^\.git$' | sort)
fi
bad=0
for e in $entries; do
    case " $(echo $allowed) " in
        *" $e "*) ;;
        *) echo "top-level entry not allowed by docs/architecture.md: $e"; bad=1 ;;
    esac
done
[ "$bad" -eq 0 ] && echo "top-level entries: OK ($(echo $entries | wc -w) entries)"
exit "$bad"
