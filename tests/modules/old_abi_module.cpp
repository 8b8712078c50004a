// A module of another ABI version: dlsize must refuse it rather than call into it.
#include "accel/cuda_abi.h"

extern "C" __attribute__((visibility("default"))) const dlsize_cuda_api* dlsize_cuda_module() {
  static dlsize_cuda_api api{};
  api.abi_version = 999;
  api.struct_size = sizeof api;
  api.build = "an old build";
  return &api;
}
