#pragma once
// What `dlsize index stats` reports of an index as typed values: the shape of the indexed
// dataset (index_stats_document), what reading its samples costs (index_reads, for plan
// --index) and the workload profile of the same shape (shape_workload, --emit-workload).
// dataset/index_stats_json.cpp alone turns them into JSON and back; dataset/index_stats.cpp
// builds them, dataset/index_stats_text.hpp prints the first.
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace dlsize::dataset {

// A size distribution as measured (size_distribution's figures): its histogram is
// core/histogram.hpp's in bytes, [low, high, count] per non-empty bucket.
struct size_summary {
  std::uint64_t count = 0;
  double mean = 0, stdev = 0;
  std::uint64_t min = 0;
  double p10 = 0, p50 = 0, p90 = 0, p99 = 0;
  std::uint64_t max = 0;
  std::uint64_t sum = 0; // the histogram's
  std::vector<std::array<std::uint64_t, 3>> buckets;
};

// Samples per file: a file that is one sample counts 1.
struct samples_per_file_stats {
  double mean = 0, p50 = 0;
  std::uint64_t max = 0;
};

struct files_per_folder_stats {
  std::uint64_t folders = 0;
  double mean = 0, p50 = 0;
  std::uint64_t max = 0;
};

// One format's share of the index (the header's counts): files, bytes, samples.
struct format_share {
  std::uint64_t files = 0, bytes = 0, samples = 0;
};

// `dlsize index stats --json`.
struct index_stats_document {
  std::string index; // the index file, absolute
  std::string dir, digest;
  std::uint64_t files = 0, bytes = 0, samples = 0, files_with_records = 0;
  double bytes_per_sample = 0;
  size_summary file_bytes, sample_bytes;
  samples_per_file_stats samples_per_file;
  files_per_folder_stats files_per_folder;
  std::map<std::string, format_share> formats;
  std::map<std::string, std::uint64_t> skipped; // when indexed, by kind
};

// What the reads of every sample of an index take at a request size (dataset/index_reads.hpp).
struct index_read_cost {
  double bytes = 0, requests = 0;
};
struct index_reads {
  std::uint32_t request_size = 0;
  double sample_bytes = 0;
  index_read_cost direct, buffered;
};

// The workload profile (workloads/*.json form) of an indexed shape; the compute side is the
// user's to add.
struct shape_workload {
  std::string name, description, source;
  bool shards = false; // layout shards, else files
  std::string format;
  std::uint64_t records_per_file = 1, files = 1;
  double sample_bytes_mean = 0, sample_bytes_stdev = 0;
  struct bucket {
    double low = 0, high = 0;
    std::uint64_t count = 0;
  };
  std::vector<bucket> histogram; // none: empty
  double au_threshold = 0.9;
};

nlohmann::json to_json(const size_summary& s);
nlohmann::json to_json(const index_stats_document& d);
nlohmann::json to_json(const shape_workload& w);
// Reads back what to_json wrote; throws nlohmann::json's errors for what is absent or of
// another type.
size_summary size_summary_from_json(const nlohmann::json& j);
index_stats_document index_stats_from_json(const nlohmann::json& j);

} // namespace dlsize::dataset
