#include "accel/cuda_accelerator.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/clock.hpp"
#include "core/error.hpp"

namespace dlsize::accel {

std::string to_string(cuda_precision p) {
  return std::string(core::name_of(p));
}

cuda_precision parse_precision(const std::string& text, const std::string& option) {
  return core::parse_enum<cuda_precision>(text, option, "precision");
}

cuda_model_abi to_abi(const model::model_spec& m) {
  cuda_model_abi a;
  for (const auto& l : m.layers) {
    dlsize_cuda_layer c{};
    c.op = static_cast<int32_t>(l.kind);
    c.input = l.input;
    c.other = l.other;
    c.bias = l.bias ? 1 : 0;
    c.filters = l.filters;
    c.kernel = l.kernel;
    c.stride = l.stride;
    c.pad = l.pad;
    c.dilation = l.dilation;
    c.rank = static_cast<uint32_t>(l.in.spatial.size());
    c.in_channels = l.in.channels;
    c.out_channels = l.out.channels;
    for (std::size_t d = 0; d < 3; ++d) {
      c.in_spatial[d] = d < l.in.spatial.size() ? l.in.spatial[d] : 1;
      c.out_spatial[d] = d < l.out.spatial.size() ? l.out.spatial[d] : 1;
    }
    c.params = l.params;
    a.layers.push_back(c);
  }
  a.model.layers = a.layers.data();
  a.model.layer_count = static_cast<uint32_t>(a.layers.size());
  a.model.rank = static_cast<uint32_t>(m.input.spatial.size());
  a.model.input_channels = m.input.channels;
  for (std::size_t d = 0; d < 3; ++d)
    a.model.input_spatial[d] = d < m.input.spatial.size() ? m.input.spatial[d] : 1;
  a.model.params = m.params();
  a.model.classes = m.classes();
  return a;
}

std::uint64_t staged_bytes_per_sample(const model::model_spec& m) {
  std::uint64_t b = m.input.channels;
  for (auto d : m.input.spatial)
    b *= d + d / 8;
  return b;
}

cuda_accelerator::cuda_accelerator(const model::model_spec& m, const cuda_options& opt)
    : m_api(cuda_backend::get().api()), m_precision(opt.precision) {
  cuda_backend::get().require_device(opt.device);
  m_batch = opt.batch_size ? opt.batch_size : static_cast<std::uint32_t>(m.batch_size);
  if (opt.slots < 1)
    throw usage_error("--prefetch: the CUDA accelerator needs at least 1 slot");
  const cuda_model_abi abi = to_abi(m);
  dlsize_cuda_trainer_options o{};
  o.struct_size = sizeof o;
  o.device = opt.device;
  o.batch_size = m_batch;
  o.precision = static_cast<int32_t>(opt.precision);
  o.algorithms = opt.search_algorithms ? DLSIZE_CUDA_ALGO_SEARCH : DLSIZE_CUDA_ALGO_HEURISTIC;
  o.slots = opt.slots;
  o.sample_bytes_max = opt.sample_bytes_max ? opt.sample_bytes_max : staged_bytes_per_sample(m);
  o.learning_rate = opt.learning_rate;
  o.momentum = opt.momentum;
  o.weight_decay = opt.weight_decay;
  o.seed = opt.seed;
  dlsize_cuda_status st{};
  DLSIZE_CUDA_CALL(m_api.create(&abi.model, &o, &m_trainer, &st), st);
  DLSIZE_CUDA_CALL(m_api.info(m_trainer, &m_info, &st), st);
  m_build = m_api.build;
  m_params = m.params();
}

cuda_accelerator::~cuda_accelerator() {
  if (m_trainer)
    m_api.destroy(m_trainer);
}

std::string cuda_accelerator::device() const {
  return fmt::format("cuda:{}", m_info.device_name);
}

std::uint64_t cuda_accelerator::step(std::uint64_t) {
  dlsize_cuda_status st{};
  const std::uint32_t slot = m_synthetic ? 0 : slot_of(m_next);
  const int32_t flags = DLSIZE_CUDA_STEP_UPDATE | (m_time_ops ? DLSIZE_CUDA_STEP_TIME_OPS : 0);
  DLSIZE_CUDA_CALL(m_api.step(m_trainer, slot, flags, &m_last, &st), st);
  ++m_next;
  m_tally.add(m_last);
  return now_ns();
}

std::uint64_t cuda_accelerator::last_busy_ns() const {
  return static_cast<std::uint64_t>(m_last.busy_ms * 1e6 + 0.5);
}

std::uint64_t cuda_accelerator::compute_ns(std::uint64_t start_ns, std::uint64_t end_ns) const {
  return std::min(end_ns - start_ns, last_busy_ns());
}

void cuda_accelerator::acquire(std::uint64_t batch) {
  dlsize_cuda_status st{};
  DLSIZE_CUDA_CALL(m_api.acquire_slot(m_trainer, slot_of(batch), &st), st);
}

void cuda_accelerator::stage_sample(std::uint64_t batch, std::uint32_t index, const std::byte* data,
                                    std::size_t length) {
  stage_piece(batch, index, 0, data, length, length);
}

void cuda_accelerator::stage_piece(std::uint64_t batch, std::uint32_t index, std::uint64_t offset,
                                   const std::byte* data, std::size_t length,
                                   std::uint64_t sample_length) {
  dlsize_cuda_status st{};
  DLSIZE_CUDA_CALL(m_api.stage_sample(m_trainer, slot_of(batch), index, offset, data, length,
                                      sample_length, &st),
                   st);
}

void cuda_accelerator::submit(std::uint64_t batch, std::uint32_t samples) {
  dlsize_cuda_status st{};
  DLSIZE_CUDA_CALL(m_api.submit_slot(m_trainer, slot_of(batch), samples, &st), st);
}

void cuda_accelerator::use_synthetic(std::uint64_t seed) {
  dlsize_cuda_status st{};
  DLSIZE_CUDA_CALL(m_api.fill_synthetic(m_trainer, 0, seed, &st), st);
  m_synthetic = true;
}

std::vector<std::uint8_t> cuda_accelerator::nccl_unique_id() {
  std::vector<std::uint8_t> id(DLSIZE_CUDA_NCCL_ID_BYTES);
  dlsize_cuda_status st{};
  DLSIZE_CUDA_CALL(cuda_backend::get().api().nccl_unique_id(id.data(), &st), st);
  return id;
}

void cuda_accelerator::join(int rank, int nranks, const std::vector<std::uint8_t>& id) {
  if (id.size() != DLSIZE_CUDA_NCCL_ID_BYTES)
    throw usage_error(
        fmt::format("NCCL unique id: {} bytes, needs {}", id.size(), DLSIZE_CUDA_NCCL_ID_BYTES));
  dlsize_cuda_status st{};
  DLSIZE_CUDA_CALL(m_api.nccl_init(m_trainer, rank, nranks, id.data(), &st), st);
  DLSIZE_CUDA_CALL(m_api.info(m_trainer, &m_info, &st), st);
}

std::vector<float> cuda_accelerator::params() const {
  std::vector<float> p(m_params);
  dlsize_cuda_status st{};
  DLSIZE_CUDA_CALL(m_api.read_params(m_trainer, p.data(), p.size(), &st), st);
  return p;
}

void cuda_accelerator::set_params(const std::vector<float>& p) {
  dlsize_cuda_status st{};
  DLSIZE_CUDA_CALL(m_api.write_params(m_trainer, p.data(), p.size(), &st), st);
}

std::vector<float> cuda_accelerator::grads() const {
  std::vector<float> g(m_params);
  dlsize_cuda_status st{};
  DLSIZE_CUDA_CALL(m_api.read_grads(m_trainer, g.data(), g.size(), &st), st);
  return g;
}

double cuda_accelerator::loss_only() {
  dlsize_cuda_status st{};
  dlsize_cuda_step_result r{};
  DLSIZE_CUDA_CALL(m_api.step(m_trainer, m_synthetic ? 0 : slot_of(m_next++), 0, &r, &st), st);
  return r.loss;
}

void gpu_tally::add(const dlsize_cuda_step_result& r) {
  if (steps == 0)
    loss_first = r.loss;
  loss_last = r.loss;
  ++steps;
  skipped += r.skipped ? 1 : 0;
  busy_ms += r.busy_ms;
  preprocess_ms += r.preprocess_ms;
  forward_ms += r.forward_ms;
  backward_ms += r.backward_ms;
  optimizer_ms += r.optimizer_ms;
}

} // namespace dlsize::accel
