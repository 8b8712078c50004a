#include "render/checkpoint_tables.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/units.hpp"
#include "render/sizing_tables.hpp"

namespace dlsize::render {
namespace {

constexpr const char* kPaths[] = {"write", "read"};

const char* path_name(const char* path) {
  return path[0] == 'w' ? "write" : "restore";
}

// The measured row of a path at a rank count, or null where that path has none.
const nlohmann::json& row_at(const nlohmann::json& path, double ranks) {
  static const nlohmann::json none;
  if (path.is_object())
    for (const auto& m : path["measured"])
      if (m["ranks"].get<double>() == ranks)
        return m;
  return none;
}

std::string duration_text(const nlohmann::json& d) {
  if (d.is_null())
    return "–";
  return d["min"] == d["max"] ? fmt::format("{:.3g} s", d["median"].get<double>())
                              : fmt::format("{:.3g} s ({:.3g}–{:.3g})", d["median"].get<double>(),
                                            d["min"].get<double>(), d["max"].get<double>());
}

std::string fit_text(const nlohmann::json& f) {
  if (!f.is_object())
    return "none: fewer than two rank counts";
  return fmt::format("bytes/s = intercept + slope × ranks: slope {} per rank (95 % CI {}), "
                     "intercept {} (95 % CI {}), R² {:.4f}, n {}",
                     rate_text(f["slope"]), interval_text(f["slope_ci95"], true),
                     rate_text(f["intercept"]), interval_text(f["intercept_ci95"], true),
                     f["r2"].get<double>(), f["n"].get<int>());
}

} // namespace

std::string checkpoint_title(const nlohmann::json& s) {
  return fmt::format("{} checkpoints ({}), {}, {} I/O, {} each{}{}",
                     s["workload"].get<std::string>(), s["source"].get<std::string>(),
                     s["backend"].get<std::string>(), s["cache_mode"].get<std::string>(),
                     s["bytes_per_checkpoint"].is_number()
                         ? units::format_bytes_binary(s["bytes_per_checkpoint"].get<double>())
                         : "–",
                     s["scale"].is_number() && s["scale"].get<double>() != 1
                         ? fmt::format(", scale {:.3g}", s["scale"].get<double>())
                         : "",
                     s["subset"].get<bool>() ? ", subset" : "");
}

text_table checkpoint_measured_table(const nlohmann::json& s) {
  text_table t{{"ranks", "runs", "write (all ranks, median, range)", "write duration",
                "restore (all ranks, median, range)", "restore duration"},
               {}};
  std::vector<double> ranks;
  for (const char* p : kPaths)
    if (s[p].is_object())
      for (const auto& m : s[p]["measured"])
        if (std::find(ranks.begin(), ranks.end(), m["ranks"].get<double>()) == ranks.end())
          ranks.push_back(m["ranks"].get<double>());
  std::sort(ranks.begin(), ranks.end());
  for (double n : ranks) {
    const auto& w = row_at(s["write"], n);
    const auto& r = row_at(s["read"], n);
    const auto runs = w.is_object() ? w["runs"] : r["runs"];
    t.rows.push_back({fmt::format("{:g}", n), runs.dump(),
                      w.is_object() ? median_range(w["bytes_per_s"], true) : "not measured",
                      w.is_object() ? duration_text(w["duration_s"]) : "–",
                      r.is_object() ? median_range(r["bytes_per_s"], true) : "not measured",
                      r.is_object() ? duration_text(r["duration_s"]) : "–"});
  }
  return t;
}

text_table checkpoint_model_table(const nlohmann::json& s) {
  text_table t{{"figure", "value"}, {}};
  for (const char* p : kPaths) {
    const auto& path = s[p];
    const std::string name = path_name(p);
    if (!path.is_object()) {
      t.rows.push_back({name, "not measured"});
      continue;
    }
    t.rows.push_back({name + " line fit, every run", fit_text(path["fit"])});
    t.rows.push_back(
        {name + " knee (bandwidth stops growing)", path["knee"]["reason"].get<std::string>()});
    t.rows.push_back({name + " best median", rate_text(path["best_bytes_per_s"])});
  }
  return t;
}

text_table checkpoint_runs_table(const nlohmann::json& s) {
  text_table t{{"ranks", "write MB/s", "fitted MB/s", "residual MB/s", "restore MB/s",
                "fitted MB/s", "residual MB/s", "report"},
               {}};
  for (const auto& r : s["runs"])
    t.rows.push_back({number_text(r["ranks"], "{:g}"), mb(r["write_bytes_per_s"], "{:.1f}"),
                      mb(r["write_fitted"], "{:.1f}"), mb(r["write_residual"], "{:+.1f}"),
                      mb(r["read_bytes_per_s"], "{:.1f}"), mb(r["read_fitted"], "{:.1f}"),
                      mb(r["read_residual"], "{:+.1f}"), r["file"].get<std::string>()});
  return t;
}

std::string write_path_note(const nlohmann::json& z) {
  return "Write path: " + (z.contains("paths") ? z["paths"]["write"]["note"].get<std::string>()
                                               : std::string("not measured"));
}

std::vector<std::string> checkpoint_summary_lines(const nlohmann::json& z) {
  std::vector<std::string> out;
  if (z.contains("paths") && !z["paths"]["read"]["measured"].get<bool>())
    out.push_back("Read path: " + z["paths"]["read"]["note"].get<std::string>());
  if (!z.contains("checkpoint_series") || z["checkpoint_series"].empty()) {
    out.push_back(write_path_note(z));
    return out;
  }
  for (const auto& s : z["checkpoint_series"]) {
    std::string line = checkpoint_title(s) + ":";
    for (const char* p : kPaths) {
      const auto& path = s[p];
      if (!path.is_object()) {
        line += fmt::format(" {} not measured;", path_name(p));
        continue;
      }
      const auto& f = path["fit"];
      line += fmt::format(" {} best {} at {} rank counts, {};", path_name(p),
                          rate_text(path["best_bytes_per_s"]), path["measured"].size(),
                          f.is_object() ? fmt::format("slope {} per rank", rate_text(f["slope"]))
                                        : "no fit (one rank count)");
    }
    line.pop_back();
    out.push_back(line);
  }
  return out;
}

} // namespace dlsize::render
