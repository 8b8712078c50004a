// A CPU stand-in for dlsize-cuda.so: one fake GPU whose steps take a fixed busy time and whose
// loss falls. It checks what the core hands it (the model's shapes and counts, the options, the
// order of slot calls) and fails like the real module would, so the core side of the backend
// is tested on machines without a GPU. DLSIZE_FAKE_CUDA=nodriver or =nodevice makes the probe
// fail as a driverless or deviceless machine would; DLSIZE_FAKE_BUSY_MS sets the step time and
// DLSIZE_FAKE_DEVICES the number of GPUs (1). DLSIZE_FAKE_CUDA=peer_hang makes a joined rank's
// step wait for a peer that never comes, as a rank whose peer died would: it gives up after
// DLSIZE_NCCL_TIMEOUT_S (600) as the real module does, naming the rank.
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "accel/cuda_abi.h"

namespace {

int32_t fail(dlsize_cuda_status* st, int32_t code, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(st->message, sizeof st->message, fmt, ap);
  va_end(ap);
  st->code = code;
  return code;
}

std::string mode() {
  const char* m = std::getenv("DLSIZE_FAKE_CUDA");
  return m ? m : "";
}

enum class slot_state { free, acquired, submitted, resident };

} // namespace

struct dlsize_cuda_trainer {
  dlsize_cuda_trainer_options opt{};
  uint64_t params = 0;
  // Weights as written (0.5 at first) less 0.001 per update since; gradients 0.01 once a step
  // ran. Kept lazily, so that a step costs its busy time and nothing more, as on a GPU.
  std::vector<float> weights;
  uint64_t updates_since_write = 0;
  bool stepped = false;
  std::vector<slot_state> slots;
  std::vector<std::vector<uint64_t>> staged; // bytes per sample and slot
  uint64_t steps = 0;
  int rank = 0, nranks = 0;
  std::mutex m; // the loader's threads and the step's, as with the real module
};

