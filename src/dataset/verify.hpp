#pragma once
// Re-reads every record of a dataset and checks header and checksum, naming the file and record
// of each mismatch; also finds missing, truncated and over-long files.
#include "s3/transfer_stats.hpp"
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace dlsize::dataset {

struct verify_result {
  std::uint64_t files = 0;
  std::uint64_t records_checked = 0;
  std::uint64_t bytes = 0;
  double seconds = 0;
  std::vector<std::string> problems; // one line per bad file, first mismatch of each
  std::uint64_t bad_records = 0;
  bool interrupted = false;
  std::string stalled;                // set when --stall-timeout stopped it: who waited on what
  std::vector<std::string> abandoned; // readers left in the kernel, each with its call
  std::optional<s3::transfer_stats> s3_requests; // a bucket's: requests, retries by cause
};

// Checks every file on `threads` threads (0: one per CPU). A signal stops it (interrupted); so
// does a stall, when no read finished for stall_timeout_s (0: never) while one waits (a hung
// mount): stalled then names the file and the wait, and readers the kernel holds are left
// behind (abandoned). Throws run_error when a reader fails other than on a record.
verify_result verify_dataset(const std::filesystem::path& dir, unsigned threads, bool progress,
                             double stall_timeout_s = 60);

} // namespace dlsize::dataset
