#include "dataset/index_stats.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "config/size_histogram.hpp"
#include "dataset/index_file.hpp"

namespace dlsize::dataset {
namespace fs = std::filesystem;

double size_distribution::mean() const {
  return count() ? m_sum / static_cast<double>(count()) : 0.0;
}

double size_distribution::stdev() const {
  if (!count())
    return 0.0;
  const double m = mean();
  return std::sqrt(std::max(0.0, m_sq / static_cast<double>(count()) - m * m));
}

nlohmann::json size_distribution::to_json() const {
  nlohmann::json hist = m_h.to_json();
  hist["unit"] = "bytes";
  hist.erase("sub_buckets_per_octave");
  return {{"count", count()},         {"mean", mean()},
          {"stdev", stdev()},         {"min", m_h.min()},
          {"p10", m_h.quantile(0.1)}, {"p50", m_h.quantile(0.5)},
          {"p90", m_h.quantile(0.9)}, {"p99", m_h.quantile(0.99)},
          {"max", m_h.max()},         {"histogram", hist}};
}

nlohmann::json index_stats(const fs::path& index, const sample_visitor& visit) {
  index_reader in(index);
  size_distribution files, samples;
  histogram per_file;
  std::map<std::string, std::uint64_t> folders; // grows with folders, not files
  std::uint64_t records_files = 0;
  index_line line;
  while (in.next(line)) {
    if (line.skipped)
      continue;
    const auto size = line.size.value_or(0);
    files.add(size);
    const auto slash = line.path.rfind('/');
    ++folders[slash == std::string::npos ? "" : line.path.substr(0, slash)];
    if (!line.records) {
      samples.add(size);
      per_file.record(1);
      if (visit)
        visit({size, 0, size});
      continue;
    }
    ++records_files;
    per_file.record(line.records->size());
    for (const auto& [offset, length] : *line.records) {
      const indexed_sample s{size, offset, length};
      samples.add(s.length);
      if (visit)
        visit(s);
    }
  }
  histogram per_folder;
  for (const auto& [k, n] : folders)
    per_folder.record(n);
  const auto& counts = in.header().counts;
  return {{"index", fs::absolute(index).string()},
          {"dir", in.dir().string()},
          {"digest", in.header().digest},
          {"files", files.count()},
          {"bytes", counts.bytes},
          {"samples", samples.count()},
          {"files_with_records", records_files},
          {"bytes_per_sample", samples.mean()},
          {"file_bytes", files.to_json()},
          {"sample_bytes", samples.to_json()},
          {"samples_per_file",
           {{"mean", per_file.mean()}, {"p50", per_file.quantile(0.5)}, {"max", per_file.max()}}},
          {"files_per_folder",
           {{"folders", folders.size()},
            {"mean", per_folder.mean()},
            {"p50", per_folder.quantile(0.5)},
            {"max", per_folder.max()}}},
          {"formats", formats_json(counts)},
          {"skipped", counts.skipped}};
}

nlohmann::json workload_of_shape(const nlohmann::json& stats, const std::string& name) {
  const auto files = stats.at("files").get<std::uint64_t>();
  const auto samples = stats.at("samples").get<std::uint64_t>();
  const bool shards = stats.at("files_with_records").get<std::uint64_t>() > 0;
  std::string format = "mixed";
  std::uint64_t most = 0;
  for (const auto& [k, v] : stats.at("formats").items())
    if (v.value("samples", std::uint64_t{0}) > most) { // the format most samples are in
      most = v.value("samples", std::uint64_t{0});
      format = k;
    }
  const auto per_file =
      files ? std::max<std::uint64_t>(
                  1, static_cast<std::uint64_t>(
                         std::llround(static_cast<double>(samples) / static_cast<double>(files))))
            : 1;
  const auto& sb = stats.at("sample_bytes");
  nlohmann::json buckets = nlohmann::json::array();
  for (const auto& b : sb.at("histogram").at("buckets"))
    if (b.at(2).get<std::uint64_t>() > 0) // the profile's form: low >= 1, high <= 4e9
      buckets.push_back({std::max(1.0, b.at(0).get<double>()),
                         std::min(4e9, std::max(2.0, b.at(1).get<double>())), b.at(2)});
  nlohmann::json out = {
      {"name", name},
      {"description", fmt::format("The shape of the dataset indexed in {} ({} files, {} "
                                  "samples). Add the accelerators' compute times before "
                                  "training runs.",
                                  stats.at("index").get<std::string>(), files, samples)},
      {"source",
       fmt::format("dlsize index stats of {} (digest {})", stats.at("index").get<std::string>(),
                   stats.at("digest").get<std::string>())},
      {"dataset",
       {{"layout", shards ? "shards" : "files"},
        {"format", format},
        {"records_per_file", shards ? per_file : 1},
        {"files", std::max<std::uint64_t>(1, files)},
        {"sample_bytes",
         {{"mean", std::max(64.0, sb.at("mean").get<double>())},
          {"stdev", sb.at("stdev").get<double>()},
          {"source", "measured on the indexed files: the histogram (log buckets within "
                     "6.25 %) gives datagen the shape; mean and stdev for what reads "
                     "only those"}}}}},
      {"au_threshold", 0.9}};
  if (!buckets.empty() && buckets.size() <= config::size_histogram::kMaxBuckets)
    out["dataset"]["sample_bytes"]["histogram"] = buckets;
  return out;
}

} // namespace dlsize::dataset
