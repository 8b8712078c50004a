#include "pipeline/warm_storage.hpp"

#include <algorithm>

namespace dlsize::pipeline {
namespace {

using report::epoch_row;
using report::timeseries_point;

// When the first epoch ended: its end, or (training runs, whose first epoch is not timed) the
// second's start.
double first_epoch_end(const std::vector<epoch_row>& epochs) {
  const double end = epochs[0].end_s.value_or(-1);
  return end >= 0 ? end : epochs[1].start_s.value_or(-1);
}

// Storage bytes the timeseries puts before time t: each point's rate over the interval since
// the previous point, the interval holding t counted pro rata; the tail after the last point
// holds what the total has beyond the points.
double storage_bytes_before(const std::vector<timeseries_point>& series, double t, double total,
                            double wall) {
  double before = 0, sum = 0, prev = 0;
  bool done = false;
  for (const auto& p : series) {
    const double ts = p.t_s.value_or(prev), rate = p.storage_read_bytes_per_s.value_or(0);
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

report::field<report::warm_epochs_section> warm_storage(const report::bench_report& r) {
  const auto none = report::field<report::warm_epochs_section>::null();
  const auto& epochs = r.epochs;
  const auto& series = r.timeseries;
  const double nodes = r.topology ? static_cast<double>(r.topology->nodes.value_or(1)) : 1.0;
  if (!epochs || epochs->size() < 2 || !series || series->empty() || !r.storage ||
      !r.storage->read_bytes.has_value() || nodes > 1)
    return none;
  const double t = first_epoch_end(*epochs);
  if (t < 0)
    return none;
  double consumed = 0;
  for (std::size_t e = 1; e < epochs->size(); ++e)
    consumed += static_cast<double>((*epochs)[e].read_bytes.value_or(0));
  const double total = static_cast<double>(*r.storage->read_bytes);
  const double wall = r.summary ? r.summary->wall_s.value_or(t) : t;
  const double after = std::max(0.0, total - storage_bytes_before(*series, t, total, wall));
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
