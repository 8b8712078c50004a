#include "pipeline/storage_rollup.hpp"

#include <algorithm>

namespace dlsize::pipeline {

storage_rollup roll_up(const std::vector<reader_counts>& readers, std::uint64_t epochs) {
  storage_rollup r;
  r.epochs.resize(epochs);
  for (const auto& t : readers) {
    r.samples += t.samples;
    r.verified += t.records_verified;
    r.mismatches += t.mismatches;
    r.failed_jobs += t.failed_jobs;
    if (r.first_error.empty())
      r.first_error = t.first_error;
    r.sample_latency.merge(t.sample_latency);
    r.digest += t.digest;
    r.problems.insert(r.problems.end(), t.problems.begin(), t.problems.end());
    for (std::uint64_t e = 0; e < epochs && e < t.epoch_samples.size(); ++e) {
      r.epochs[e].samples += t.epoch_samples[e];
      r.epochs[e].read_bytes += t.epoch_bytes[e];
      r.epochs[e].end_ns = std::max(r.epochs[e].end_ns, t.epoch_end_ns[e]);
    }
  }
  std::sort(r.problems.begin(), r.problems.end());
  return r;
}

} // namespace dlsize::pipeline
