#pragma once
// The index `dlsize index` writes (dataset/index_file.hpp) as typed values: its header line
// (index_header: the scan's DIR or bucket, options, counts and digest) and its lines (index_line:
// a file's or a skipped path's). dataset/index_json.cpp alone turns them into JSON and back; the
// scans build them, bench --index, plan --index and index stats read them.
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace dlsize::dataset {

inline constexpr const char* kIndexSchema = "dlsize.index/1";

// What a scan counted (the header's "counts"); added up over threads and chunks.
struct index_counts {
  std::uint64_t lines = 0, files = 0, bytes = 0, samples = 0, sample_bytes = 0, dirs = 0;
  std::uint64_t excluded = 0, problems = 0, content_bytes = 0; // content_bytes_read
  std::map<std::string, std::uint64_t> skipped;
  std::map<std::string, std::array<std::uint64_t, 3>> formats; // files, bytes, samples
  void add(const index_counts& o);
};

// The bucket a bucket's index is of (the header's "s3"), as the run that reads it must match.
struct index_bucket_identity {
  std::vector<std::string> endpoints;
  std::string bucket, prefix, region, addressing;
};

// The options that change what is indexed (the header's "options", without threads the resume
// state's identity). A folder's scan has symlinks and files_from, a bucket's keys.
struct index_scan_options {
  std::vector<std::string> exclude;
  bool metadata_only = false;
  bool bucket = false;
  std::string symlinks;                  // a folder's
  std::optional<std::string> files_from; // a folder's; null when not given
  std::optional<std::string> keys;       // a bucket's; null when not given
  std::optional<std::uint64_t> threads;  // the header's only
};

// What a scan is (the resume state's first line, "scan"): a rerun continues only the same.
struct index_scan_identity {
  std::string dir; // the folder, or s3://BUCKET/PREFIX
  std::optional<index_bucket_identity> s3;
  index_scan_options options;
};

// A bucket scan's requests (the header's "requests").
struct index_requests {
  std::uint64_t list = 0, head = 0, get = 0, retries = 0;
};

// The header line.
struct index_header {
  std::string schema = kIndexSchema;
  nlohmann::json tool; // report::tool_json(), passed through
  std::string dir;
  std::optional<index_bucket_identity> s3; // a bucket's index
  std::string created_at;
  double scan_s = 0;
  bool resumed = false;
  index_scan_options options;
  std::optional<index_requests> requests; // a bucket's index
  index_counts counts;
  std::string digest;
};

// One line after the header as read back: a file's (size, mtime, format, records) or a path
// skipped (skipped: the kind). A value of the wrong type reads as absent, so that the reader
// names what is wrong.
struct index_line {
  std::string path;
  std::optional<std::string> skipped;
  std::optional<std::uint64_t> size;
  std::optional<std::int64_t> mtime_ns;
  std::string format;
  bool has_records = false; // "records" is there, well formed or not
  // [[offset, length], ...] when "records" is a non-empty list of whole-number pairs
  std::optional<std::vector<std::pair<std::uint64_t, std::uint64_t>>> records;
  std::optional<std::string> problem;
};

nlohmann::json to_json(const index_counts& c);
// The header's counts read leniently (what is absent counts 0), the resume state's strictly
// (throws nlohmann::json's errors for what is absent or of another type).
index_counts counts_from_json(const nlohmann::json& j, bool strict);
// "formats" of the counts: {FORMAT: {files, bytes, samples}}.
nlohmann::json formats_json(const index_counts& c);

nlohmann::json to_json(const index_bucket_identity& b);
nlohmann::json to_json(const index_scan_options& o);
nlohmann::json to_json(const index_scan_identity& s);
nlohmann::json to_json(const index_header& h);
// The header of an index, or nullopt when j is not one (an object with schema kIndexSchema and
// a string dir and digest, counts an object); what else is absent or of another type reads as
// its default.
std::optional<index_header> header_from_json(const nlohmann::json& j);
// A line of an index, or nullopt when j is not an object with a string path.
std::optional<index_line> line_from_json(const nlohmann::json& j);

} // namespace dlsize::dataset
