#include "accel/calibrate.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include <fmt/format.h>

#include "config/accelerator_spec.hpp"
#include "core/clock.hpp"
#include "core/error.hpp"
#include "report/report_io.hpp"

namespace dlsize::accel {
namespace {

constexpr std::uint64_t kOpTimedSteps = 5;

} // namespace

time_summary summarize(std::vector<double> s) {
  if (s.empty())
    throw usage_error("calibrate: no measured steps");
  std::sort(s.begin(), s.end());
  time_summary t;
  double sum = 0;
  for (double v : s)
    sum += v;
  t.mean = sum / static_cast<double>(s.size());
  double sq = 0;
  for (double v : s)
    sq += (v - t.mean) * (v - t.mean);
  t.stdev = s.size() > 1 ? std::sqrt(sq / static_cast<double>(s.size() - 1)) : 0.0;
  // Order statistics by the nearest rank.
  auto rank = [&](double q) {
    const auto i = static_cast<std::size_t>(std::ceil(q * static_cast<double>(s.size())));
    return s[std::clamp<std::size_t>(i, 1, s.size()) - 1];
  };
  t.min = s.front();
  t.max = s.back();
  t.median = rank(0.5);
  t.p95 = rank(0.95);
  return t;
}

std::string accelerator_slug(const std::string& gpu_name) {
  std::string out;
  for (char ch : gpu_name) {
    const auto c = static_cast<unsigned char>(ch);
    if (std::isalnum(c))
      out += static_cast<char>(std::tolower(c));
    else if (!out.empty() && out.back() != '-')
      out += '-';
  }
  while (!out.empty() && out.back() == '-')
    out.pop_back();
  return out.empty() ? std::string("gpu") : out;
}

namespace {

// The measured steps: each one's GPU busy time and wall time (warm-up left out), the loss at
// the first and last step, and the steps whose update an overflow skipped.
struct timed_steps {
  std::vector<double> busy, wall;
  double loss_first = 0, loss_last = 0;
  std::uint64_t skipped = 0;
  double wall_total = 0; // first measured step's start to the last one's end
};

timed_steps run_steps(cuda_accelerator& gpu, const calibrate_options& opt) {
  timed_steps t;
  std::uint64_t measured_from = 0;
  for (std::uint64_t i = 0; i < opt.warmup + opt.steps; ++i) {
    const std::uint64_t t0 = now_ns();
    if (i == opt.warmup)
      measured_from = t0;
    gpu.step(t0);
    const std::uint64_t t1 = now_ns();
    const auto& r = gpu.last();
    if (!std::isfinite(r.loss))
      throw run_error(fmt::format("calibrate: step {} gave a loss of {} (not finite)", i, r.loss));
    if (i == 0)
      t.loss_first = r.loss;
    t.loss_last = r.loss;
    if (opt.progress)
      std::fprintf(stderr, "calibrate: step %llu%s: %.3f ms busy, loss %.4f%s\n",
                   static_cast<unsigned long long>(i), i < opt.warmup ? " (warm-up)" : "",
                   r.busy_ms, r.loss, r.skipped ? ", overflow: update skipped" : "");
    if (i < opt.warmup)
      continue;
    t.busy.push_back(r.busy_ms / 1e3);
    t.wall.push_back(static_cast<double>(t1 - t0) / 1e9);
    t.skipped += r.skipped ? 1 : 0;
  }
  // Wall to wall, as PyTorch's reference reports it: first measured step's start to last
  // one's end, host gaps included.
  t.wall_total = static_cast<double>(now_ns() - measured_from) / 1e9;
  return t;
}

// Where a step's GPU time goes, per layer kind, from a few more steps timed layer by layer
// (an event pair per layer, kept out of the figures of run_steps).
nlohmann::json op_time_json(cuda_accelerator& gpu) {
  gpu.time_ops(true);
  std::vector<double> op_ms(DLSIZE_CUDA_OP_KINDS, 0.0);
  for (std::uint64_t i = 0; i < kOpTimedSteps; ++i) {
    gpu.step(now_ns());
    for (std::size_t k = 0; k < op_ms.size(); ++k)
      op_ms[k] += gpu.last().op_ms[k] / static_cast<double>(kOpTimedSteps);
  }
  gpu.time_ops(false);
  nlohmann::json op_time = nlohmann::json::object();
  for (std::size_t k = 0; k < op_ms.size(); ++k)
    if (op_ms[k] > 0)
      op_time[model::to_string(static_cast<model::op>(k))] = op_ms[k];
  return op_time;
}

} // namespace

nlohmann::json calibrate(const calibrate_options& opt) {
  if (opt.steps < 1 || opt.steps > 1'000'000)
    throw usage_error("--steps: valid: 1 to 1,000,000");
  if (opt.warmup > 1'000'000)
    throw usage_error("--warmup: valid: 0 to 1,000,000");
  // The backend and device first, so that a machine without a GPU says so before anything else.
  cuda_backend::get().require_device(opt.cuda.device);
  config::require_trainable(opt.workload);
  const model::model_spec& m = *opt.workload.network;
  cuda_options co = opt.cuda;
  co.slots = 1;
  cuda_accelerator gpu(m, co);
  gpu.use_synthetic(opt.cuda.seed + 1);

  const timed_steps t = run_steps(gpu, opt);
  const double loss_first = t.loss_first, loss_last = t.loss_last, wall_total = t.wall_total;
  const std::uint64_t skipped = t.skipped;
  const time_summary b = summarize(t.busy), w = summarize(t.wall);
  const nlohmann::json op_time = op_time_json(gpu);
  const auto& info = gpu.info();
  const std::string gpu_name = info.device_name;
  const std::string precision = to_string(opt.cuda.precision);
  const std::uint32_t batch = gpu.batch_size();
  nlohmann::json cal = {
      {"schema", config::kCalibrationSchema},
      {"workload", opt.workload.name},
      {"accelerator", accelerator_slug(gpu_name)},
      {"batch_size", batch},
      {"compute_time_s", b.mean},
      {"compute_time_stdev_s", b.stdev},
      {"compute_time_min_s", b.min},
      {"compute_time_median_s", b.median},
      {"compute_time_p95_s", b.p95},
      {"compute_time_max_s", b.max},
      {"samples_per_s", b.mean > 0 ? batch / b.mean : 0.0},
      {"gpu_name", gpu_name},
      {"precision", precision},
      {"steps", opt.steps},
      {"warmup_steps", opt.warmup},
      {"loss", {{"first", loss_first}, {"last", loss_last}, {"falling", loss_last < loss_first}}},
      {"source", fmt::format("dlsize calibrate on cuda:{} {}, {}, batch {}, {} steps after {} "
                             "warm-up, {}",
                             opt.cuda.device, gpu_name, precision, batch, opt.steps, opt.warmup,
                             report::utc_now())},
      {"measured",
       {{"model", m.name},
        {"parameters", m.params()},
        {"forward_macs_per_sample", m.forward_macs()},
        {"wall_time_per_step_s", w.mean},
        {"samples_per_s_wall",
         wall_total > 0 ? static_cast<double>(batch * opt.steps) / wall_total : 0.0},
        {"samples_per_s_event", b.mean > 0 ? batch / b.mean : 0.0},
        {"op_time_ms", op_time},
        {"op_time_steps", kOpTimedSteps},
        {"wall_time_per_step_stdev_s", w.stdev},
        {"overflow_skipped_steps", skipped},
        {"learning_rate",
         opt.cuda.learning_rate > 0 ? opt.cuda.learning_rate : 0.1 * batch / 256.0},
        {"algorithms", opt.cuda.search_algorithms ? "search" : "heuristic"},
        {"pci_bus_id", info.pci_bus_id},
        {"device_memory_used_bytes", info.device_memory_used},
        {"backend", gpu.build()},
        {"tool", report::tool_json()}}}};
  return cal;
}

} // namespace dlsize::accel
