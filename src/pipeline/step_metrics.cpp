#include "pipeline/step_metrics.hpp"

#include <algorithm>

namespace dlsize::pipeline {
namespace {
double sec(std::uint64_t ns) { return static_cast<double>(ns) * 1e-9; }
}  // namespace

accelerator_figures figures_of(const std::vector<step_record>& steps) {
  accelerator_figures f;
  f.steps = steps.size();
  if (steps.empty()) return f;
  f.first_step_wait_s = sec(steps.front().wait_ns);
  for (const auto& s : steps) {
    f.total_samples += s.samples;
    f.total_bytes += s.bytes;
  }
  std::uint64_t compute = 0, wait = 0, sync = 0;
  for (std::size_t i = 1; i < steps.size(); ++i) {
    const auto& s = steps[i];
    compute += s.compute_ns;
    wait += s.wait_ns;
    sync += s.sync_ns;
    f.samples += s.samples;
    f.bytes += s.bytes;
    f.data_wait.record(s.wait_ns);
  }
  f.measured_steps = steps.size() - 1;
  if (f.measured_steps == 0) return f;
  f.measured = true;
  f.compute_s = sec(compute);
  f.data_wait_s = sec(wait);
  f.sync_wait_s = sec(sync);
  f.window_s = sec(steps.back().end_ns - steps.front().end_ns);
  if (f.window_s > 0) {
    f.utilization = std::min(1.0, f.compute_s / f.window_s);
    f.samples_per_s = static_cast<double>(f.samples) / f.window_s;
  }
  return f;
}

overall_figures overall_of(const std::vector<accelerator_figures>& per_accelerator) {
  overall_figures o;
  bool first = true;
  for (const auto& f : per_accelerator) {
    if (!f.measured) continue;
    ++o.measured_accelerators;
    o.compute_s += f.compute_s;
    o.window_s += f.window_s;
    o.data_wait_s += f.data_wait_s;
    o.sync_wait_s += f.sync_wait_s;
    o.samples_per_s += f.samples_per_s;
    o.data_wait.merge(f.data_wait);
    o.min_utilization = first ? f.utilization : std::min(o.min_utilization, f.utilization);
    first = false;
  }
  if (o.window_s > 0) o.utilization = std::min(1.0, o.compute_s / o.window_s);
  return o;
}

nlohmann::json epoch_figures(const std::vector<std::vector<step_record>>& per_accelerator,
                             std::uint64_t epochs, std::uint64_t t0_ns) {
  struct acc {
    std::uint64_t steps = 0, samples = 0, bytes = 0, compute = 0, wait = 0;
    std::uint64_t measured_samples = 0, measured_bytes = 0;
    std::uint64_t begin = UINT64_MAX, end = 0;  // window of measured steps
    std::uint64_t dlio_compute = 0, dlio_window = 0;
  };
  std::vector<acc> e(epochs);
  for (const auto& steps : per_accelerator) {
    // DLIO: within each epoch, this accelerator's first step is outside the window.
    std::size_t first_of_epoch = 0;
    for (std::size_t i = 0; i < steps.size(); ++i) {
      const auto& s = steps[i];
      if (s.epoch >= epochs) continue;
      if (i == 0 || steps[i - 1].epoch != s.epoch) first_of_epoch = i;
      auto& a = e[s.epoch];
      if (i > first_of_epoch) {
        a.dlio_compute += s.compute_ns;
        a.dlio_window += s.end_ns - steps[i - 1].end_ns;
      }
      ++a.steps;
      a.samples += s.samples;
      a.bytes += s.bytes;
      if (i == 0) continue;  // the first step is outside every AU window
      a.measured_samples += s.samples;
      a.measured_bytes += s.bytes;
      a.compute += s.compute_ns;
      a.wait += s.wait_ns;
      a.begin = std::min(a.begin, steps[i - 1].end_ns);
      a.end = std::max(a.end, s.end_ns);
    }
  }
  const double accels = static_cast<double>(std::max<std::size_t>(1, per_accelerator.size()));
  nlohmann::json out = nlohmann::json::array();
  for (std::uint64_t i = 0; i < epochs; ++i) {
    const auto& a = e[i];
    const bool measured = a.end > a.begin && a.begin != UINT64_MAX;
    const double wall = measured ? sec(a.end - a.begin) : 0;
    nlohmann::json j = {{"epoch", i},
                        {"steps_total", a.steps},
                        {"samples", a.samples},
                        {"read_bytes", a.bytes},
                        {"compute_s", sec(a.compute)},
                        {"data_wait_s", sec(a.wait)}};
    if (measured) {
      j["start_s"] = sec(a.begin - std::min(a.begin, t0_ns));
      j["end_s"] = sec(a.end - std::min(a.end, t0_ns));
      j["wall_s"] = wall;
      j["accelerator_utilization"] = std::min(1.0, sec(a.compute) / (accels * wall));
      j["samples_per_s"] = static_cast<double>(a.measured_samples) / wall;
      j["read_bytes_per_s"] = static_cast<double>(a.measured_bytes) / wall;
    } else {
      j["start_s"] = nullptr;
      j["end_s"] = nullptr;
      j["wall_s"] = nullptr;
      j["accelerator_utilization"] = nullptr;
      j["samples_per_s"] = nullptr;
      j["read_bytes_per_s"] = nullptr;
    }
    j["dlio_accelerator_utilization"] =
        a.dlio_window ? nlohmann::json(std::min(1.0, sec(a.dlio_compute) / sec(a.dlio_window))) : nlohmann::json(nullptr);
    out.push_back(std::move(j));
  }
  return out;
}

nlohmann::json epoch_mean_au(const nlohmann::json& epochs) {
  double sum = 0;
  int n = 0;
  for (const auto& e : epochs) {
    const auto& v = e["dlio_accelerator_utilization"];
    if (v.is_number()) {
      sum += v.get<double>();
      ++n;
    }
  }
  return n ? nlohmann::json(sum / n) : nlohmann::json(nullptr);
}

}  // namespace dlsize::pipeline
