# Compiler flags for every target in the tree, and gs_strict(), our warning set.

# Numerics: the decoders must reproduce ggml bit for bit, so no contraction and no fast-math,
# for every target in the tree.
add_compile_options(-ffp-contract=off -fno-fast-math)

set(GS_SANITIZE_FLAGS "")
if(GGUFSAFE_SANITIZE)
  set(GS_SANITIZE_FLAGS "-fsanitize=${GGUFSAFE_SANITIZE} -fno-sanitize-recover=all")
  add_compile_options(-fsanitize=${GGUFSAFE_SANITIZE} -fno-sanitize-recover=all
                      -fno-omit-frame-pointer -g)
  add_link_options(-fsanitize=${GGUFSAFE_SANITIZE} -fno-sanitize-recover=all)
elseif(CMAKE_BUILD_TYPE STREQUAL "Release" OR CMAKE_BUILD_TYPE STREQUAL "RelWithDebInfo")
  # Hardened release: fortify, stack protector, stack-clash protection, CET, PIE, full RELRO.
  add_compile_options(-U_FORTIFY_SOURCE -D_FORTIFY_SOURCE=3 -fstack-protector-strong
                      -fstack-clash-protection)
  if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64")
    add_compile_options(-fcf-protection=full)
  endif()
  add_link_options(-Wl,-z,relro,-z,now,-z,noexecstack)
endif()

if(GGUFSAFE_COVERAGE)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "GGUFSAFE_COVERAGE needs clang")
  endif()
  add_compile_options(-fprofile-instr-generate -fcoverage-mapping)
  add_link_options(-fprofile-instr-generate)
endif()

# Our warning set, for gcc and clang alike. Errors only with GGUFSAFE_WERROR (CI): a newer
# compiler's new warning must not break a distribution's build of a release.
set(GS_WARNINGS -Wall -Wextra -Wshadow -Wconversion -Wsign-conversion -Wformat=2 -Wvla
    -Wstrict-prototypes -Wmissing-prototypes -Wcast-qual -Wpointer-arith -Wundef
    -Wswitch-enum -Wimplicit-fallthrough -Wnull-dereference)
if(GGUFSAFE_WERROR)
  list(APPEND GS_WARNINGS -Werror)
endif()
function(gs_strict target)
  target_compile_options(${target} PRIVATE ${GS_WARNINGS})
endfunction()

# A test fails on any sanitizer report, whatever its exit status.
set(GS_TEST_FAIL_REGEX "Sanitizer;runtime error")

# gs_no_undefined(target): a shared library must resolve every symbol it uses at link time (a
# dangling reference would otherwise surface only in a consumer). Not with sanitizers: their
# runtime symbols come from the executable.
function(gs_no_undefined target)
  if(NOT GGUFSAFE_SANITIZE AND NOT GGUFSAFE_COVERAGE)
    target_link_options(${target} PRIVATE -Wl,--no-undefined)
  endif()
endfunction()
