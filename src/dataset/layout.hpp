#pragma once
// A dataset's shape: which files exist, which records each holds, and every record's size,
// all derived from the manifest's parameters (sizes are a deterministic function of the seed,
// so the manifest stays small however many files there are).
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/workload.hpp"
#include "io/change_watch.hpp"
#include "report/index_origin.hpp"

namespace dlsize::dataset {

inline constexpr const char* kManifestName = "dlsize-dataset.json";
inline constexpr const char* kStateName = ".dlsize-datagen.json";
inline constexpr std::uint64_t kFilesPerDir = 1000;

// The parameters that define a dataset; equal parameters mean identical bytes.
struct dataset_params {
  std::string workload;
  config::file_layout layout = config::file_layout::files;
  std::string format;
  std::uint64_t records_per_file = 1;
  std::uint64_t files = 0;
  double sample_bytes_mean = 0;
  double sample_bytes_stdev = 0;
  config::size_histogram histogram; // non-empty: record sizes are drawn from it
  std::uint64_t seed = 0;

  // The bounds of a record's size: the histogram's, else mean ± 3 stdev (at least
  // kMinRecordBytes below; the upper one exclusive).
  double smallest_record() const;
  double largest_record() const;

  std::uint64_t dataset_id() const;
  nlohmann::json to_json() const;
  static dataset_params from_json(const nlohmann::json& j, const std::string& source);
  bool operator==(const dataset_params&) const = default;
};

// Samples are 32-bit indexes (the sampler, read jobs).
inline constexpr std::uint64_t kMaxRecords = UINT32_MAX;

// Throws usage_error, naming files_name or records_name (options, or a manifest's keys), when
// files or records per file are outside the ranges every command holds a dataset to
// (config::kMaxDatasetFiles, config::kMaxRecordsPerFile) or their product exceeds kMaxRecords.
void check_shape(std::uint64_t files, std::uint64_t records_per_file, const std::string& files_name,
                 const std::string& records_name);
// The two ranges alone (a count given before the other is known).
void check_files(std::uint64_t files, const std::string& name);
void check_records_per_file(std::uint64_t records_per_file, const std::string& name);

// A profile's dataset parameters (layout, records per file, sample sizes), with files = 0 and
// seed 0 for the caller to set.
dataset_params params_from_profile(const config::workload_profile& profile);

// Size in bytes of record `index` (header included) for these parameters.
std::uint64_t record_size(const dataset_params& p, std::uint64_t index);

// A file's path relative to the dataset's root, as stored: data/00012/file-00012345.rec
std::string relative_file_path(std::uint64_t file);

// A dataset described file by file (the index of a foreign folder, dataset/index_layout.hpp):
// paths, sizes and each file's samples, which need not tile the file (a Parquet file's footer
// is no row group).
struct file_listing {
  std::vector<std::string> paths; // relative to the root
  std::vector<std::uint64_t> sizes;
  std::vector<std::uint64_t> first_record; // per file, then one past the last record
  std::vector<std::uint64_t> record_offset, record_bytes;
  std::vector<std::int64_t> mtime_ns;
  std::optional<report::index_origin> origin; // what the report says of the index it came from
  std::uint64_t id = 0;                       // the dataset_id (from the index's digest)
  // Every file is an uncompressed TFRecord whose every record the index located: each sample
  // is one whole record (header, data, footer), which record_verifier can check.
  bool tfrecord = false;
  // Each file's check at open against the index (its size and mtime); null: none.
  std::shared_ptr<io::change_watch> watch;
};

class dataset_layout {
public:
  dataset_layout(std::filesystem::path root, dataset_params params);
  // params gives the workload and format; files and records come from the listing.
  dataset_layout(std::filesystem::path root, dataset_params params, file_listing listing);

  const dataset_params& params() const { return m_params; }
  const std::filesystem::path& root() const { return m_root; }
  std::uint64_t files() const { return m_params.files; }
  std::uint64_t records() const { return m_record_bytes.size(); }
  std::uint64_t total_bytes() const { return m_total_bytes; }

  std::filesystem::path file_path(std::uint64_t file) const;
  std::string relative_path(std::uint64_t file) const {
    return m_paths.empty() ? relative_file_path(file) : m_paths[file];
  }
  std::uint64_t file_bytes(std::uint64_t file) const;
  std::uint64_t first_record(std::uint64_t file) const {
    return m_first.empty() ? file * m_params.records_per_file : m_first[file];
  }
  std::uint64_t records_in(std::uint64_t file) const {
    return m_first.empty() ? m_params.records_per_file : m_first[file + 1] - m_first[file];
  }
  // The file that holds a record.
  std::uint64_t file_of(std::uint64_t record) const {
    return m_record_file.empty() ? record / m_params.records_per_file : m_record_file[record];
  }
  std::uint64_t dataset_id() const { return m_origin ? m_id : m_params.dataset_id(); }
  // The index a listed dataset came from (none for a generated one).
  const std::optional<report::index_origin>& origin() const { return m_origin; }
  // A listed dataset whose every sample is a whole TFRecord record (file_listing::tfrecord).
  bool tfrecord_records() const { return m_tfrecord; }
  // The readers' check of each file at open (a listed dataset's; null for a generated one):
  // shared with the engine's file set, and read back for the report.
  const std::shared_ptr<io::change_watch>& watch() const { return m_watch; }
  std::uint64_t record_bytes(std::uint64_t record) const { return m_record_bytes[record]; }
  // Offset of a record inside its file.
  std::uint64_t record_offset(std::uint64_t record) const { return m_record_offset[record]; }

private:
  std::filesystem::path m_root;
  dataset_params m_params;
  std::vector<std::uint64_t> m_record_bytes;
  std::vector<std::uint64_t> m_record_offset;
  std::vector<std::uint64_t> m_file_bytes;
  std::uint64_t m_total_bytes = 0;          // of every record (all of every file, when generated)
  std::vector<std::string> m_paths;         // listed datasets only
  std::vector<std::uint64_t> m_first;       // listed: each file's first record, then the end
  std::vector<std::uint32_t> m_record_file; // listed: each record's file
  std::optional<report::index_origin> m_origin;
  std::uint64_t m_id = 0;
  bool m_tfrecord = false;
  std::shared_ptr<io::change_watch> m_watch;
};

// The smallest number of files whose records add up to at least `bytes`; throws usage_error
// when bytes is smaller than one record.
std::uint64_t files_for_size(dataset_params p, std::uint64_t bytes);

// Reads DIR/dlsize-dataset.json. Throws usage_error naming the file when it is missing or bad.
dataset_layout open_dataset(const std::filesystem::path& dir);
// The dataset a manifest's text describes, its files under root; `source` names the manifest in
// messages (a file, or an object's URL). The one parser of manifests, wherever they are read
// from. Throws usage_error naming source and the key for a manifest that is bad or unfinished.
dataset_layout layout_from_manifest(std::string_view text, const std::filesystem::path& root,
                                    const std::string& source);

} // namespace dlsize::dataset
