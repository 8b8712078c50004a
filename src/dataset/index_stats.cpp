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

size_summary size_distribution::summary() const {
  size_summary s{count(),
                 mean(),
                 stdev(),
                 m_h.min(),
                 m_h.quantile(0.1),
                 m_h.quantile(0.5),
                 m_h.quantile(0.9),
                 m_h.quantile(0.99),
                 m_h.max(),
                 m_h.sum(),
                 {}};
  m_h.for_each_bucket([&](std::uint64_t low, std::uint64_t high, std::uint64_t n) {
    s.buckets.push_back({low, high, n});
  });
  return s;
}

index_stats_document index_stats(const fs::path& index, const sample_visitor& visit) {
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
  index_stats_document d;
  d.index = fs::absolute(index).string();
  d.dir = in.dir().string();
  d.digest = in.header().digest;
  d.files = files.count();
  d.bytes = counts.bytes;
  d.samples = samples.count();
  d.files_with_records = records_files;
  d.bytes_per_sample = samples.mean();
  d.file_bytes = files.summary();
  d.sample_bytes = samples.summary();
  d.samples_per_file = {per_file.mean(), per_file.quantile(0.5), per_file.max()};
  d.files_per_folder = {folders.size(), per_folder.mean(), per_folder.quantile(0.5),
                        per_folder.max()};
  for (const auto& [k, v] : counts.formats)
    d.formats[k] = {v[0], v[1], v[2]};
  d.skipped = counts.skipped;
  return d;
}

shape_workload workload_of_shape(const index_stats_document& stats, const std::string& name) {
  const auto files = stats.files;
  const auto samples = stats.samples;
  shape_workload w;
  w.shards = stats.files_with_records > 0;
  w.format = "mixed";
  std::uint64_t most = 0;
  for (const auto& [k, v] : stats.formats)
    if (v.samples > most) { // the format most samples are in
      most = v.samples;
      w.format = k;
    }
  const auto per_file =
      files ? std::max<std::uint64_t>(
                  1, static_cast<std::uint64_t>(
                         std::llround(static_cast<double>(samples) / static_cast<double>(files))))
            : 1;
  const auto& sb = stats.sample_bytes;
  for (const auto& b : sb.buckets)
    if (b[2] > 0) // the profile's form: low >= 1, high <= 4e9
      w.histogram.push_back({std::max(1.0, static_cast<double>(b[0])),
                             std::min(4e9, std::max(2.0, static_cast<double>(b[1]))), b[2]});
  if (w.histogram.size() > config::size_histogram::kMaxBuckets)
    w.histogram.clear();
  w.name = name;
  w.description = fmt::format("The shape of the dataset indexed in {} ({} files, {} "
                              "samples). Add the accelerators' compute times before "
                              "training runs.",
                              stats.index, files, samples);
  w.source = fmt::format("dlsize index stats of {} (digest {})", stats.index, stats.digest);
  w.records_per_file = w.shards ? per_file : 1;
  w.files = std::max<std::uint64_t>(1, files);
  w.sample_bytes_mean = std::max(64.0, sb.mean);
  w.sample_bytes_stdev = sb.stdev;
  return w;
}

} // namespace dlsize::dataset
