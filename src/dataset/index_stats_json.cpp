// The one place the JSON keys of `index stats` (and of the workload profile it emits) are
// written and read (dataset/index_stats_document.hpp).
#include "config/workload.hpp"
#include "dataset/index_stats_document.hpp"

namespace dlsize::dataset {
namespace {

using json = nlohmann::json;

constexpr const char* kSampleBytesSource =
    "measured on the indexed files: the histogram (log buckets within 6.25 %) gives datagen the "
    "shape; mean and stdev for what reads only those";

} // namespace

json to_json(const size_summary& s) {
  json buckets = json::array();
  for (const auto& b : s.buckets)
    buckets.push_back({b[0], b[1], b[2]});
  return {{"count", s.count},
          {"mean", s.mean},
          {"stdev", s.stdev},
          {"min", s.min},
          {"p10", s.p10},
          {"p50", s.p50},
          {"p90", s.p90},
          {"p99", s.p99},
          {"max", s.max},
          {"histogram",
           {{"unit", "bytes"},
            {"count", s.count},
            {"sum", s.sum},
            {"min", s.min},
            {"max", s.max},
            {"buckets", buckets}}}};
}

size_summary size_summary_from_json(const json& j) {
  size_summary s;
  s.count = j.at("count").get<std::uint64_t>();
  s.mean = j.at("mean").get<double>();
  s.stdev = j.at("stdev").get<double>();
  s.min = j.at("min").get<std::uint64_t>();
  s.p10 = j.at("p10").get<double>();
  s.p50 = j.at("p50").get<double>();
  s.p90 = j.at("p90").get<double>();
  s.p99 = j.at("p99").get<double>();
  s.max = j.at("max").get<std::uint64_t>();
  const auto& h = j.at("histogram");
  s.sum = h.at("sum").get<std::uint64_t>();
  for (const auto& b : h.at("buckets"))
    s.buckets.push_back(
        {b.at(0).get<std::uint64_t>(), b.at(1).get<std::uint64_t>(), b.at(2).get<std::uint64_t>()});
  return s;
}

json to_json(const index_stats_document& d) {
  json formats = json::object();
  for (const auto& [k, v] : d.formats)
    formats[k] = {{"files", v.files}, {"bytes", v.bytes}, {"samples", v.samples}};
  const auto& p = d.samples_per_file;
  const auto& f = d.files_per_folder;
  return {{"index", d.index},
          {"dir", d.dir},
          {"digest", d.digest},
          {"files", d.files},
          {"bytes", d.bytes},
          {"samples", d.samples},
          {"files_with_records", d.files_with_records},
          {"bytes_per_sample", d.bytes_per_sample},
          {"file_bytes", to_json(d.file_bytes)},
          {"sample_bytes", to_json(d.sample_bytes)},
          {"samples_per_file", {{"mean", p.mean}, {"p50", p.p50}, {"max", p.max}}},
          {"files_per_folder",
           {{"folders", f.folders}, {"mean", f.mean}, {"p50", f.p50}, {"max", f.max}}},
          {"formats", formats},
          {"skipped", d.skipped}};
}

index_stats_document index_stats_from_json(const json& j) {
  index_stats_document d;
  d.index = j.at("index").get<std::string>();
  d.dir = j.at("dir").get<std::string>();
  d.digest = j.at("digest").get<std::string>();
  d.files = j.at("files").get<std::uint64_t>();
  d.bytes = j.at("bytes").get<std::uint64_t>();
  d.samples = j.at("samples").get<std::uint64_t>();
  d.files_with_records = j.at("files_with_records").get<std::uint64_t>();
  d.bytes_per_sample = j.at("bytes_per_sample").get<double>();
  d.file_bytes = size_summary_from_json(j.at("file_bytes"));
  d.sample_bytes = size_summary_from_json(j.at("sample_bytes"));
  const auto& p = j.at("samples_per_file");
  d.samples_per_file = {p.at("mean").get<double>(), p.at("p50").get<double>(),
                        p.at("max").get<std::uint64_t>()};
  const auto& f = j.at("files_per_folder");
  d.files_per_folder = {f.at("folders").get<std::uint64_t>(), f.at("mean").get<double>(),
                        f.at("p50").get<double>(), f.at("max").get<std::uint64_t>()};
  for (const auto& [k, v] : j.at("formats").items())
    d.formats[k] = {v.at("files").get<std::uint64_t>(), v.at("bytes").get<std::uint64_t>(),
                    v.at("samples").get<std::uint64_t>()};
  d.skipped = j.at("skipped").get<std::map<std::string, std::uint64_t>>();
  return d;
}

json to_json(const shape_workload& w) {
  json sample_bytes = {{"mean", w.sample_bytes_mean},
                       {"stdev", w.sample_bytes_stdev},
                       {"source", kSampleBytesSource}};
  if (!w.histogram.empty()) {
    json buckets = json::array();
    for (const auto& b : w.histogram)
      buckets.push_back({b.low, b.high, b.count});
    sample_bytes["histogram"] = buckets;
  }
  return {{"schema", config::kWorkloadSchema},
          {"name", w.name},
          {"description", w.description},
          {"source", w.source},
          {"dataset",
           {{"layout", w.shards ? "shards" : "files"},
            {"format", w.format},
            {"records_per_file", w.records_per_file},
            {"files", w.files},
            {"sample_bytes", sample_bytes}}},
          {"au_threshold", w.au_threshold}};
}

} // namespace dlsize::dataset
