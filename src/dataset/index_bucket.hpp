#pragma once
// dlsize index s3://BUCKET/PREFIX: an index (dataset/index_file.hpp) of the objects under a
// prefix, for bench --index through the s3 engine. The keys come from ListObjectsV2, one prefix
// at a time with the delimiter '/' (as a folder is read): the common prefixes found are listed
// by other threads at once, so a bucket whose keys have folders is listed in parallel; or from
// the user's own key list (--keys FILE: `KEY` or `KEY SIZE` a line), for buckets too large to
// list (a LIST of 50 million objects takes more than an hour). Each object's format is probed
// from its first bytes by ranged GETs, as the file scan reads a file's. An interrupted scan
// resumes as the file scan does (dataset/index_journal.hpp): prefixes (or batches of keys)
// finished are not listed again. Nothing is written into the bucket.
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "dataset/index_scan.hpp"
#include "s3/location.hpp"

namespace dlsize::dataset {

struct bucket_index_options {
  index_options scan;         // out, threads, exclude, metadata_only, progress, stall, tool
  s3::location where;         // the bucket and prefix
  s3::settings settings;      // completed (s3::complete_settings)
  std::filesystem::path keys; // --keys FILE; empty: list the prefix
};

// Scans and writes the index atomically, as build_index does. Throws usage_error for an --out
// that exists, a --keys file that cannot be read or has a bad line (named by its number), a
// bucket that does not exist, refused credentials; run_error for a failure to write or a
// request whose retries ran out.
index_summary build_bucket_index(const bucket_index_options& opt);

} // namespace dlsize::dataset
