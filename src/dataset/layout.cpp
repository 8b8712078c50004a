#include "dataset/layout.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/input_watch.hpp"
#include "core/json_checks.hpp"
#include "core/json_input.hpp"
#include "core/memory_budget.hpp"
#include "core/rng.hpp"
#include "core/value_rule.hpp"
#include "dataset/record.hpp"

namespace dlsize::dataset {
namespace fs = std::filesystem;

std::uint64_t dataset_params::dataset_id() const {
  std::uint64_t h = splitmix64(seed);
  for (char c : workload)
    h = splitmix64(h ^ static_cast<unsigned char>(c));
  h = splitmix64(h ^ records_per_file);
  h = splitmix64(h ^ static_cast<std::uint64_t>(sample_bytes_mean));
  h = splitmix64(h ^ static_cast<std::uint64_t>(sample_bytes_stdev));
  // Datasets without a histogram keep the ids they always had.
  for (const auto& b : histogram.to_json())
    for (const auto& v : b)
      h = splitmix64(h ^ static_cast<std::uint64_t>(v.get<double>()));
  return h;
}

double dataset_params::smallest_record() const {
  return std::max(static_cast<double>(kMinRecordBytes),
                  histogram.empty() ? sample_bytes_mean - 3 * sample_bytes_stdev
                                    : histogram.smallest());
}

double dataset_params::largest_record() const {
  return histogram.empty() ? sample_bytes_mean + 3 * sample_bytes_stdev + 1 : histogram.largest();
}

std::uint64_t record_size(const dataset_params& p, std::uint64_t index) {
  double v = p.sample_bytes_mean;
  if (!p.histogram.empty()) {
    xoshiro256 rng(splitmix64(p.seed * 0x9e3779b97f4a7c15ull + index));
    const double u = rng.uniform();
    v = p.histogram.draw(u, rng.uniform());
  } else if (p.sample_bytes_stdev > 0) {
    xoshiro256 rng(splitmix64(p.seed * 0x9e3779b97f4a7c15ull + index));
    v += p.sample_bytes_stdev * rng.normal();
    const double lo = std::max(static_cast<double>(kMinRecordBytes),
                               p.sample_bytes_mean - 3 * p.sample_bytes_stdev);
    const double hi = p.sample_bytes_mean + 3 * p.sample_bytes_stdev;
    v = std::clamp(v, lo, hi);
  }
  return std::max<std::uint64_t>(kMinRecordBytes, static_cast<std::uint64_t>(std::llround(v)));
}

void check_files(std::uint64_t files, const std::string& name) {
  if (files < 1 || files > config::kMaxDatasetFiles)
    throw usage_error(fmt::format("{}: {} is out of range. valid: 1 to {}", name, files,
                                  config::kMaxDatasetFiles));
}

void check_records_per_file(std::uint64_t records_per_file, const std::string& name) {
  if (records_per_file < 1 || records_per_file > config::kMaxRecordsPerFile)
    throw usage_error(fmt::format("{}: {} is out of range. valid: 1 to {}", name, records_per_file,
                                  config::kMaxRecordsPerFile));
}

void check_shape(std::uint64_t files, std::uint64_t records_per_file, const std::string& files_name,
                 const std::string& records_name) {
  check_files(files, files_name);
  check_records_per_file(records_per_file, records_name);
  // Samples are 32-bit indexes in the sampler and the read jobs.
  if (files * records_per_file > kMaxRecords)
    throw usage_error(fmt::format("{} × {}: {} × {} = {} records, more than a dataset may hold. "
                                  "valid: at most {} records",
                                  files_name, records_name, files, records_per_file,
                                  files * records_per_file, kMaxRecords));
}

dataset_layout::dataset_layout(fs::path root, dataset_params params)
    : m_root(std::move(root)), m_params(std::move(params)) {
  check_shape(m_params.files, m_params.records_per_file, "dataset files", "records per file");
  const std::uint64_t n = m_params.files * m_params.records_per_file;
  // Checked before allocating: the record index here, and each file's path, size and
  // descriptor in the commands' file tables.
  const std::uint64_t per_file = 3 * sizeof(std::uint64_t) + sizeof(int) + sizeof(std::string) +
                                 m_root.native().size() + relative_file_path(0).size() + 1;
  core::check_memory_budget(
      n * 2 * sizeof(std::uint64_t) + m_params.files * per_file,
      fmt::format("the record index and file table of {} files × {} records per file",
                  m_params.files, m_params.records_per_file),
      "a dataset of fewer files or records (dlsize datagen --size, --files, --records-per-file)");
  m_record_bytes.resize(n);
  m_record_offset.resize(n);
  m_file_bytes.assign(m_params.files, 0);
  for (std::uint64_t f = 0; f < m_params.files; ++f) {
    std::uint64_t off = 0;
    for (std::uint64_t k = 0; k < m_params.records_per_file; ++k) {
      const std::uint64_t r = f * m_params.records_per_file + k;
      m_record_bytes[r] = record_size(m_params, r);
      m_record_offset[r] = off;
      off += m_record_bytes[r];
    }
    m_file_bytes[f] = off;
    m_total_bytes += off;
  }
}

dataset_layout::dataset_layout(fs::path root, dataset_params params, file_listing l)
    : m_root(std::move(root)), m_params(std::move(params)),
      m_record_bytes(std::move(l.record_bytes)), m_record_offset(std::move(l.record_offset)),
      m_file_bytes(std::move(l.sizes)), m_paths(std::move(l.paths)),
      m_first(std::move(l.first_record)), m_origin(std::move(l.origin)), m_id(l.id),
      m_tfrecord(l.tfrecord), m_watch(std::move(l.watch)) {
  const std::uint64_t files = m_paths.size();
  if (files == 0 || m_first.size() != files + 1 || m_file_bytes.size() != files ||
      m_first.back() != m_record_bytes.size() || m_record_offset.size() != m_record_bytes.size())
    throw run_error("internal: an inconsistent file listing");
  if (files > UINT32_MAX || m_record_bytes.size() > kMaxRecords)
    throw usage_error(fmt::format("--index: {} files and {} samples; a dataset may hold at most "
                                  "{} of each",
                                  files, m_record_bytes.size(), kMaxRecords));
  m_params.files = files;
  m_record_file.resize(m_record_bytes.size());
  for (std::uint64_t f = 0; f < files; ++f)
    for (std::uint64_t r = m_first[f]; r < m_first[f + 1]; ++r)
      m_record_file[r] = static_cast<std::uint32_t>(f);
  for (auto b : m_record_bytes)
    m_total_bytes += b;
}

std::string relative_file_path(std::uint64_t file) {
  return fmt::format("data/{:05d}/file-{:08d}.rec", file / kFilesPerDir, file);
}

fs::path dataset_layout::file_path(std::uint64_t file) const {
  return m_root / relative_path(file);
}

std::uint64_t dataset_layout::file_bytes(std::uint64_t file) const {
  return m_file_bytes[file];
}

std::uint64_t files_for_size(dataset_params p, std::uint64_t bytes) {
  const std::uint64_t first = record_size(p, 0);
  if (bytes < first)
    throw usage_error(fmt::format(
        "--size: {} bytes is smaller than one record of workload '{}' ({} bytes). valid: at "
        "least {} bytes",
        bytes, p.workload, first, first));
  // No record is larger than mean + 3 stdev: a size that needs more records than a dataset
  // may hold is refused before counting them one by one.
  const double largest = p.largest_record();
  if (static_cast<double>(bytes) / largest > static_cast<double>(kMaxRecords))
    throw usage_error(fmt::format(
        "--size: {} bytes of workload '{}' (records of at most {:.0f} bytes) need more than {} "
        "records, more than a dataset may hold. valid: a smaller --size",
        bytes, p.workload, largest, kMaxRecords));
  std::uint64_t total = 0;
  std::uint64_t r = 0;
  std::uint64_t files = 0;
  while (total < bytes) {
    for (std::uint64_t k = 0; k < p.records_per_file; ++k)
      total += record_size(p, r++);
    ++files;
  }
  return files;
}

dataset_layout open_dataset(const fs::path& dir) {
  const fs::path manifest = dir / kManifestName;
  // Looked up under the pre-run watch: a hung server is met here first.
  if (!core::watched_exists(manifest)) {
    if (core::watched_exists(dir / kStateName))
      throw usage_error(fmt::format("--dataset: '{}' is an unfinished generation (no {}); rerun "
                                    "the same `dlsize datagen` command to finish it",
                                    dir.string(), kManifestName));
    throw usage_error(fmt::format("--dataset: '{}' is not a dlsize dataset: {} is missing. "
                                  "valid: a folder made by `dlsize datagen`",
                                  dir.string(), manifest.string()));
  }
  return layout_from_manifest(core::read_input_file(manifest, core::kManifestJson), dir,
                              manifest.string());
}

dataset_params params_from_profile(const config::workload_profile& profile) {
  dataset_params p;
  p.workload = profile.name;
  p.layout = profile.layout;
  p.format = profile.format;
  p.records_per_file = profile.layout == config::file_layout::shards ? profile.records_per_file : 1;
  p.sample_bytes_mean = profile.sample_bytes_mean;
  p.sample_bytes_stdev = profile.sample_bytes_stdev;
  p.histogram = profile.sample_bytes_histogram;
  return p;
}

} // namespace dlsize::dataset