namespace {

int32_t probe(dlsize_cuda_probe_result* out, dlsize_cuda_status* st) {
  *out = {};
  out->runtime_version = 13000;
  if (mode() == "nodriver")
    return fail(st, DLSIZE_CUDA_NO_DRIVER,
                "no NVIDIA driver: libcuda.so.1 not found (cudaGetDeviceCount: "
                "cudaErrorInsufficientDriver)");
  out->driver_version = 13000;
  if (mode() == "nodevice")
    return DLSIZE_CUDA_OK;
  const char* n = std::getenv("DLSIZE_FAKE_DEVICES");
  out->device_count = n ? std::atoi(n) : 1;
  for (int32_t i = 0; i < out->device_count && i < DLSIZE_CUDA_MAX_DEVICES; ++i) {
    std::snprintf(out->devices[i].name, sizeof out->devices[i].name, "Fake GPU");
    std::snprintf(out->devices[i].pci_bus_id, sizeof out->devices[i].pci_bus_id, "0000:%02x:00.0",
                  i);
    out->devices[i].memory_bytes = 80ull << 30;
  }
  return DLSIZE_CUDA_OK;
}

// The shapes the core sends must chain: each layer's input is its producer's output.
int32_t check_model(const dlsize_cuda_model* m, uint64_t* params, dlsize_cuda_status* st) {
  if (m->layer_count == 0 || m->layers == nullptr)
    return fail(st, DLSIZE_CUDA_BAD_ARGUMENT, "model has no layers");
  uint64_t sum = 0;
  for (uint32_t i = 0; i < m->layer_count; ++i) {
    const auto& l = m->layers[i];
    if (l.input >= static_cast<int32_t>(i) || l.other >= static_cast<int32_t>(i))
      return fail(st, DLSIZE_CUDA_BAD_ARGUMENT, "layer %u reads a later layer", i);
    const uint64_t ch = l.input < 0 ? m->input_channels : m->layers[l.input].out_channels;
    const uint64_t* sp = l.input < 0 ? m->input_spatial : m->layers[l.input].out_spatial;
    if (l.in_channels != ch || std::memcmp(l.in_spatial, sp, sizeof l.in_spatial) != 0)
      return fail(st, DLSIZE_CUDA_BAD_ARGUMENT, "layer %u: input shape differs from its producer's",
                  i);
    if (l.rank != m->rank)
      return fail(st, DLSIZE_CUDA_BAD_ARGUMENT, "layer %u: rank %u", i, l.rank);
    sum += l.params;
  }
  if (sum != m->params)
    return fail(st, DLSIZE_CUDA_BAD_ARGUMENT, "layers hold %llu parameters, the model says %llu",
                static_cast<unsigned long long>(sum), static_cast<unsigned long long>(m->params));
  if (m->classes != m->layers[m->layer_count - 1].out_channels)
    return fail(st, DLSIZE_CUDA_BAD_ARGUMENT, "classes differ from the last layer's channels");
  *params = sum;
  return DLSIZE_CUDA_OK;
}

int32_t create(const dlsize_cuda_model* m, const dlsize_cuda_trainer_options* o,
               dlsize_cuda_trainer** out, dlsize_cuda_status* st) {
  dlsize_cuda_probe_result p{};
  if (const int32_t rc = probe(&p, st); rc != DLSIZE_CUDA_OK)
    return rc;
  if (o->struct_size != sizeof(dlsize_cuda_trainer_options))
    return fail(st, DLSIZE_CUDA_BAD_ARGUMENT, "options struct_size %u", o->struct_size);
  if (o->device < 0 || o->device >= p.device_count)
    return fail(st, DLSIZE_CUDA_NO_DEVICE, "no device %d", o->device);
  if (o->batch_size < 1 || o->slots < 1 || o->sample_bytes_max < 1)
    return fail(st, DLSIZE_CUDA_BAD_ARGUMENT, "batch %u, slots %u, sample bytes %llu",
                o->batch_size, o->slots, static_cast<unsigned long long>(o->sample_bytes_max));
  if (o->precision < DLSIZE_CUDA_FP16 || o->precision > DLSIZE_CUDA_FP32)
    return fail(st, DLSIZE_CUDA_BAD_ARGUMENT, "precision %d", o->precision);
  uint64_t params = 0;
  if (const int32_t rc = check_model(m, &params, st); rc != DLSIZE_CUDA_OK)
    return rc;
  auto* t = new dlsize_cuda_trainer;
  t->opt = *o;
  t->params = params;
  t->weights.assign(params, 0.5f);
  t->slots.assign(o->slots, slot_state::free);
  t->staged.assign(o->slots, std::vector<uint64_t>(o->batch_size, 0));
  *out = t;
  return DLSIZE_CUDA_OK;
}

void destroy(dlsize_cuda_trainer* t) {
  delete t;
}

int32_t info(dlsize_cuda_trainer* t, dlsize_cuda_trainer_info* out, dlsize_cuda_status*) {
  *out = {};
  std::snprintf(out->device_name, sizeof out->device_name, "Fake GPU");
  std::snprintf(out->pci_bus_id, sizeof out->pci_bus_id, "0000:%02x:00.0", t->opt.device);
  out->params = t->params;
  out->slots = t->opt.slots;
  out->buckets = t->nranks > 1 ? 4 : 0;
  out->staging_bytes = t->opt.slots * t->opt.batch_size * t->opt.sample_bytes_max;
  return DLSIZE_CUDA_OK;
}

int32_t check_slot(dlsize_cuda_trainer* t, uint32_t slot, dlsize_cuda_status* st) {
  if (slot >= t->slots.size())
    return fail(st, DLSIZE_CUDA_BAD_ARGUMENT, "slot %u out of range (%zu slots)", slot,
                t->slots.size());
  return DLSIZE_CUDA_OK;
}

// check_slot, then that the slot is acquired: `call` (the entry point) may fill it.
int32_t check_acquired(dlsize_cuda_trainer* t, uint32_t slot, const char* call,
                       dlsize_cuda_status* st) {
  if (const int32_t rc = check_slot(t, slot, st))
    return rc;
  if (t->slots[slot] != slot_state::acquired)
    return fail(st, DLSIZE_CUDA_BAD_ARGUMENT, "%s on slot %u before acquire_slot", call, slot);
  return DLSIZE_CUDA_OK;
}

int32_t acquire_slot(dlsize_cuda_trainer* t, uint32_t slot, dlsize_cuda_status* st) {
  std::lock_guard lk(t->m);
  if (const int32_t rc = check_slot(t, slot, st))
    return rc;
  // The real module waits here; a single-threaded caller that gets here would wait forever.
  if (t->slots[slot] != slot_state::free)
    return fail(st, DLSIZE_CUDA_BAD_ARGUMENT,
                "slot %u is not free (its batch has not been stepped)", slot);
  t->slots[slot] = slot_state::acquired;
  t->staged[slot].assign(t->opt.batch_size, 0);
  return DLSIZE_CUDA_OK;
}

int32_t stage_sample(dlsize_cuda_trainer* t, uint32_t slot, uint32_t index, uint64_t offset,
                     const void* bytes, uint64_t length, uint64_t sample_length,
                     dlsize_cuda_status* st) {
  std::lock_guard lk(t->m);
  if (const int32_t rc = check_acquired(t, slot, "stage_sample", st))
    return rc;
  if (index >= t->opt.batch_size)
    return fail(st, DLSIZE_CUDA_BAD_ARGUMENT, "sample index %u of a batch of %u", index,
                t->opt.batch_size);
  if (bytes == nullptr || length == 0 || offset + length > sample_length)
    return fail(st, DLSIZE_CUDA_BAD_ARGUMENT, "sample %u: a piece of %llu bytes at %llu of %llu",
                index, static_cast<unsigned long long>(length),
                static_cast<unsigned long long>(offset),
                static_cast<unsigned long long>(sample_length));
  t->staged[slot][index] =
      sample_length < t->opt.sample_bytes_max ? sample_length : t->opt.sample_bytes_max;
  return DLSIZE_CUDA_OK;
}

int32_t submit_slot(dlsize_cuda_trainer* t, uint32_t slot, uint32_t samples,
                    dlsize_cuda_status* st) {
  std::lock_guard lk(t->m);
  if (const int32_t rc = check_acquired(t, slot, "submit_slot", st))
    return rc;
  if (samples != t->opt.batch_size)
    return fail(st, DLSIZE_CUDA_BAD_ARGUMENT, "submit_slot with %u samples, the batch is %u",
                samples, t->opt.batch_size);
  for (uint32_t i = 0; i < samples; ++i)
    if (t->staged[slot][i] == 0)
      return fail(st, DLSIZE_CUDA_BAD_ARGUMENT, "sample %u was not staged", i);
  t->slots[slot] = slot_state::submitted;
  return DLSIZE_CUDA_OK;
}

int32_t fill_synthetic(dlsize_cuda_trainer* t, uint32_t slot, uint64_t, dlsize_cuda_status* st) {
  if (const int32_t rc = check_slot(t, slot, st))
    return rc;
  t->slots[slot] = slot_state::resident;
  return DLSIZE_CUDA_OK;
}

int32_t step(dlsize_cuda_trainer* t, uint32_t slot, int32_t flags, dlsize_cuda_step_result* out,
             dlsize_cuda_status* st) {
  const bool update = (flags & DLSIZE_CUDA_STEP_UPDATE) != 0;
  if (flags & ~(DLSIZE_CUDA_STEP_UPDATE | DLSIZE_CUDA_STEP_TIME_OPS))
    return fail(st, DLSIZE_CUDA_BAD_ARGUMENT, "step flags %d", flags);
  if (mode() == "peer_hang" && t->nranks > 1) {
    const char* limit = std::getenv("DLSIZE_NCCL_TIMEOUT_S");
    const double s = limit ? std::atof(limit) : 600.0;
    std::this_thread::sleep_for(std::chrono::duration<double>(s));
    return fail(st, DLSIZE_CUDA_FAILED,
                "rank %d of %d: the step's gradient allreduce did not finish within %g s "
                "(DLSIZE_NCCL_TIMEOUT_S): a peer rank failed, hung or never joined; the NCCL "
                "communicator was aborted",
                t->rank, t->nranks, s);
  }
  std::unique_lock lk(t->m);
  if (const int32_t rc = check_slot(t, slot, st))
    return rc;
  if (t->slots[slot] != slot_state::submitted && t->slots[slot] != slot_state::resident)
    return fail(st, DLSIZE_CUDA_BAD_ARGUMENT, "step on slot %u, which holds no batch", slot);
  if (t->slots[slot] == slot_state::submitted)
    t->slots[slot] = slot_state::free;
  const char* busy = std::getenv("DLSIZE_FAKE_BUSY_MS");
  *out = {};
  out->busy_ms = busy ? std::atof(busy) : 10.0;
  // The step takes its busy time, as a GPU's would (the loader's calls go on meanwhile).
  lk.unlock();
  std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(out->busy_ms));
  lk.lock();
  out->forward_ms = out->busy_ms / 3;
  out->backward_ms = out->busy_ms * 2 / 3;
  if (flags & DLSIZE_CUDA_STEP_TIME_OPS) {
    out->op_ms[DLSIZE_CUDA_CONV] = out->busy_ms * 0.6;
    out->op_ms[DLSIZE_CUDA_BATCH_NORM] = out->busy_ms * 0.2;
    out->op_ms[DLSIZE_CUDA_RELU] = out->busy_ms * 0.1;
  }
  out->loss = 6.9 * std::pow(0.97, static_cast<double>(t->steps));
  out->loss_scale = t->opt.precision == DLSIZE_CUDA_FP16 ? 65536.0 : 1.0;
  t->stepped = true;
  if (update) {
    ++t->updates_since_write;
    ++t->steps;
  }
  return DLSIZE_CUDA_OK;
}

