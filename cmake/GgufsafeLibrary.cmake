# libggufsafe: the kernels/ and parser/ objects as one static and one shared library, both named
# ggufsafe, and their installation (header, pkg-config file, CMake package ggufsafe::ggufsafe and
# ggufsafe::static).
find_package(Threads REQUIRED)
set(GS_LIB_OBJECTS $<TARGET_OBJECTS:ggufsafe_kernels> $<TARGET_OBJECTS:ggufsafe_parser>)
add_library(ggufsafe_static STATIC ${GS_LIB_OBJECTS})
add_library(ggufsafe_shared SHARED ${GS_LIB_OBJECTS})
foreach(t ggufsafe_static ggufsafe_shared)
  set_target_properties(${t} PROPERTIES OUTPUT_NAME ggufsafe)
  target_include_directories(${t} PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
                             $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  # dlopen (decoder plugins, the ggml path) and the plugin host's lock (parser/plugin.c)
  target_link_libraries(${t} PRIVATE m ${CMAKE_DL_LIBS} Threads::Threads)
endforeach()
set_target_properties(ggufsafe_shared PROPERTIES VERSION ${PROJECT_VERSION}
                      SOVERSION ${PROJECT_VERSION_MAJOR} EXPORT_NAME ggufsafe)
set_target_properties(ggufsafe_static PROPERTIES EXPORT_NAME static)
# Export exactly the gs_ API from the shared library.
set(GS_EXPORT_MAP ${PROJECT_SOURCE_DIR}/cmake/libggufsafe.map)
target_link_options(ggufsafe_shared PRIVATE -Wl,--version-script=${GS_EXPORT_MAP})
set_property(TARGET ggufsafe_shared APPEND PROPERTY LINK_DEPENDS ${GS_EXPORT_MAP})
gs_no_undefined(ggufsafe_shared)

# In-tree users (the command, tests, tools) that also reach the named internal helpers
# (docs/architecture.md lists them): the library plus the module include directories.
add_library(ggufsafe_internal INTERFACE)
target_include_directories(ggufsafe_internal INTERFACE ${PROJECT_SOURCE_DIR}/include
                           ${PROJECT_SOURCE_DIR}/parser ${PROJECT_SOURCE_DIR}/kernels)
target_link_libraries(ggufsafe_internal INTERFACE ggufsafe_static)

install(TARGETS ggufsafe_static ggufsafe_shared EXPORT ggufsafeTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${PROJECT_SOURCE_DIR}/include/ggufsafe.h ${PROJECT_SOURCE_DIR}/include/ggufsafe_plugin.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# Relocatable: the prefix is found relative to the .pc file itself.
file(RELATIVE_PATH GS_PC_PREFIX_REL "${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig"
     "${CMAKE_INSTALL_PREFIX}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/ggufsafe.pc.in ${PROJECT_BINARY_DIR}/ggufsafe.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/ggufsafe.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
install(EXPORT ggufsafeTargets NAMESPACE ggufsafe::
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ggufsafe)
include(CMakePackageConfigHelpers)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/ggufsafeConfig.cmake.in
  ${PROJECT_BINARY_DIR}/ggufsafeConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ggufsafe)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/ggufsafeConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/ggufsafeConfig.cmake
        ${PROJECT_BINARY_DIR}/ggufsafeConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ggufsafe)
