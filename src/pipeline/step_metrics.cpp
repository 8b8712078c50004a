#include "pipeline/step_metrics.hpp"

#include <algorithm>

#include "core/figures.hpp"

namespace dlsize::pipeline {

void step_accumulator::add(const step_record& s) {
  auto& f = m_figures;
  const bool first = f.steps == 0;
  const bool new_epoch = first || s.epoch != m_last_epoch;
  ++f.steps;
  f.total_samples += s.samples;
  f.total_bytes += s.bytes;
  if (first) {
    f.first_step_wait_s = sec(s.wait_ns);
    m_first_end = s.end_ns;
  } else {
    m_compute += s.compute_ns;
    m_wait += s.wait_ns;
    m_sync += s.sync_ns;
    m_comm += s.comm_ns;
    f.samples += s.samples;
    f.bytes += s.bytes;
    f.data_wait.record(s.wait_ns);
  }
  if (s.epoch < m_epochs) {
    if (m_epoch_partials.size() < epoch_rows(m_epochs))
      m_epoch_partials.resize(epoch_rows(m_epochs));
    auto& e = m_epoch_partials[epoch_row(s.epoch)];
    // DLIO: within each epoch, this accelerator's first step is outside the window.
    if (!new_epoch) {
      e.dlio_compute_ns += s.compute_ns;
      e.dlio_window_ns += s.end_ns - m_last_end;
    }
    ++e.steps;
    e.samples += s.samples;
    e.bytes += s.bytes;
    if (!first) { // the run's first step is outside every AU window
      e.measured_samples += s.samples;
      e.measured_bytes += s.bytes;
      e.compute_ns += s.compute_ns;
      e.wait_ns += s.wait_ns;
      e.begin_ns = std::min(e.begin_ns, m_last_end);
      e.end_ns = std::max(e.end_ns, s.end_ns);
    }
  }
  m_last_end = s.end_ns;
  m_last_epoch = s.epoch;
}

accelerator_figures step_accumulator::figures() const {
  accelerator_figures f = m_figures;
  if (f.steps < 2)
    return f;
  f.measured_steps = f.steps - 1;
  f.measured = true;
  f.compute_s = sec(m_compute);
  f.data_wait_s = sec(m_wait);
  f.sync_wait_s = sec(m_sync);
  f.comm_s = sec(m_comm);
  f.window_s = sec(m_last_end - m_first_end);
  if (f.window_s > 0) {
    f.utilization = core::accelerator_utilization(f.compute_s, f.window_s);
    f.storage_au = core::storage_au(f.compute_s, f.comm_s, f.window_s);
    f.samples_per_s = static_cast<double>(f.samples) / f.window_s;
  }
  return f;
}

accelerator_figures figures_of(const std::vector<step_record>& steps) {
  step_accumulator acc(0);
  for (const auto& s : steps)
    acc.add(s);
  return acc.figures();
}

overall_figures overall_of(const std::vector<accelerator_figures>& per_accelerator) {
  overall_figures o;
  bool first = true;
  for (const auto& f : per_accelerator) {
    if (!f.measured)
      continue;
    ++o.measured_accelerators;
    o.compute_s += f.compute_s;
    o.window_s += f.window_s;
    o.data_wait_s += f.data_wait_s;
    o.sync_wait_s += f.sync_wait_s;
    o.comm_s += f.comm_s;
    o.samples_per_s += f.samples_per_s;
    o.data_wait.merge(f.data_wait);
    o.min_utilization = first ? f.utilization : std::min(o.min_utilization, f.utilization);
    first = false;
  }
  if (o.window_s > 0) {
    o.utilization = core::accelerator_utilization(o.compute_s, o.window_s);
    o.storage_au = core::storage_au(o.compute_s, o.comm_s, o.window_s);
    o.comm_fraction = core::capped_share(o.comm_s, o.window_s);
  }
  return o;
}

void epoch_partial::merge(const epoch_partial& o) {
  steps += o.steps;
  samples += o.samples;
  bytes += o.bytes;
  compute_ns += o.compute_ns;
  wait_ns += o.wait_ns;
  measured_samples += o.measured_samples;
  measured_bytes += o.measured_bytes;
  begin_ns = std::min(begin_ns, o.begin_ns);
  end_ns = std::max(end_ns, o.end_ns);
  dlio_compute_ns += o.dlio_compute_ns;
  dlio_window_ns += o.dlio_window_ns;
}

std::vector<epoch_partial>
epoch_partials(const std::vector<std::vector<step_record>>& per_accelerator, std::uint64_t epochs) {
  std::vector<epoch_partial> e(epoch_rows(epochs));
  for (const auto& steps : per_accelerator) {
    step_accumulator acc(epochs);
    for (const auto& s : steps)
      acc.add(s);
    for (std::size_t i = 0; i < acc.epochs().size(); ++i)
      e[i].merge(acc.epochs()[i]);
  }
  return e;
}

std::vector<report::epoch_row> epoch_figures(const std::vector<epoch_partial>& partials,
                                             std::uint64_t accelerators, std::uint64_t t0_ns,
                                             std::uint64_t epochs_total) {
  const double accels = static_cast<double>(std::max<std::uint64_t>(1, accelerators));
  std::vector<report::epoch_row> out;
  // Rows stop at the last epoch that ran: a time limit or a stop leaves the rest unrun.
  std::size_t rows = partials.size();
  while (rows > 0 && partials[rows - 1].steps == 0)
    --rows;
  using figure = report::field<double>;
  for (std::size_t i = 0; i < rows; ++i) {
    const auto& a = partials[i];
    const bool measured = a.end_ns > a.begin_ns && a.begin_ns != UINT64_MAX;
    const double wall = measured ? sec(a.end_ns - a.begin_ns) : 0;
    report::epoch_row e;
    e.epoch = i;
    e.steps_total = a.steps;
    e.samples = a.samples;
    e.read_bytes = a.bytes;
    e.compute_s = sec(a.compute_ns);
    e.data_wait_s = sec(a.wait_ns);
    auto measured_figure = [&](double v) { return measured ? figure(v) : figure::null(); };
    e.start_s = measured_figure(sec(a.begin_ns - std::min(a.begin_ns, t0_ns)));
    e.end_s = measured_figure(sec(a.end_ns - std::min(a.end_ns, t0_ns)));
    e.wall_s = measured_figure(wall);
    e.accelerator_utilization =
        measured_figure(core::accelerator_utilization(sec(a.compute_ns), accels * wall));
    e.samples_per_s = measured_figure(static_cast<double>(a.measured_samples) / wall);
    e.read_bytes_per_s = measured_figure(static_cast<double>(a.measured_bytes) / wall);
    e.dlio_accelerator_utilization =
        a.dlio_window_ns
            ? figure(core::accelerator_utilization(sec(a.dlio_compute_ns), sec(a.dlio_window_ns)))
            : figure::null();
    if (i == kEpochRowsCap && epochs_total > kEpochRowsCap) {
      e.last_epoch = epochs_total - 1;
      e.epochs_in_row = epochs_total - kEpochRowsCap;
    }
    out.push_back(std::move(e));
  }
  return out;
}

std::vector<report::epoch_row>
epoch_figures(const std::vector<std::vector<step_record>>& per_accelerator, std::uint64_t epochs,
              std::uint64_t t0_ns) {
  return epoch_figures(epoch_partials(per_accelerator, epochs), per_accelerator.size(), t0_ns,
                       epochs);
}

std::optional<double> epoch_mean_au(const std::vector<report::epoch_row>& epochs) {
  double sum = 0, n = 0;
  for (const auto& e : epochs) {
    // The rest row (epochs past kEpochRowsCap) counts for the epochs it holds.
    const double w =
        e.epochs_in_row.present ? static_cast<double>(e.epochs_in_row.value_or(0)) : 1.0;
    if (e.dlio_accelerator_utilization.has_value()) {
      sum += w * *e.dlio_accelerator_utilization;
      n += w;
    }
  }
  return n != 0 ? std::optional<double>(sum / n) : std::nullopt;
}

} // namespace dlsize::pipeline
