#include "render/report_csv.hpp"

#include <functional>

#include <fmt/format.h>

#include "report/bench_report.hpp"

namespace dlsize::render {
namespace {

using report::bench_report;
using report::field;
using report::or_empty;

// A cell: "" for an absent or null field; numbers as the shortest text that reads back exactly.
std::string cell(const field<std::string>& f) {
  return f.value_or("");
}
std::string cell(const field<double>& f) {
  return f.has_value() ? fmt::format("{}", *f) : std::string();
}
std::string cell(const field<std::uint64_t>& f) {
  return f.has_value() ? std::to_string(*f) : std::string();
}
std::string cell(const field<bool>& f) {
  return f.has_value() ? std::string(*f ? "true" : "false") : std::string();
}
std::string cell(const field<report::run_status>& f) {
  return f.has_value() ? report::to_string(*f) : std::string();
}

// A column: its header (name and unit) and its value in a report.
struct column {
  const char* header;
  std::function<std::string(const analysis::loaded_report&, const bench_report&)> value;
};

// The backend's name: the report's label, else "PATH (FS_TYPE)" as summaries show it.
std::string label_of(const bench_report& r) {
  if (r.label.has_value())
    return *r.label;
  const auto& d = or_empty(r.dataset);
  return fmt::format("{} ({})", d.path.value_or(""), d.fs_type.value_or(""));
}

std::string accelerator_of(const bench_report& r) {
  const auto& w = or_empty(r.workload);
  return w.accelerator && w.accelerator->type.has_value() ? *w.accelerator->type : "none";
}

// One column per typed field: its header and the field's place.
#define DLSIZE_CSV_FIELD(header, expr)                                                             \
  column {                                                                                         \
    header, [](const analysis::loaded_report&, const bench_report& r) { return cell(expr); }       \
  }

const std::vector<column>& columns() {
  static const std::vector<column> c = {
      {"file", [](const analysis::loaded_report& lr, const bench_report&) { return lr.file; }},
      DLSIZE_CSV_FIELD("run_id", r.run_id),
      {"label", [](const analysis::loaded_report&, const bench_report& r) { return label_of(r); }},
      DLSIZE_CSV_FIELD("created_at [UTC]", r.created_at),
      DLSIZE_CSV_FIELD("workload", or_empty(r.workload).name),
      {"accelerator",
       [](const analysis::loaded_report&, const bench_report& r) { return accelerator_of(r); }},
      DLSIZE_CSV_FIELD("accelerators", or_empty(r.topology).accelerators),
      DLSIZE_CSV_FIELD("ranks", or_empty(r.topology).ranks),
      DLSIZE_CSV_FIELD("nodes", or_empty(r.topology).nodes),
      DLSIZE_CSV_FIELD("engine", or_empty(r.io).engine),
      DLSIZE_CSV_FIELD("cache_mode", or_empty(r.io).cache_mode),
      DLSIZE_CSV_FIELD("max_read_rate [B/s]", or_empty(r.io).max_read_rate),
      DLSIZE_CSV_FIELD("fs_type", or_empty(r.dataset).fs_type),
      DLSIZE_CSV_FIELD("dataset_bytes [B]", or_empty(r.dataset).bytes),
      DLSIZE_CSV_FIELD("epochs", or_empty(r.summary).epochs),
      DLSIZE_CSV_FIELD("epochs_completed", or_empty(r.summary).epochs_completed),
      DLSIZE_CSV_FIELD("samples", or_empty(r.summary).samples),
      DLSIZE_CSV_FIELD("read_bytes [B]", or_empty(r.summary).read_bytes),
      DLSIZE_CSV_FIELD("wall_s [s]", or_empty(r.summary).wall_s),
      DLSIZE_CSV_FIELD("samples_per_s [1/s]", or_empty(r.summary).samples_per_s),
      DLSIZE_CSV_FIELD("samples_per_s_per_accelerator [1/s]",
                       or_empty(r.summary).samples_per_s_per_accelerator),
      DLSIZE_CSV_FIELD("read_bytes_per_s [B/s]", or_empty(r.summary).read_bytes_per_s),
      DLSIZE_CSV_FIELD("storage_read_bytes_per_s [B/s]", or_empty(r.storage).read_bytes_per_s),
      DLSIZE_CSV_FIELD("hit_ratio [1]", or_empty(r.storage).hit_ratio),
      DLSIZE_CSV_FIELD("accelerator_utilization [1]", or_empty(r.summary).accelerator_utilization),
      DLSIZE_CSV_FIELD("au_threshold [1]", or_empty(r.summary).au_threshold),
      DLSIZE_CSV_FIELD("au_pass", or_empty(r.summary).au_pass),
      DLSIZE_CSV_FIELD("data_wait_p99_s [s]", or_empty(or_empty(r.summary).data_wait).p99_s),
      DLSIZE_CSV_FIELD("read_latency_p99_s [s]", or_empty(or_empty(r.io).latency).p99_s),
      DLSIZE_CSV_FIELD("cpu_process [cores]",
                       or_empty(or_empty(r.summary).cpu_utilization).process),
      DLSIZE_CSV_FIELD("status", r.status),
      DLSIZE_CSV_FIELD("reason", r.reason),
  };
  return c;
}

#undef DLSIZE_CSV_FIELD

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos)
    return s;
  std::string q = "\"";
  for (char c : s)
    q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

} // namespace

std::string reports_csv(const std::vector<analysis::loaded_report>& reports) {
  std::vector<std::string> header;
  for (const auto& c : columns())
    header.push_back(csv_field(c.header));
  std::string out = fmt::format("{}\r\n", fmt::join(header, ","));
  for (const auto& lr : reports) {
    const bench_report& r = lr.fields; // a checkpoint report's: the fields it shares with bench's
    std::vector<std::string> row;
    for (const auto& c : columns())
      row.push_back(csv_field(c.value(lr, r)));
    out += fmt::format("{}\r\n", fmt::join(row, ","));
  }
  return out;
}

} // namespace dlsize::render
