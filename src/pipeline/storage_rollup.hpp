#pragma once
// What a storage-only bench's readers counted, added up: pure sums over the readers' counts
// (no I/O, no clock), so that the run's figures are tested on numbers.
#include <cstdint>
#include <string>
#include <vector>

#include "core/histogram.hpp"

namespace dlsize::pipeline {

// What one reader of a storage bench counted (epochs indexed from 0).
struct reader_counts {
  std::uint64_t samples = 0;
  std::vector<std::uint64_t> epoch_samples, epoch_bytes;
  std::vector<std::uint64_t> epoch_end_ns; // its last completion in the epoch (0: none)
  histogram sample_latency;
  std::uint64_t failed_jobs = 0;
  std::uint64_t records_verified = 0;
  std::uint64_t mismatches = 0;
  std::vector<std::string> problems; // the first mismatches' descriptions
  std::string first_error;
  std::uint64_t digest = 0; // order-independent sum over jobs of hash(file, offset, crc of bytes)
};

struct epoch_counts {
  std::uint64_t samples = 0, read_bytes = 0;
  std::uint64_t end_ns = 0; // the epoch's last completion over every reader (0: none)
};

struct storage_rollup {
  std::uint64_t samples = 0, verified = 0, mismatches = 0, failed_jobs = 0, digest = 0;
  std::vector<std::string> problems; // sorted
  std::string first_error;           // of the first reader with one
  histogram sample_latency;
  std::vector<epoch_counts> epochs;
};

// The readers' counts added up; problems sorted, the first error that of the first reader with one.
storage_rollup roll_up(const std::vector<reader_counts>& readers, std::uint64_t epochs);

} // namespace dlsize::pipeline
