#pragma once
// The rules of `dlsize index`'s options, in one place: DIR required, the symlink policy, the
// reader threads and --stall-timeout. cli/ parses the options into an index_scan_request and
// calls index_options_of; every rule throws usage_error naming the option and what is valid.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/defaults.hpp"
#include "dataset/index_bucket.hpp"
#include "dataset/index_scan.hpp"

namespace dlsize::dataset {

// `dlsize index DIR` as given (texts as typed, so that messages quote them).
struct index_scan_request {
  std::string dir, out, files_from, keys;
  std::string symlinks = "skip";
  std::string stall_timeout = core::defaults::stall_timeout_text;
  unsigned threads = 8;
  std::vector<std::string> exclude;
  bool metadata_only = false;
  bool quiet = false;
};

// The scan's options after every rule; tool and created_at are the caller's. For a folder:
// --keys is refused (it names objects).
index_options index_options_of(const index_scan_request& r);

// The same for a bucket (s3://BUCKET/PREFIX, already parsed and its settings completed):
// --symlinks and --files-from are refused (they mean files), naming the option.
bucket_index_options bucket_index_options_of(const index_scan_request& r, s3::location where,
                                             s3::settings settings);

// The bucket's identity an index records ("s3" in its header) and bench --index checks: the
// endpoints, bucket, prefix, region and addressing.
index_bucket_identity bucket_identity(const s3::location& where, const s3::settings& settings);

// A line of --keys: the whole key (under PREFIX/) and its size when given. A line is `KEY`, or
// `KEY SIZE` (a tab or a space, then digits: the last word of a line is its size when it is a
// number). Blank lines: nullopt. Throws usage_error naming --keys and `where` (file and line) for
// a key outside root (PREFIX/), a control character, or a key over 1024 bytes.
struct key_line {
  std::string key;
  std::uint64_t size = 0;
  bool has_size = false;
};
std::optional<key_line> parse_key_line(std::string_view line, const std::string& root,
                                       const std::string& where);

} // namespace dlsize::dataset
