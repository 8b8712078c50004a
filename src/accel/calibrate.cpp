#include "accel/calibrate.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>

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
std::map<std::string, double> op_times(cuda_accelerator& gpu) {
  gpu.time_ops(true);
  std::vector<double> op_ms(DLSIZE_CUDA_OP_KINDS, 0.0);
  for (std::uint64_t i = 0; i < kOpTimedSteps; ++i) {
    gpu.step(now_ns());
    for (std::size_t k = 0; k < op_ms.size(); ++k)
      op_ms[k] += gpu.last().op_ms[k] / static_cast<double>(kOpTimedSteps);
  }
  gpu.time_ops(false);
  std::map<std::string, double> op_time;
  for (std::size_t k = 0; k < op_ms.size(); ++k)
    if (op_ms[k] > 0)
      op_time[model::to_string(static_cast<model::op>(k))] = op_ms[k];
  return op_time;
}

} // namespace

config::calibration_document calibrate(const calibrate_options& opt) {
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
  const time_summary b = summarize(t.busy), w = summarize(t.wall);
  std::map<std::string, double> op_time = op_times(gpu);
  const auto& info = gpu.info();
  const std::string gpu_name = info.device_name;
  const std::string precision = to_string(opt.cuda.precision);
  const std::uint32_t batch = gpu.batch_size();
  config::calibration_document cal;
  cal.workload = opt.workload.name;
  cal.accelerator = accelerator_slug(gpu_name);
  cal.batch_size = batch;
  cal.compute_time_s = b.mean;
  cal.compute_time_stdev_s = b.stdev;
  cal.compute_time_min_s = b.min;
  cal.compute_time_median_s = b.median;
  cal.compute_time_p95_s = b.p95;
  cal.compute_time_max_s = b.max;
  cal.samples_per_s = b.mean > 0 ? batch / b.mean : 0.0;
  cal.gpu_name = gpu_name;
  cal.precision = precision;
  cal.steps = opt.steps;
  cal.warmup_steps = opt.warmup;
  cal.loss = config::calibration_loss{t.loss_first, t.loss_last, t.loss_last < t.loss_first};
  cal.source = fmt::format("dlsize calibrate on cuda:{} {}, {}, batch {}, {} steps after {} "
                           "warm-up, {}",
                           opt.cuda.device, gpu_name, precision, batch, opt.steps, opt.warmup,
                           report::utc_now());
  config::calibration_measured& me = cal.measured.emplace();
  me.model = m.name;
  me.parameters = m.params();
  me.forward_macs_per_sample = m.forward_macs();
  me.wall_time_per_step_s = w.mean;
  me.samples_per_s_wall =
      t.wall_total > 0 ? static_cast<double>(batch * opt.steps) / t.wall_total : 0.0;
  me.samples_per_s_event = b.mean > 0 ? batch / b.mean : 0.0;
  me.op_time_ms = std::move(op_time);
  me.op_time_steps = kOpTimedSteps;
  me.wall_time_per_step_stdev_s = w.stdev;
  me.overflow_skipped_steps = t.skipped;
  me.learning_rate = opt.cuda.learning_rate > 0 ? opt.cuda.learning_rate : 0.1 * batch / 256.0;
  me.algorithms = opt.cuda.search_algorithms ? "search" : "heuristic";
  me.pci_bus_id = info.pci_bus_id;
  me.device_memory_used_bytes = info.device_memory_used;
  me.backend = gpu.build();
  me.tool = report::tool_json();
  return cal;
}

} // namespace dlsize::accel
