#!/bin/bash -eu
# ClusterFuzzLite runs $SRC/build.sh in the image of .clusterfuzzlite/Dockerfile: the same
# build as OSS-Fuzz's.
exec "$SRC/ggufsafe/fuzz/build.sh"
