#include "render/report_csv.hpp"

#include <fmt/format.h>

namespace dlsize::render {
namespace {

// A column: its header (name and unit) and where its value sits in the report.
struct column {
  const char* header;
  const char* pointer; // JSON pointer into the report; "" for a computed one
};

const std::vector<column>& columns() {
  static const std::vector<column> c = {
      {"file", ""},
      {"run_id", "/run_id"},
      {"label", ""},
      {"created_at [UTC]", "/created_at"},
      {"workload", "/workload/name"},
      {"accelerator", ""},
      {"accelerators", "/topology/accelerators"},
      {"ranks", "/topology/ranks"},
      {"nodes", "/topology/nodes"},
      {"engine", "/io/engine"},
      {"cache_mode", "/io/cache_mode"},
      {"max_read_rate [B/s]", "/io/max_read_rate"},
      {"fs_type", "/dataset/fs_type"},
      {"dataset_bytes [B]", "/dataset/bytes"},
      {"epochs", "/summary/epochs"},
      {"epochs_completed", "/summary/epochs_completed"},
      {"samples", "/summary/samples"},
      {"read_bytes [B]", "/summary/read_bytes"},
      {"wall_s [s]", "/summary/wall_s"},
      {"samples_per_s [1/s]", "/summary/samples_per_s"},
      {"samples_per_s_per_accelerator [1/s]", "/summary/samples_per_s_per_accelerator"},
      {"read_bytes_per_s [B/s]", "/summary/read_bytes_per_s"},
      {"storage_read_bytes_per_s [B/s]", "/storage/read_bytes_per_s"},
      {"hit_ratio [1]", "/storage/hit_ratio"},
      {"accelerator_utilization [1]", "/summary/accelerator_utilization"},
      {"au_threshold [1]", "/summary/au_threshold"},
      {"au_pass", "/summary/au_pass"},
      {"data_wait_p99_s [s]", "/summary/data_wait/p99_s"},
      {"read_latency_p99_s [s]", "/io/latency/p99_s"},
      {"cpu_process [cores]", "/summary/cpu_utilization/process"},
      {"status", "/status"},
      {"reason", "/reason"},
  };
  return c;
}

std::string cell(const nlohmann::json& v) {
  if (v.is_null())
    return "";
  if (v.is_string())
    return v.get<std::string>();
  if (v.is_number_float())
    return fmt::format("{}", v.get<double>()); // shortest text that reads back exactly
  return v.dump();
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos)
    return s;
  std::string q = "\"";
  for (char c : s)
    q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

// The backend's name: the report's label, else "PATH (FS_TYPE)" as summaries show it.
std::string label_of(const nlohmann::json& r) {
  if (r.contains("label") && r["label"].is_string())
    return r["label"];
  const auto& d = r.value("dataset", nlohmann::json::object());
  return fmt::format("{} ({})", d.value("path", ""), d.value("fs_type", ""));
}

std::string accelerator_of(const nlohmann::json& r) {
  const auto p = "/workload/accelerator/type"_json_pointer;
  return r.contains(p) && r[p].is_string() ? r[p].get<std::string>() : "none";
}

} // namespace

std::string reports_csv(const std::vector<analysis::loaded_report>& reports) {
  std::vector<std::string> header;
  for (const auto& c : columns())
    header.push_back(csv_field(c.header));
  std::string out = fmt::format("{}\r\n", fmt::join(header, ","));
  for (const auto& lr : reports) {
    std::vector<std::string> row;
    for (const auto& c : columns()) {
      std::string v;
      if (std::string_view(c.header) == "file")
        v = lr.file;
      else if (std::string_view(c.header) == "label")
        v = label_of(lr.report);
      else if (std::string_view(c.header) == "accelerator")
        v = accelerator_of(lr.report);
      else if (const nlohmann::json::json_pointer p(c.pointer); lr.report.contains(p))
        v = cell(lr.report[p]);
      row.push_back(csv_field(v));
    }
    out += fmt::format("{}\r\n", fmt::join(row, ","));
  }
  return out;
}

} // namespace dlsize::render
