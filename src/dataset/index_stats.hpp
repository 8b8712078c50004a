#pragma once
// dlsize index stats: the shape of an indexed dataset (sizes of files and samples as
// percentiles and a histogram, files per folder, samples per file) and a workload profile of the
// same shape of that shape, so that `dlsize datagen` can make a synthetic copy of it elsewhere.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

#include "core/histogram.hpp"
#include "dataset/index_stats_document.hpp"

namespace dlsize::dataset {

// A running size distribution: exact mean and stdev, percentiles and a histogram from log
// buckets (within 6.25 %, core/histogram.hpp).
class size_distribution {
public:
  void add(std::uint64_t bytes) {
    m_h.record(bytes);
    const auto v = static_cast<double>(bytes);
    m_sum += v;
    m_sq += v * v;
  }
  std::uint64_t count() const { return m_h.count(); }
  double mean() const;
  double stdev() const; // population
  // Its figures: count, mean, stdev, min, p10, p50, p90, p99, max and the histogram's buckets.
  size_summary summary() const;

private:
  histogram m_h;
  double m_sum = 0, m_sq = 0;
};

// One sample of an indexed file: the file's size and the sample's byte range in it (a file that
// is one sample: offset 0, length its size).
struct indexed_sample {
  std::uint64_t file_size = 0;
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
};
using sample_visitor = std::function<void(const indexed_sample&)>;

// Reads an index (checked as dataset/index_file.hpp checks it). Throws usage_error for a bad or
// edited index. visit, when given, sees every sample as the statistics take it in, so that a
// caller measuring something else of the samples (plan's read amplification) reads the index
// the same way and in the same pass.
index_stats_document index_stats(const std::filesystem::path& index,
                                 const sample_visitor& visit = {});

// A workload profile (workloads/*.json form) of the indexed shape: layout, format, records per
// file, files and the sample sizes' mean and stdev. The compute side is the user's to add.
shape_workload workload_of_shape(const index_stats_document& stats, const std::string& name);

} // namespace dlsize::dataset
