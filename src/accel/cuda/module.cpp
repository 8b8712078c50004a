// The module's C entry points (src/accel/cuda_abi.h): each one catches every failure and
// returns it as a dlsize_cuda_status, so nothing throws across the dlopen boundary.
#include <dlfcn.h>

#include <cstdio>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "accel/cuda/check.hpp"
#include "accel/cuda/trainer.hpp"

struct dlsize_cuda_trainer {
  dlsize::cuda::trainer t;
  dlsize_cuda_trainer(const dlsize_cuda_model& m, const dlsize_cuda_trainer_options& o) : t(m, o) {}
};

namespace {

using dlsize::cuda::cuda_failure;

// "CUDA 13.0, cuDNN 9.19.0, cuBLAS 13.1.0, NCCL 2.28.9, archs 80-real 90-real 90-virtual"
const char* build_text() {
  static const std::string text =
      "CUDA " + std::to_string(CUDART_VERSION / 1000) + "." +
      std::to_string(CUDART_VERSION % 1000 / 10) + ", cuDNN " + std::to_string(CUDNN_MAJOR) + "." +
      std::to_string(CUDNN_MINOR) + "." + std::to_string(CUDNN_PATCHLEVEL) + ", cuBLAS " +
      std::to_string(CUBLAS_VER_MAJOR) + "." + std::to_string(CUBLAS_VER_MINOR) + "." +
      std::to_string(CUBLAS_VER_PATCH) + ", NCCL " + std::to_string(NCCL_MAJOR) + "." +
      std::to_string(NCCL_MINOR) + "." + std::to_string(NCCL_PATCH) + ", archs " +
      DLSIZE_CUDA_ARCHS;
  return text.c_str();
}

void set(dlsize_cuda_status* st, int32_t code, const std::string& msg) {
  if (!st)
    return;
  st->code = code;
  std::snprintf(st->message, sizeof st->message, "%s", msg.c_str());
}

template <typename F> int32_t guarded(dlsize_cuda_status* st, F&& f) {
  try {
    f();
    set(st, DLSIZE_CUDA_OK, "");
    return DLSIZE_CUDA_OK;
  } catch (const cuda_failure& e) {
    set(st, e.code(), e.what());
    return e.code();
  } catch (const std::bad_alloc&) {
    set(st, DLSIZE_CUDA_OUT_OF_MEMORY, "host memory exhausted");
    return DLSIZE_CUDA_OUT_OF_MEMORY;
  } catch (const std::exception& e) {
    set(st, DLSIZE_CUDA_FAILED, e.what());
    return DLSIZE_CUDA_FAILED;
  } catch (...) {
    set(st, DLSIZE_CUDA_FAILED, "an unknown exception in the CUDA backend");
    return DLSIZE_CUDA_FAILED;
  }
}

dlsize::cuda::trainer& use(dlsize_cuda_trainer* t) {
  if (t == nullptr)
    dlsize::cuda::throw_bad("no trainer (null)");
  t->t.make_current();
  return t->t;
}

// Copies the model's count values into out; throws, out untouched, when it has another count.
void copy_values(const std::vector<float>& v, float* out, uint64_t count) {
  if (v.size() != count)
    dlsize::cuda::throw_bad(std::to_string(count) + " values asked, the model has " +
                            std::to_string(v.size()));
  std::memcpy(out, v.data(), count * sizeof(float));
}

// What the driver lacks, in words: not there at all, or too old for this module's runtime.
std::string driver_problem() {
  int drv = 0;
  cudaDriverGetVersion(&drv);
  void* lib = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (lib == nullptr)
    return "no NVIDIA driver: libcuda.so.1 was not found (cudaGetDeviceCount: "
           "cudaErrorInsufficientDriver)";
  dlclose(lib);
  return "the NVIDIA driver supports CUDA " + std::to_string(drv / 1000) + "." +
         std::to_string(drv % 1000 / 10) + ", this module needs CUDA " +
         std::to_string(CUDART_VERSION / 1000) + "." + std::to_string(CUDART_VERSION % 1000 / 10) +
         " or newer; update the driver";
}

int32_t probe(dlsize_cuda_probe_result* out, dlsize_cuda_status* st) {
  return guarded(st, [&] {
    *out = {};
    cudaRuntimeGetVersion(&out->runtime_version);
    cudaDriverGetVersion(&out->driver_version);
    out->cudnn_version = cudnnGetVersion();
    int major = 0, minor = 0, patch = 0;
    cublasGetProperty(MAJOR_VERSION, &major);
    cublasGetProperty(MINOR_VERSION, &minor);
    cublasGetProperty(PATCH_LEVEL, &patch);
    out->cublas_version = major * 10000 + minor * 100 + patch;
    ncclGetVersion(&out->nccl_version);
    int count = 0;
    const cudaError_t rc = cudaGetDeviceCount(&count);
    if (rc == cudaErrorInsufficientDriver) {
      cudaGetLastError();
      throw cuda_failure(DLSIZE_CUDA_NO_DRIVER, driver_problem());
    }
    if (rc == cudaErrorNoDevice) {
      cudaGetLastError();
      throw cuda_failure(DLSIZE_CUDA_NO_DEVICE,
                         "the NVIDIA driver sees no GPU (cudaErrorNoDevice; is "
                         "CUDA_VISIBLE_DEVICES empty?)");
    }
    DLSIZE_CUDA_CHECK(rc);
    out->device_count = count;
    for (int i = 0; i < count && i < DLSIZE_CUDA_MAX_DEVICES; ++i) {
      cudaDeviceProp p{};
      DLSIZE_CUDA_CHECK(cudaGetDeviceProperties(&p, i));
      auto& d = out->devices[i];
      std::snprintf(d.name, sizeof d.name, "%s", p.name);
      DLSIZE_CUDA_CHECK(cudaDeviceGetPCIBusId(d.pci_bus_id, sizeof d.pci_bus_id, i));
      d.memory_bytes = p.totalGlobalMem;
      d.cc_major = p.major;
      d.cc_minor = p.minor;
      d.multiprocessors = p.multiProcessorCount;
    }
  });
}

int32_t create(const dlsize_cuda_model* m, const dlsize_cuda_trainer_options* o,
               dlsize_cuda_trainer** out, dlsize_cuda_status* st) {
  return guarded(st, [&] {
    if (!m || !o || !out)
      dlsize::cuda::throw_bad("create: null argument");
    *out = nullptr;
    dlsize_cuda_probe_result p{};
    dlsize_cuda_status probe_st{};
    if (const int32_t rc = probe(&p, &probe_st); rc != DLSIZE_CUDA_OK)
      throw cuda_failure(rc, probe_st.message);
    *out = new dlsize_cuda_trainer(*m, *o);
  });
}

void destroy(dlsize_cuda_trainer* t) {
  if (!t)
    return;
  cudaSetDevice(t->t.info_device());
  delete t;
}

int32_t info(dlsize_cuda_trainer* t, dlsize_cuda_trainer_info* out, dlsize_cuda_status* st) {
  return guarded(st, [&] { use(t).info(*out); });
}

int32_t acquire_slot(dlsize_cuda_trainer* t, uint32_t slot, dlsize_cuda_status* st) {
  return guarded(st, [&] { use(t).input().acquire(slot); });
}

int32_t stage_sample(dlsize_cuda_trainer* t, uint32_t slot, uint32_t index, uint64_t offset,
                     const void* bytes, uint64_t length, uint64_t sample_length,
                     dlsize_cuda_status* st) {
  return guarded(st, [&] {
    if (!t)
      dlsize::cuda::throw_bad("no trainer (null)");
    t->t.input().stage(slot, index, offset, bytes, length, sample_length);
  });
}

int32_t submit_slot(dlsize_cuda_trainer* t, uint32_t slot, uint32_t samples,
                    dlsize_cuda_status* st) {
  return guarded(st, [&] { use(t).input().submit(slot, samples); });
}

int32_t fill_synthetic(dlsize_cuda_trainer* t, uint32_t slot, uint64_t seed,
                       dlsize_cuda_status* st) {
  return guarded(st, [&] { use(t).fill_synthetic(slot, seed); });
}

int32_t step(dlsize_cuda_trainer* t, uint32_t slot, int32_t flags, dlsize_cuda_step_result* out,
             dlsize_cuda_status* st) {
  return guarded(st, [&] {
    use(t).step(slot, (flags & DLSIZE_CUDA_STEP_UPDATE) != 0,
                (flags & DLSIZE_CUDA_STEP_TIME_OPS) != 0, *out);
  });
}

int32_t nccl_unique_id(uint8_t id[DLSIZE_CUDA_NCCL_ID_BYTES], dlsize_cuda_status* st) {
  return guarded(st, [&] {
    ncclUniqueId uid;
    DLSIZE_NCCL_CHECK(ncclGetUniqueId(&uid));
    std::memcpy(id, uid.internal, DLSIZE_CUDA_NCCL_ID_BYTES);
  });
}

int32_t nccl_init(dlsize_cuda_trainer* t, int32_t rank, int32_t nranks,
                  const uint8_t id[DLSIZE_CUDA_NCCL_ID_BYTES], dlsize_cuda_status* st) {
  return guarded(st, [&] { use(t).join(rank, nranks, id); });
}

int32_t read_params(dlsize_cuda_trainer* t, float* out, uint64_t count, dlsize_cuda_status* st) {
  return guarded(st, [&] { copy_values(use(t).read_params(), out, count); });
}

int32_t write_params(dlsize_cuda_trainer* t, const float* in, uint64_t count,
                     dlsize_cuda_status* st) {
  return guarded(st, [&] { use(t).write_params(std::vector<float>(in, in + count)); });
}

int32_t read_grads(dlsize_cuda_trainer* t, float* out, uint64_t count, dlsize_cuda_status* st) {
  return guarded(st, [&] { copy_values(use(t).read_grads(), out, count); });
}

} // namespace

extern "C" __attribute__((visibility("default"))) const dlsize_cuda_api* dlsize_cuda_module() {
  static const dlsize_cuda_api api = DLSIZE_CUDA_API_TABLE(build_text());
  return &api;
}
