# `cmake --install BUILD [--prefix P]`: the runtime (static and shared) and the text front end
# (static) with their public headers, the CLI, the converter and the phonemizer packer, a CMake package (find_package(edgenmt) -> edgenmt::runtime), a
# pkg-config file (edgenmt.pc) and the Python module (python/edgenmt) under P's site directory.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set_target_properties(edgenmt_runtime PROPERTIES EXPORT_NAME runtime)
set_target_properties(edgenmt_runtime_shared PROPERTIES EXPORT_NAME runtime_shared)
install(TARGETS edgenmt_runtime edgenmt_runtime_shared EXPORT edgenmtTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/edgenmt
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
# The text front end (frontend/): its static library and public headers (phonemizer.h,
# phonemizer_c.h); libedgenmt.so already holds its objects.
set_target_properties(edgenmt_frontend PROPERTIES EXPORT_NAME frontend)
target_include_directories(edgenmt_frontend INTERFACE
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
install(TARGETS edgenmt_frontend EXPORT edgenmtTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/frontend/include/edgenmt
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
if(TARGET edgenmt)
  install(TARGETS edgenmt RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
foreach(tool edgenmt-convert edgenmt-phonemizer-pack)
  if(TARGET ${tool})
    install(TARGETS ${tool} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()
endforeach()

set(EDGENMT_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/edgenmt)
install(EXPORT edgenmtTargets NAMESPACE edgenmt:: DESTINATION ${EDGENMT_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/edgenmtConfig.cmake.in
  ${PROJECT_BINARY_DIR}/edgenmtConfig.cmake INSTALL_DESTINATION ${EDGENMT_CMAKE_DIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/edgenmtConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/edgenmtConfig.cmake ${PROJECT_BINARY_DIR}/edgenmtConfigVersion.cmake
  DESTINATION ${EDGENMT_CMAKE_DIR})

# pkg-config: the prefix is found from the .pc file's own place (${pcfiledir}), so the package
# stays correct whatever --prefix it is installed under.
file(RELATIVE_PATH EDGENMT_PC_TO_PREFIX /root/${CMAKE_INSTALL_LIBDIR}/pkgconfig /root)
configure_file(${PROJECT_SOURCE_DIR}/cmake/edgenmt.pc.in ${PROJECT_BINARY_DIR}/edgenmt.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/edgenmt.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
