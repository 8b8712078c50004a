// A module that needs a library the loader cannot find: dlsize must name that library.
#include "accel/cuda_abi.h"

extern "C" int dlsize_test_dep_value();

extern "C" __attribute__((visibility("default"))) const dlsize_cuda_api* dlsize_cuda_module() {
  return dlsize_test_dep_value() == 7 ? nullptr : nullptr;
}