int32_t nccl_unique_id(uint8_t id[DLSIZE_CUDA_NCCL_ID_BYTES], dlsize_cuda_status*) {
  std::memset(id, 0x5a, DLSIZE_CUDA_NCCL_ID_BYTES);
  return DLSIZE_CUDA_OK;
}

int32_t nccl_init(dlsize_cuda_trainer* t, int32_t rank, int32_t nranks,
                  const uint8_t id[DLSIZE_CUDA_NCCL_ID_BYTES], dlsize_cuda_status* st) {
  if (nranks < 1 || rank < 0 || rank >= nranks)
    return fail(st, DLSIZE_CUDA_BAD_ARGUMENT, "rank %d of %d", rank, nranks);
  if (id[0] != 0x5a || id[DLSIZE_CUDA_NCCL_ID_BYTES - 1] != 0x5a)
    return fail(st, DLSIZE_CUDA_BAD_ARGUMENT, "not an id from nccl_unique_id");
  t->rank = rank;
  t->nranks = nranks;
  return DLSIZE_CUDA_OK;
}

int32_t check_count(const dlsize_cuda_trainer* t, uint64_t count, dlsize_cuda_status* st) {
  if (count != t->weights.size())
    return fail(st, DLSIZE_CUDA_BAD_ARGUMENT, "%llu values asked, the model has %zu",
                static_cast<unsigned long long>(count), t->weights.size());
  return DLSIZE_CUDA_OK;
}

