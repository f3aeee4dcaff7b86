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

# binfmt is not registered on the build hosts, so ctest names qemu explicitly.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64;-L;/usr/aarch64-linux-gnu)
