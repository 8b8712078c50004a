#pragma once
// The rules of `dlsize index`'s options, in one place: DIR required, the symlink policy, the
// reader threads and --stall-timeout. cli/ parses the options into an index_scan_request and
// calls index_options_of; every rule throws usage_error naming the option and what is valid.
#include <string>
#include <vector>

#include "dataset/index_scan.hpp"

namespace dlsize::dataset {

// `dlsize index DIR` as given (texts as typed, so that messages quote them).
struct index_scan_request {
  std::string dir, out, files_from;
  std::string symlinks = "skip";
  std::string stall_timeout = "60s";
  unsigned threads = 8;
  std::vector<std::string> exclude;
  bool metadata_only = false;
  bool quiet = false;
};

// The scan's options after every rule; tool and created_at are the caller's.
index_options index_options_of(const index_scan_request& r);

} // namespace dlsize::dataset