int32_t read_params(dlsize_cuda_trainer* t, float* out, uint64_t count, dlsize_cuda_status* st) {
  if (const int32_t rc = check_count(t, count, st))
    return rc;
  const float shift = 0.001f * static_cast<float>(t->updates_since_write);
  for (uint64_t i = 0; i < count; ++i)
    out[i] = t->weights[i] - shift;
  return DLSIZE_CUDA_OK;
}

int32_t write_params(dlsize_cuda_trainer* t, const float* in, uint64_t count,
                     dlsize_cuda_status* st) {
  if (count != t->weights.size())
    return fail(st, DLSIZE_CUDA_BAD_ARGUMENT, "wrong parameter count");
  std::memcpy(t->weights.data(), in, count * sizeof(float));
  t->updates_since_write = 0;
  return DLSIZE_CUDA_OK;
}

int32_t read_grads(dlsize_cuda_trainer* t, float* out, uint64_t count, dlsize_cuda_status* st) {
  if (const int32_t rc = check_count(t, count, st))
    return rc;
  for (uint64_t i = 0; i < count; ++i)
    out[i] = t->stepped ? 0.01f : 0.0f;
  return DLSIZE_CUDA_OK;
}

} // namespace

extern "C" __attribute__((visibility("default"))) const dlsize_cuda_api* dlsize_cuda_module() {
  static const dlsize_cuda_api api = DLSIZE_CUDA_API_TABLE("fake CUDA backend for tests");
  return &api;
}
