#include "render/compare_render.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <fmt/format.h>
#include "core/error.hpp"
#include "report/report_io.hpp"
#include "report/run_identity.hpp"
#include "analysis/stats.hpp"

namespace dlsize::render {

using namespace report; // the report envelope and identity

text_table compare_table(const nlohmann::json& c) {
  text_table t;
  t.header.push_back("metric");
  for (const auto& b : c["backends"])
    t.header.push_back(
        fmt::format("{} ({} runs)", b["backend"].get<std::string>(), b["runs"].get<std::size_t>()));
  for (const auto& row : c["metrics"]) {
    const std::string name = row["metric"];
    std::vector<std::string> cells = {fmt::format("{} ({})", name, row["unit"].get<std::string>())};
    for (std::size_t i = 0; i < c["backends"].size(); ++i) {
      const auto& v = c["backends"][i]["metrics"][name];
      if (v.is_null()) {
        cells.push_back("–");
        continue;
      }
      double med = v["median"].get<double>();
      std::string cell = row["unit"] == "bytes/s"
                             ? fmt::format("{:.1f} MB/s ({:.1f} MiB/s)", med / 1e6, med / 1048576.0)
                         : row["unit"] == "s" ? fmt::format("{:.3f} ms", med * 1e3)
                                              : fmt::format("{:.4g}", med);
      if (!v["spread"].is_null())
        cell += fmt::format(" ±{:.1f} %", 50 * v["spread"].get<double>());
      const auto& d = row["against_first"][i];
      if (i > 0 && !d.is_null()) {
        cell += fmt::format(", {:+.1f} %", 100 * d["delta"].get<double>());
        if (d["exceeds_spread"].is_boolean())
          cell += d["exceeds_spread"].get<bool>() ? " (beyond spread)" : " (within spread)";
      }
      cells.push_back(cell);
    }
    t.rows.push_back(cells);
  }
  std::vector<std::string> pass = {"AU pass"};
  for (const auto& b : c["backends"])
    pass.push_back(
        fmt::format("{} of {} runs", b["au_passes"].get<int>(), b["runs"].get<std::size_t>()));
  t.rows.push_back(pass);
  return t;
}

std::string compare_markdown(const nlohmann::json& c) {
  std::string out =
      fmt::format("# {} on {} × {}: backend comparison\n\nDataset: {}.\n\n",
                  c["workload"].get<std::string>(), c["accelerators"].get<int>(),
                  c["accelerator"].get<std::string>(), c["dataset"].get<std::string>());
  out += markdown_table(compare_table(c)) + "\n";
  for (const auto& b : c["backends"])
    out += fmt::format("- {}: AU pass in {} of {} runs; reports: {}\n",
                       b["backend"].get<std::string>(), b["au_passes"].get<int>(),
                       b["runs"].get<std::size_t>(), fmt::join(b["reports"], ", "));
  for (const auto& w : c["warnings"])
    out += fmt::format("- warning: {}\n", w.get<std::string>());
  return out;
}

} // namespace dlsize::render
