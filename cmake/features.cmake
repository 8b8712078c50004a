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
# The CUDA backend needs nvcc, cuDNN and NCCL (cuBLAS comes with the toolkit). It is built as a
# module that dlsize loads at run time, so the core never links a CUDA library.
set(DLSIZE_HAVE_CUDA 0)
if(NOT DLSIZE_WITH_CUDA STREQUAL "OFF")
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    # nvcc 13 builds sm_75 and newer only: A100, H100/H200 machine code, and PTX for later GPUs.
    set(CMAKE_CUDA_ARCHITECTURES "80-real;90-real;90-virtual")
  endif()
  include(CheckLanguage)
  check_language(CUDA)
  set(dlsize_cuda_missing "")
  if(CMAKE_CUDA_COMPILER)
    find_package(CUDAToolkit QUIET)
    if(NOT CUDAToolkit_FOUND)
      list(APPEND dlsize_cuda_missing "the CUDA toolkit libraries")
    else()
      set(dlsize_cuda_hints ${CUDAToolkit_LIBRARY_DIR} ${CUDAToolkit_LIBRARY_ROOT}/lib
                            ${CUDAToolkit_LIBRARY_ROOT}/lib64)
      find_path(DLSIZE_CUDNN_INCLUDE_DIR cudnn.h HINTS ${CUDAToolkit_INCLUDE_DIRS})
      find_library(DLSIZE_CUDNN_LIBRARY NAMES cudnn libcudnn.so.9 HINTS ${dlsize_cuda_hints})
      find_path(DLSIZE_NCCL_INCLUDE_DIR nccl.h HINTS ${CUDAToolkit_INCLUDE_DIRS})
      find_library(DLSIZE_NCCL_LIBRARY NAMES nccl libnccl.so.2 HINTS ${dlsize_cuda_hints})
      if(NOT DLSIZE_CUDNN_INCLUDE_DIR OR NOT DLSIZE_CUDNN_LIBRARY)
        list(APPEND dlsize_cuda_missing "cuDNN (cudnn.h, libcudnn)")
      endif()
      if(NOT DLSIZE_NCCL_INCLUDE_DIR OR NOT DLSIZE_NCCL_LIBRARY)
        list(APPEND dlsize_cuda_missing "NCCL (nccl.h, libnccl)")
      endif()
      if(NOT TARGET CUDA::cublas OR NOT TARGET CUDA::cudart_static)
        list(APPEND dlsize_cuda_missing "cuBLAS or the static CUDA runtime")
      endif()
    endif()
  else()
    list(APPEND dlsize_cuda_missing "a CUDA compiler (nvcc)")
  endif()
  if(dlsize_cuda_missing STREQUAL "")
    enable_language(CUDA)
    set(DLSIZE_HAVE_CUDA 1)
  else()
    string(JOIN ", " dlsize_cuda_missing_text ${dlsize_cuda_missing})
    if(DLSIZE_WITH_CUDA STREQUAL "ON")
      message(FATAL_ERROR "DLSIZE_WITH_CUDA=ON but ${dlsize_cuda_missing_text} not found; install "
                          "them or configure with -DDLSIZE_WITH_CUDA=AUTO (or OFF)")
    endif()
    message(STATUS "dlsize: CUDA backend off: ${dlsize_cuda_missing_text} not found")
  endif()
endif()
# S3: the object-store client (src/s3) on libcurl, Debian's libcurl4-openssl-dev: 7.75 is the
# first with CURLOPT_AWS_SIGV4, 7.85 the first with CURLOPT_PROTOCOLS_STR. The request builder is
# plain code and always built; the client only with libcurl. The GPU bundle builds without it
# (its device has no libcurl).
set(DLSIZE_HAVE_S3 0)
set(DLSIZE_CURL_VERSION "")
if(NOT DLSIZE_WITH_S3 STREQUAL "OFF")
  find_package(CURL 7.85 QUIET)
  if(CURL_FOUND AND TARGET CURL::libcurl)
    set(DLSIZE_HAVE_S3 1)
    set(DLSIZE_CURL_VERSION "${CURL_VERSION_STRING}")
  elseif(DLSIZE_WITH_S3 STREQUAL "ON")
    message(FATAL_ERROR "DLSIZE_WITH_S3=ON but libcurl 7.85 or newer was not found; install the "
                        "Debian package libcurl4-openssl-dev, or configure with -DDLSIZE_WITH_S3=OFF")
  endif()
endif()
message(STATUS "dlsize: MPI: ${DLSIZE_HAVE_MPI} ${DLSIZE_MPI_VERSION}; "
               "CUDA backend: ${DLSIZE_HAVE_CUDA}; S3 client: ${DLSIZE_HAVE_S3} ${DLSIZE_CURL_VERSION}")
