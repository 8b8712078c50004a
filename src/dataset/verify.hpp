#pragma once
// Re-reads every record of a dataset and checks header and checksum, naming the file and record
// of each mismatch; also finds missing, truncated and over-long files.
#include <cstdint>
#include <filesystem>
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
};

verify_result verify_dataset(const std::filesystem::path& dir, unsigned threads, bool progress);

} // namespace dlsize::dataset
