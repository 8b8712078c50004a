#include "render/compare_render.hpp"

#include <fmt/format.h>

#include "render/human_number.hpp"
#include "render/point_validity_text.hpp"
#include "render/text_table.hpp"

namespace dlsize::render {

std::string compare_summary(const nlohmann::json& c) {
  std::string out = "## Summary\n\n";
  for (const auto& sec : c.value("by_accelerators", nlohmann::json::array())) {
    const auto& bs = sec["backends"];
    if (bs.size() < 2)
      continue;
    // The fastest backend on median samples/s, against each other one.
    std::size_t win = 0;
    auto sps = [&](std::size_t i) {
      const auto& m = bs[i]["metrics"]["samples_per_s"];
      return m.is_null() ? 0.0 : m["median"].get<double>();
    };
    for (std::size_t i = 1; i < bs.size(); ++i)
      if (sps(i) > sps(win))
        win = i;
    const auto& vs = sec["samples_per_s_against_first"];
    for (std::size_t i = 0; i < bs.size(); ++i) {
      if (i == win)
        continue;
      // ratio of the winner over backend i, from the intervals against the first
      std::string how;
      if (i == 0)
        how = vs[win]["text"].get<std::string>();
      else if (win == 0 && vs[i]["ratio"].is_number())
        how = fmt::format("{:.3g}× (95 % CI {:.3g} to {:.3g})", 1 / vs[i]["ratio"].get<double>(),
                          1 / vs[i]["ci95"][1].get<double>(), 1 / vs[i]["ci95"][0].get<double>());
      else
        how = win == 0 ? vs[i]["text"].get<std::string>() : "against the first only";
      out += fmt::format("- {} accelerators: **{}** gives {} samples/s against {} for {}: {}\n",
                         sec["accelerators"].get<int>(), bs[win]["backend"].get<std::string>(),
                         render::human(sps(win)), render::human(sps(i)),
                         bs[i]["backend"].get<std::string>(), how);
    }
  }
  std::size_t points = 0, qualifying = 0;
  std::string edition = "v2";
  for (const auto& sec : c.value("by_accelerators", nlohmann::json::array()))
    for (const auto& b : sec["backends"]) {
      ++points;
      const auto v = analysis::point_validity_from_json(b.at("mlperf_validity"));
      qualifying += v.qualifies() ? 1 : 0;
      edition = rules_edition_of(v);
    }
  if (points > 0)
    out += "- " + qualifying_line(qualifying, points, edition) + "\n";
  for (const auto& l : c.value("left_out", nlohmann::json::array()))
    out += fmt::format("- left out: {} ({})\n", l["file"].get<std::string>(),
                       l["reason"].get<std::string>());
  return out + "\n";
}

text_table compare_validity_table(const nlohmann::json& c) {
  text_table t{
      {"accelerators", "backend", "MLPerf Storage", "runs counted", "warm-up", "samples/s spread"},
      {}};
  for (const auto& sec : c.value("by_accelerators", nlohmann::json::array()))
    for (const auto& b : sec["backends"]) {
      const nlohmann::json v = b.value("mlperf_validity", nlohmann::json());
      if (!v.is_object())
        continue;
      t.rows.push_back({fmt::format("{}", sec["accelerators"].get<int>()),
                        b["backend"].get<std::string>(),
                        point_validity_cell(analysis::point_validity_from_json(v)),
                        fmt::format("{}", v["runs_counted"].get<std::size_t>()),
                        v["warm_up"].is_string() ? v["warm_up"].get<std::string>() : "–",
                        v["samples_per_s_spread"].is_number()
                            ? fmt::format("{:.1f} %", 100 * v["samples_per_s_spread"].get<double>())
                            : "–"});
    }
  return t;
}

std::string compare_validity_markdown(const nlohmann::json& c) {
  std::string out =
      "## MLPerf Storage validity per point\n\n" + markdown_table(compare_validity_table(c)) + "\n";
  for (const auto& sec : c.value("by_accelerators", nlohmann::json::array()))
    for (const auto& b : sec["backends"]) {
      out += fmt::format("- {} accelerators, {}:\n", sec["accelerators"].get<int>(),
                         b["backend"].get<std::string>());
      for (const auto& l :
           point_validity_lines(analysis::point_validity_from_json(b.at("mlperf_validity"))))
        out += "  - " + l + "\n";
    }
  return out + "\n";
}

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
                             ? fmt::format("{} MB/s ({} MiB/s)", render::human(med / 1e6),
                                           render::human(med / 1048576.0))
                         : row["unit"] == "s" ? fmt::format("{} ms", render::human(med * 1e3))
                         : name == "accelerator_utilization" ? render::au_text(med)
                                                             : render::human(med);
      if (!v["spread"].is_null())
        cell += fmt::format(" ±{:.1f} %", 50 * v["spread"].get<double>());
      if (v.value("synthetic", false))
        cell += " (synthetic: --max-read-rate)";
      const auto& d = row["against_first"][i];
      if (i > 0 && !d.is_null()) {
        cell += fmt::format(", {:+.1f} %", 100 * d["delta"].get<double>());
        if (d.contains("verdict") && d["verdict"] != "not known")
          cell += fmt::format(" ({})", d["verdict"].get<std::string>());
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
      fmt::format("# {} on {} × {}: backend comparison\n\n", c["workload"].get<std::string>(),
                  c["accelerators"].get<int>(), c["accelerator"].get<std::string>());
  out += compare_summary(c) + fmt::format("Dataset: {}.\n\n", c["dataset"].get<std::string>());
  out += markdown_table(compare_table(c)) + "\n";
  if (c.contains("by_accelerators") && c["by_accelerators"].size() > 1)
    for (const auto& sec : c["by_accelerators"]) {
      if (sec["accelerators"] == c["accelerators"])
        continue;
      nlohmann::json part = c;
      part["backends"] = sec["backends"];
      part["metrics"] = sec["metrics"];
      out += fmt::format("## {} accelerators\n\n", sec["accelerators"].get<int>()) +
             markdown_table(compare_table(part)) + "\n";
    }
  out += compare_validity_markdown(c);
  for (const auto& b : c["backends"])
    out += fmt::format("- {}: AU pass in {} of {} runs; reports: {}\n",
                       b["backend"].get<std::string>(), b["au_passes"].get<int>(),
                       b["runs"].get<std::size_t>(), fmt::join(b["reports"], ", "));
  for (const auto& w : c["warnings"])
    out += fmt::format("- warning: {}\n", w.get<std::string>());
  return out;
}

} // namespace dlsize::render
