# DLSIZE_PORTABLE (CMakeLists.txt): the libraries dlsize links, and how, for a build that must
# start on a machine that has none of this one's packages. Sets DLSIZE_URING_TARGET and
# DLSIZE_FMT_TARGET for dlsize_lib.
set(DLSIZE_URING_TARGET PkgConfig::LIBURING)
set(DLSIZE_FMT_TARGET fmt::fmt)
if(DLSIZE_PORTABLE)
  find_library(DLSIZE_LIBURING_STATIC NAMES liburing.a HINTS ${LIBURING_LIBRARY_DIRS})
  if(NOT DLSIZE_LIBURING_STATIC)
    message(FATAL_ERROR "DLSIZE_PORTABLE=ON needs the static liburing (liburing.a, Debian's "
                        "liburing-dev ships it)")
  endif()
  add_library(dlsize_uring_static INTERFACE)
  target_include_directories(dlsize_uring_static INTERFACE ${LIBURING_INCLUDE_DIRS})
  target_link_libraries(dlsize_uring_static INTERFACE ${DLSIZE_LIBURING_STATIC})
  set(DLSIZE_URING_TARGET dlsize_uring_static)
  # Debian ships no static fmt; the header-only form needs no library at all.
  set(DLSIZE_FMT_TARGET fmt::fmt-header-only)
  add_link_options(-static-libstdc++ -static-libgcc -Wl,--as-needed)
  # Binaries and the module find what they need next to themselves or on LD_LIBRARY_PATH
  # (the GPU check puts the CUDA libraries of the toolkit or the Python wheels there), never in
  # the folders of the machine that built them.
  set(CMAKE_BUILD_WITH_INSTALL_RPATH ON)
  set(CMAKE_INSTALL_RPATH "$ORIGIN")
  set(CMAKE_INSTALL_RPATH_USE_LINK_PATH OFF)
  message(STATUS "dlsize: portable: static libstdc++, libgcc and liburing, header-only fmt, "
                 "RUNPATH $ORIGIN")
endif()
