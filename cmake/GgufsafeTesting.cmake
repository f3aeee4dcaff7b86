# The test suite's helpers: Criterion (found or not) and gs_add_criterion_test().
# Without Criterion the Criterion tests are left out with a message and the plain-C tests still
# build; ci/test.sh sets GGUFSAFE_REQUIRE_CRITERION so that CI can never skip them silently.
set(GS_HAVE_CRITERION OFF)
if(NOT CMAKE_CROSSCOMPILING)
  find_path(CRITERION_INCLUDE_DIR criterion/criterion.h)
  find_library(CRITERION_LIBRARY criterion)
  if(CRITERION_INCLUDE_DIR AND CRITERION_LIBRARY)
    set(GS_HAVE_CRITERION ON)
  elseif(GGUFSAFE_REQUIRE_CRITERION)
    message(FATAL_ERROR "Criterion not found: run ci/install_deps.sh (apt-get install libcriterion-dev)")
  else()
    message(STATUS "Criterion not found: the Criterion unit tests are not built "
                   "(apt-get install libcriterion-dev); the plain-C tests are")
  endif()
endif()

# gs_add_criterion_test(NAME SOURCES ... [LIBS ...] [ENV ...] [JOBS N]): a no-op without Criterion
# and in cross builds (the qemu runs use the plain-C programs). JOBS: Criterion's workers (2).
function(gs_add_criterion_test name)
  cmake_parse_arguments(T "" "JOBS" "SOURCES;LIBS;ENV" ${ARGN})
  if(NOT GS_HAVE_CRITERION)
    return()
  endif()
  add_executable(${name} ${T_SOURCES})
  # Criterion's assertion macros compare mixed-sign operands and use GNU extensions.
  target_compile_options(${name} PRIVATE ${GS_WARNINGS} -Wno-sign-conversion -Wno-conversion
                         -Wno-missing-prototypes)
  target_include_directories(${name} PRIVATE ${CRITERION_INCLUDE_DIR})
  target_link_libraries(${name} PRIVATE ${T_LIBS} ${CRITERION_LIBRARY})
  if(NOT T_JOBS)
    set(T_JOBS 2)
  endif()
  add_test(NAME ${name} COMMAND ${name} --jobs ${T_JOBS})
  set_tests_properties(${name} PROPERTIES FAIL_REGULAR_EXPRESSION "${GS_TEST_FAIL_REGEX}"
                       ENVIRONMENT "GS_SOURCE_DIR=${PROJECT_SOURCE_DIR};GS_BINARY_DIR=${PROJECT_BINARY_DIR};${T_ENV}")
endfunction()
