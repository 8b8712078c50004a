#include "pipeline/warm_storage.hpp"

#include <algorithm>

namespace dlsize::pipeline {
namespace {

double number_or(const nlohmann::json& j, const char* key, double fallback) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : fallback;
}

// When the first epoch ended: its end, or (training runs, whose first epoch is not timed) the
// second's start.
double first_epoch_end(const nlohmann::json& epochs) {
  const double end = number_or(epochs[0], "end_s", -1);
  return end >= 0 ? end : number_or(epochs[1], "start_s", -1);
}

// Storage bytes the timeseries puts before time t: each point's rate over the interval since
// the previous point, the interval holding t counted pro rata; the tail after the last point
// holds what the total has beyond the points.
double storage_bytes_before(const nlohmann::json& series, double t, double total, double wall) {
  double before = 0, sum = 0, prev = 0;
  bool done = false;
  for (const auto& p : series) {
    const double ts = number_or(p, "t_s", prev), rate = number_or(p, "storage_read_bytes_per_s", 0);
    const double bytes = rate * std::max(0.0, ts - prev);
    sum += bytes;
    if (!done)
      before +=
          ts <= t ? bytes : bytes * std::clamp((t - prev) / std::max(1e-12, ts - prev), 0.0, 1.0);
    done = done || ts > t;
    prev = ts;
  }
  if (!done) {
    const double tail = std::max(0.0, total - sum);
    before += tail * std::clamp((t - prev) / std::max(1e-12, wall - prev), 0.0, 1.0);
  }
  return std::min(before, total);
}

} // namespace

report::field<report::warm_epochs_section> warm_storage_json(const nlohmann::json& report) {
  const auto none = report::field<report::warm_epochs_section>::null();
  const auto& epochs = report.value("epochs", nlohmann::json::array());
  const auto& storage = report.value("storage", nlohmann::json::object());
  const auto& series = report.value("timeseries", nlohmann::json::array());
  const double nodes = number_or(report.value("topology", nlohmann::json::object()), "nodes", 1);
  if (!epochs.is_array() || epochs.size() < 2 || !series.is_array() || series.empty() ||
      !storage.contains("read_bytes") || !storage["read_bytes"].is_number() || nodes > 1)
    return none;
  const double t = first_epoch_end(epochs);
  if (t < 0)
    return none;
  double consumed = 0;
  for (std::size_t e = 1; e < epochs.size(); ++e)
    consumed += number_or(epochs[e], "read_bytes", 0);
  const double total = storage["read_bytes"].get<double>();
  const double wall = number_or(report.value("summary", nlohmann::json::object()), "wall_s", t);
  const double after = std::max(0.0, total - storage_bytes_before(series, t, total, wall));
  const double per_read = consumed > 0 ? after / consumed : 0;
  report::warm_epochs_section w;
  w.from_s = t;
  w.read_bytes = consumed;
  w.storage_read_bytes = after;
  w.hit_ratio = consumed > 0 ? report::field<double>(std::clamp(1 - per_read, 0.0, 1.0))
                             : report::field<double>::null();
  w.storage_per_read_byte =
      consumed > 0 ? report::field<double>(per_read) : report::field<double>::null();
  return w;
}

} // namespace dlsize::pipeline
