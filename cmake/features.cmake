# Optional parts: AUTO turns a part on when its dependencies are found, ON insists, OFF skips.
# Configure prints which are in, and `dlsize --version` lists them.

# MPI: MPICH, found through its own pkg-config file (mpich.pc), so that the build does not
# depend on which MPI's wrappers are the default `mpicxx`/`mpirun` on this machine. Tests launch
# with MPICH's own `mpiexec.mpich`.
set(DLSIZE_HAVE_MPI 0)
set(DLSIZE_MPI_VERSION "")
if(NOT DLSIZE_WITH_MPI STREQUAL "OFF")
  pkg_check_modules(MPICH QUIET IMPORTED_TARGET mpich)
  find_program(DLSIZE_MPIEXEC NAMES mpiexec.mpich mpiexec.hydra)
  if(MPICH_FOUND AND DLSIZE_MPIEXEC)
    set(DLSIZE_HAVE_MPI 1)
    set(DLSIZE_MPI_VERSION "MPICH ${MPICH_VERSION}")
  elseif(DLSIZE_WITH_MPI STREQUAL "ON")
    message(FATAL_ERROR "DLSIZE_WITH_MPI=ON but MPICH was not found (mpich.pc and mpiexec.mpich); "
                        "install the Debian packages mpich and libmpich-dev, or configure with "
                        "-DDLSIZE_WITH_MPI=OFF")
  endif()
endif()

set(DLSIZE_HAVE_CUDA 0)
if(NOT DLSIZE_WITH_CUDA STREQUAL "OFF")
  include(CheckLanguage)
  check_language(CUDA)
  if(NOT CMAKE_CUDA_COMPILER AND DLSIZE_WITH_CUDA STREQUAL "ON")
    message(FATAL_ERROR "DLSIZE_WITH_CUDA=ON but no CUDA compiler was found")
  endif()
endif()
message(STATUS "dlsize: MPI: ${DLSIZE_HAVE_MPI} ${DLSIZE_MPI_VERSION}; CUDA backend: ${DLSIZE_HAVE_CUDA}")
