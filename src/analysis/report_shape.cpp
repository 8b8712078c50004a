#include "analysis/report_shape.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/json_input.hpp"

namespace dlsize::analysis {
namespace {

using json = nlohmann::json;

struct typed_field {
  const char* pointer;
  json::value_t type; // number_float stands for any number
};

// The fields the readers open or read typed; a typed bench_report (from_json) would own this.
const std::vector<typed_field>& report_fields() {
  using v = json::value_t;
  static const std::vector<typed_field> f = {
      {"/schema", v::string},
      {"/kind", v::string},
      {"/status", v::string},
      {"/run_id", v::string},
      {"/created_at", v::string},
      {"/accelerators", v::array},
      {"/command_line", v::array},
      {"/epochs", v::array},
      {"/timeseries", v::array},
      {"/warnings", v::array},
      {"/config", v::object},
      {"/dataset", v::object},
      {"/dataset/bytes", v::number_float},
      {"/dataset/files", v::number_float},
      {"/dataset/records_per_file", v::number_float},
      {"/dataset/samples", v::number_float},
      {"/dataset/dataset_id", v::string},
      {"/dataset/fs_type", v::string},
      {"/dataset/path", v::string},
      {"/io", v::object},
      {"/io/cache_mode", v::string},
      {"/io/histogram", v::object},
      {"/io/latency", v::object},
      {"/io/sample_latency", v::object},
      {"/preprocessing", v::object},
      {"/storage", v::object},
      {"/summary", v::object},
      {"/summary/au_pass", v::boolean},
      {"/summary/cpu_utilization", v::object},
      {"/summary/data_wait", v::object},
      {"/system", v::object},
      {"/system/hosts", v::array},
      {"/tool", v::object},
      {"/tool/features", v::object},
      {"/topology", v::object},
      {"/topology/accelerators", v::number_float},
      {"/topology/nodes", v::number_float},
      {"/topology/ranks", v::number_float},
      {"/workload", v::object},
      {"/workload/name", v::string},
      {"/workload/accelerator", v::object},
      {"/workload/accelerator/type", v::string},
      {"/workload/model", v::object},
  };
  return f;
}

// The figures size and compare compute with, and their ranges: rates, sizes and times are never
// negative; utilizations, thresholds and hit ratios are shares.
struct ranged_field {
  const char* pointer;
  double max; // inclusive; the minimum is 0
};
const std::vector<ranged_field>& ranged_fields() {
  constexpr double any = 1e300;
  static const std::vector<ranged_field> f = {
      {"/summary/read_bytes_per_s", any},
      {"/summary/samples_per_s", any},
      {"/summary/samples_per_s_per_accelerator", any},
      {"/summary/demand_bytes_per_s_per_accelerator", any},
      {"/summary/wall_s", any},
      {"/summary/accelerator_utilization", 1},
      {"/summary/storage_au", 1},
      {"/summary/au_threshold", 1},
      {"/storage/hit_ratio", 1},
      {"/storage/read_bytes_per_s", any},
      {"/dataset/bytes", any},
      {"/dataset/client_ram_bytes", any},
      {"/workload/mean_sample_bytes", any},
      {"/io/max_read_rate", any},
  };
  return f;
}

bool has_type(const json& v, json::value_t t) {
  if (t == json::value_t::number_float)
    return v.is_number();
  if (t == json::value_t::object || t == json::value_t::array)
    return v.type() == t;
  return v.type() == t || v.is_null();
}

const char* type_text(json::value_t t) {
  switch (t) {
  case json::value_t::object:
    return "an object";
  case json::value_t::array:
    return "an array";
  case json::value_t::string:
    return "a string";
  case json::value_t::boolean:
    return "true or false";
  case json::value_t::null:
    return "null";
  default:
    return "a number";
  }
}

} // namespace

void check_report_shape(const json& j, const std::string& file) {
  if (!j.is_object())
    throw usage_error(fmt::format("{}: /: is {}. valid: a dlsize report (a JSON object)", file,
                                  type_text(j.type())));
  for (const auto& f : report_fields()) {
    const json::json_pointer p(f.pointer);
    // A parent of the wrong type is named by its own entry, which comes first.
    if (!j.contains(p))
      continue;
    const json& v = j.at(p);
    if (!has_type(v, f.type))
      throw usage_error(fmt::format("{}: {}: is {}. valid: {}", file, f.pointer,
                                    type_text(v.type()), type_text(f.type)));
  }
  for (const auto& f : ranged_fields()) {
    const json::json_pointer p(f.pointer);
    if (!j.contains(p) || !j.at(p).is_number())
      continue; // absent or null: not measured; another type: named above
    const double v = j.at(p).get<double>();
    if (!(v >= 0 && v <= f.max))
      throw usage_error(fmt::format("{}: {}: {} is out of range. valid: {}", file, f.pointer, v,
                                    f.max == 1 ? "a share from 0 to 1" : "a number >= 0"));
  }
}

void throw_report_shape_error(const std::vector<loaded_report>& reports, const std::exception& e) {
  std::vector<std::string> files;
  for (const auto& r : reports)
    files.push_back(r.file);
  throw usage_error(fmt::format("{}: a field has a type the reader does not expect ({}). valid: "
                                "reports as dlsize bench writes them (dlsize validate names the "
                                "key)",
                                fmt::join(files, ", "), core::json_error_text(e)));
}

} // namespace dlsize::analysis
