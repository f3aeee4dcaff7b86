# Cross toolchain for AArch64 Linux: gcc-aarch64-linux-gnu with the Debian sysroot, tests run
# through qemu-user. Use: cmake -DCMAKE_TOOLCHAIN_FILE=ci/aarch64.cmake ...
# The qemu CPU model is chosen when the tests run, by QEMU_CPU in the environment
# (e.g. QEMU_CPU=cortex-a53 ctest ...); qemu's default is "max". See ci/qemu_aarch64.sh.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)

# Headers and libraries only from the target sysroot; build tools from the host.
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# OpenSSL's libcrypto for arm64 is not in the sysroot: it is Debian's multiarch libssl-dev:arm64
# (ci/install_deps.sh), whose library is /usr/lib/aarch64-linux-gnu/libcrypto.so, whose arm64
# configuration headers are /usr/include/aarch64-linux-gnu/openssl/ and whose other headers are
# /usr/include/openssl/, the same for every architecture. find_package(OpenSSL) gets the two
# arm64 paths as given; /usr/include is searched after the sysroot's own headers (-idirafter,
# with which gcc also searches /usr/include/aarch64-linux-gnu), so libc's headers stay the
# sysroot's and only what the sysroot lacks, openssl/, comes from there.
set(CMAKE_C_FLAGS_INIT "-idirafter /usr/include")
set(OPENSSL_INCLUDE_DIR /usr/include/aarch64-linux-gnu CACHE PATH "arm64 OpenSSL headers")
set(OPENSSL_CRYPTO_LIBRARY /usr/lib/aarch64-linux-gnu/libcrypto.so CACHE FILEPATH "")
set(OPENSSL_SSL_LIBRARY /usr/lib/aarch64-linux-gnu/libssl.so CACHE FILEPATH "")

# binfmt is not registered on the build hosts, so ctest names qemu explicitly. The guest runs on
# Debian's arm64 multiarch runtime at / (libc6:arm64 and libssl3:arm64, which libssl-dev:arm64
# brings): -L / makes its loader /lib/ld-linux-aarch64.so.1, which finds libc.so.6 and
# libcrypto.so.3 in /usr/lib/aarch64-linux-gnu, one glibc build for loader and libc. (Under
# -L /usr/aarch64-linux-gnu the sysroot's loader would search that directory as well and load
# its libc.so.6 instead of the sysroot's: two glibc builds in one process.) The sysroot is only
# for compiling and linking.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64;-L;/)
