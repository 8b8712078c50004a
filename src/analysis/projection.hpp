#pragma once
// Projections of a backend's scaling to larger accelerator counts and grown datasets, as the
// sizing method (docs/sizing.md) defines them: the bandwidth the reads need comes from the
// requirement's line (below the knee), the cache in front of the storage serves a share h
// (measured where the runs give it, modelled for grown data), the storage must deliver
// reads · (1 − h), times a headroom factor, within the physical limits given.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "analysis/cache_curve.hpp"
#include "analysis/scaling_model.hpp"
#include "core/enum_names.hpp"

namespace dlsize::analysis {

// measured: the fitted curve of a cache sweep (analysis/cache_curve); automatic: measured when
// the inputs hold a usable cache sweep of the workload, lru otherwise (size's default).
enum class cache_model_kind { lru, never_evict, measured, automatic };
inline constexpr core::enum_table<cache_model_kind, 4> kCacheModelNames{
    {{cache_model_kind::automatic, "auto",
      "measured where the reports hold a cache sweep, lru otherwise"},
     {cache_model_kind::measured, "measured", "the cache sweep's fitted curve"},
     {cache_model_kind::lru, "lru", "a page cache under a new random order each epoch"},
     {cache_model_kind::never_evict, "never-evict", "keeps what it first read"}}};
constexpr const auto& names_of(cache_model_kind) {
  return kCacheModelNames;
}

// "lru", "never-evict", "measured" or "auto".
const char* cache_model_name(cache_model_kind k);

struct projection_options {
  std::vector<double> targets;  // accelerator counts
  std::vector<double> growth;   // dataset size factors (1: as measured)
  double headroom = 1.2;        // provision = headroom × the upper prediction bound
  double limit_bytes_per_s = 0; // physical limit (NIC × nodes, storage front end); 0: none
  std::string limit_source;     // how the limit was made, for the warnings
  cache_model_kind cache_model = cache_model_kind::lru; // lru, never_evict or measured
  const cache_curve* curve = nullptr;       // with measured: a usable curve (it must outlive o)
  double cache_bytes = 0;                   // cache in front of the storage
  double dataset_bytes = 0;                 // the measured dataset
  double measured_hit_ratio = std::nan(""); // of the measured runs; NaN: not measured
  double demand_per_accelerator = 0;        // bytes/s one accelerator reads at AU 100 %
  // The requirement's line (analysis/requirement: the runs of every backend of the load,
  // pooled); null: the backend's own runs give it (the scaling_analysis projected).
  const scaling_analysis* requirement = nullptr;
  // The job's scaling efficiency at a count (analysis/size_scaling) when the runs modelled an
  // allreduce: the reads at N are the requirement's line × efficiency(N). Empty: 1 everywhere.
  std::function<double(double)> efficiency;
};

struct projection {
  double accelerators = 0, growth = 1, dataset_bytes = 0;
  double scaling_efficiency = 1; // the job's at this count (1 without a modelled allreduce)
  double hit_ratio = 0;
  // Storage bytes per byte read: 1 − hit_ratio, or the measured cache curve's (above 1 where
  // readahead reads more than the loaders use).
  double storage_per_read = 1;
  std::string hit_ratio_source; // "measured", or the cache model used
  // Bytes/s the reads need (cache hits included), with the 95 % prediction interval (NaN
  // bounds without one), symmetric on a log scale (log_interval_low): never below zero.
  double reads = 0, reads_low = std::nan(""), reads_high = std::nan("");
  // What the storage must deliver: reads · (1 − h).
  double required = 0, required_low = std::nan(""), required_high = std::nan("");
  double provision = 0;             // headroom × (required_high, or required without an interval)
  std::optional<bool> within_limit; // provision within the physical limit; none without one
  double provision_capped = 0;      // provision, capped at the physical limit
  double expected_accelerator_utilization = std::nan(""); // on the measured backend
  std::optional<bool> backend_holds; // expected AU at or above the threshold; none: not known
  std::optional<std::uint64_t> max_accelerators; // the backend (and limit) at the threshold
  std::vector<std::string> flags;                // short forms of the warnings, for tables
  std::vector<std::string> warnings;
};

// The hit ratio at a dataset growth factor: the measured one at 1 when known; the cache model
// otherwise, never above the measured one for grown data (a larger dataset never hits more).
double projected_hit_ratio(const projection_options& o, double growth, std::string* source);

struct projected_cache {
  double hit_ratio = 0, storage_per_read = 1;
  std::string source;
};
// As projected_hit_ratio, with the storage bytes per byte read: 1 − h for the models; the
// curve's at f = cache / (dataset × growth) for measured (never below 1 − the measured ratio
// for grown data), the source naming f and whether it lies outside the measured range.
projected_cache project_cache(const projection_options& o, double growth);

// The most accelerators that storage_bytes_per_s of storage carries at the AU threshold, with a
// cache in front serving hit_ratio of the reads (below 0 where readahead amplifies them: 1 −
// storage bytes per byte read): from the requirement's line where there is one, from n × demand
// otherwise; times the job's scaling efficiency where one is given.
std::uint64_t max_accelerators_at_threshold(const scaling_analysis& a, double storage_bytes_per_s,
                                            double hit_ratio, double demand_per_accelerator,
                                            const std::function<double(double)>& efficiency = {});

// The low end of a 95 % interval that is symmetric on a log scale around estimate, given its
// high end: estimate² ÷ high, always above zero (NaN where high is NaN). A linear interval's
// low end (estimate − half-width) reaches zero and below far past the measured range, which no
// bandwidth can be; this keeps the high end, which the provision takes, as it was.
double log_interval_low(double estimate, double high);

// One projection per target and growth factor (targets outer). Throws usage_error when a
// target or growth factor is not positive.
std::vector<projection> project(const scaling_analysis& a, const projection_options& o);

} // namespace dlsize::analysis
