#include "render/checkpoint_tables.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/units.hpp"
#include "render/goodput_tables.hpp"
#include "render/sizing_tables.hpp"

namespace dlsize::render {
namespace {

using analysis::checkpoint_path;
using analysis::checkpoint_series_document;

// The write path and the restore path of a series, with their names.
struct named_path {
  const char* name;
  const std::optional<checkpoint_path>& path;
};

std::vector<named_path> paths_of(const checkpoint_series_document& s) {
  return {{"write", s.write}, {"restore", s.read}};
}

// The measured row of a path at a rank count, or none where that path has none.
const analysis::checkpoint_count_row* row_at(const std::optional<checkpoint_path>& path,
                                             double ranks) {
  if (path)
    for (const auto& m : path->measured)
      if (m.ranks == ranks)
        return &m;
  return nullptr;
}

std::string duration_text(const analysis::value_stats& d) {
  if (d.count == 0)
    return "–";
  return d.min == d.max ? fmt::format("{:.3g} s", d.median)
                        : fmt::format("{:.3g} s ({:.3g}–{:.3g})", d.median, d.min, d.max);
}

std::string fit_text(const std::optional<analysis::sizing_fit>& f) {
  if (!f)
    return "none: fewer than two rank counts";
  return fmt::format("bytes/s = intercept + slope × ranks: slope {} per rank (95 % CI {}), "
                     "intercept {} (95 % CI {}), R² {:.4f}, n {}",
                     rate_text(f->line.slope), interval_text(f->slope_ci95(), true),
                     rate_text(f->line.intercept), interval_text(f->intercept_ci95(), true),
                     f->line.r2, f->line.n);
}

} // namespace

std::string checkpoint_title(const checkpoint_series_document& s) {
  return fmt::format(
      "{} checkpoints ({}), {}, {} I/O, {} each{}{}", s.workload, s.source, s.backend, s.cache_mode,
      std::isfinite(s.bytes_per_checkpoint) ? units::format_bytes_binary(s.bytes_per_checkpoint)
                                            : "–",
      std::isfinite(s.scale) && s.scale != 1 ? fmt::format(", scale {:.3g}", s.scale) : "",
      s.subset ? ", subset" : "");
}

text_table checkpoint_measured_table(const checkpoint_series_document& s) {
  text_table t{{"ranks", "runs", "write (all ranks, median, range)", "write duration",
                "restore (all ranks, median, range)", "restore duration"},
               {}};
  std::vector<double> ranks;
  for (const auto& p : paths_of(s))
    if (p.path)
      for (const auto& m : p.path->measured)
        if (std::find(ranks.begin(), ranks.end(), m.ranks) == ranks.end())
          ranks.push_back(m.ranks);
  std::sort(ranks.begin(), ranks.end());
  for (double n : ranks) {
    const auto* w = row_at(s.write, n);
    const auto* r = row_at(s.read, n);
    t.rows.push_back({fmt::format("{:g}", n), fmt::format("{}", w ? w->runs : r->runs),
                      w ? median_range(w->bytes_per_s, true) : "not measured",
                      w ? duration_text(w->duration_s) : "–",
                      r ? median_range(r->bytes_per_s, true) : "not measured",
                      r ? duration_text(r->duration_s) : "–"});
  }
  return t;
}

text_table checkpoint_model_table(const checkpoint_series_document& s) {
  text_table t{{"figure", "value"}, {}};
  for (const auto& p : paths_of(s)) {
    const std::string name = p.name;
    if (!p.path) {
      t.rows.push_back({name, "not measured"});
      continue;
    }
    t.rows.push_back({name + " line fit, every run", fit_text(p.path->fit)});
    t.rows.push_back({name + " knee (bandwidth stops growing)", p.path->knee.reason});
    t.rows.push_back({name + " best median", rate_text(p.path->best_bytes_per_s)});
  }
  return t;
}

text_table checkpoint_runs_table(const checkpoint_series_document& s) {
  text_table t{{"ranks", "write MB/s", "fitted MB/s", "residual MB/s", "restore MB/s",
                "fitted MB/s", "residual MB/s", "report"},
               {}};
  for (const auto& r : s.runs)
    t.rows.push_back({number_text(r.ranks, "{:g}"), mb(r.write_bytes_per_s, "{:.1f}"),
                      mb(r.write_fitted, "{:.1f}"), mb(r.write_residual, "{:+.1f}"),
                      mb(r.read_bytes_per_s, "{:.1f}"), mb(r.read_fitted, "{:.1f}"),
                      mb(r.read_residual, "{:+.1f}"), r.file});
  return t;
}

std::string write_path_note(const analysis::sizing_document& z) {
  return "Write path: " + z.write_path.note;
}

std::vector<std::string> checkpoint_summary_lines(const analysis::sizing_document& z) {
  std::vector<std::string> out;
  if (!z.read_path.measured)
    out.push_back("Read path: " + z.read_path.note);
  if (z.checkpoint_series.empty()) {
    out.push_back(write_path_note(z));
    return out;
  }
  for (const auto& s : z.checkpoint_series) {
    std::string line = checkpoint_title(s) + ":";
    for (const auto& p : paths_of(s)) {
      if (!p.path) {
        line += fmt::format(" {} not measured;", p.name);
        continue;
      }
      const auto& f = p.path->fit;
      line += fmt::format(" {} best {} at {} rank counts, {};", p.name,
                          rate_text(p.path->best_bytes_per_s), p.path->measured.size(),
                          f ? fmt::format("slope {} per rank", rate_text(f->line.slope))
                            : "no fit (one rank count)");
    }
    line.pop_back();
    out.push_back(line);
  }
  for (auto& l : goodput_summary_lines(z.goodput))
    out.push_back(std::move(l));
  return out;
}

} // namespace dlsize::render
