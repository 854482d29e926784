# Installs the library, headers, a CMake package (find_package(weft) -> weft::weft) and a
# pkg-config file (pkg-config --cflags --libs weft).
include(CMakePackageConfigHelpers)

install(TARGETS weft EXPORT weftTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY include/weft DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT weftTargets NAMESPACE weft:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/weft)

configure_package_config_file(cmake/weftConfig.cmake.in
  ${PROJECT_BINARY_DIR}/weftConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/weft)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/weftConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/weftConfig.cmake ${PROJECT_BINARY_DIR}/weftConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/weft)

configure_file(cmake/weft.pc.in ${PROJECT_BINARY_DIR}/weft.pc @ONLY)
# `cmake --install --prefix DIR` picks the prefix after configure time (and an installed tree
# may be moved), so the installed weft.pc finds its prefix relative to its own directory
# (${pcfiledir}), as the CMake package does; the prefix configured above could be stale.
file(RELATIVE_PATH weft_pc_up "/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/")  # "../../"
string(REGEX REPLACE "/$" "" weft_pc_up "${weft_pc_up}")
file(READ ${PROJECT_BINARY_DIR}/weft.pc weft_pc_text)
string(REGEX REPLACE "^prefix=[^\n]*" "prefix=\${pcfiledir}/${weft_pc_up}" weft_pc_text
       "${weft_pc_text}")
file(WRITE ${PROJECT_BINARY_DIR}/weft.pc "${weft_pc_text}")
install(FILES ${PROJECT_BINARY_DIR}/weft.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
