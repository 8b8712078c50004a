// The GPU tests' main: they need a usable GPU; without one they are skipped (exit 77) with the
// reason the backend gives (no driver, no device, a missing library).
#define CATCH_CONFIG_RUNNER
#include <stdlib.h>

#include <cstdio>

#include <catch2/catch.hpp>

#include "accel/cuda_backend.hpp"

int main(int argc, char** argv) {
  ::setenv("DLSIZE_CUDA_MODULE", DLSIZE_CUDA_MODULE_PATH, 0);
  try {
    const auto p = dlsize::accel::cuda_backend::get().require_device(0);
    std::printf("GPU tests on %s (driver CUDA %d, %s)\n", p.devices[0].name, p.driver_version,
                dlsize::accel::cuda_backend::get().api().build);
  } catch (const std::exception& e) {
    std::printf("skipped: no usable GPU: %s\n", e.what());
    return 77;
  }
  return Catch::Session().run(argc, argv);
}
