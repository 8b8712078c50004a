#pragma once
// A foreign dataset read through its index: the layout the bench reads (dataset/layout.hpp),
// with each file checked against the index before the first read (size and mtime), so that a
// dataset changed since it was indexed is named instead of measured.
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "core/enum_names.hpp"
#include "dataset/index_document.hpp"
#include "dataset/layout.hpp"
#include "s3/location.hpp"

namespace dlsize::dataset {

enum class on_change { stop, skip };
inline constexpr core::enum_table<on_change, 2> kOnChangeNames{
    {{on_change::stop, "stop", "the first changed file ends the run"},
     {on_change::skip, "skip", "changed files are left out, counted and named"}}};
constexpr const auto& names_of(on_change) {
  return kOnChangeNames;
}
// "stop" or "skip"; throws usage_error naming --on-change otherwise.
on_change parse_on_change(const std::string& text);

struct index_request {
  std::filesystem::path dir; // empty: the index's own DIR
  std::filesystem::path index;
  on_change change = on_change::stop;
  // --verify: every indexed file must be a TFRecord whose records the index located (their
  // masked CRC32Cs are what a verified run checks).
  bool verify = false;
};

// The layout of the files an index lists, for a workload's name and format. Throws usage_error
// for a missing DIR, an index of another DIR, an edited or damaged index, or no file left to
// read, or, with verify, a file whose samples are not TFRecord records (named); run_error naming
// the first file that changed (missing, another size or mtime) unless change is skip, which
// leaves such files out and names them in origin().
dataset_layout open_indexed_dataset(const index_request& req, const std::string& workload);

// The layout of the objects a bucket's index lists (dlsize index s3://BUCKET/PREFIX), read
// through the s3 engine as where.key(path). Throws usage_error for a folder's index, an index
// of another bucket, prefix, endpoint set, region or addressing (check_bucket_index), an edited
// index, or with verify an object whose samples are not TFRecord records. Objects are not
// headed before the run: one that changed fails its read, named.
dataset_layout open_indexed_bucket(const index_request& req, const s3::location& where,
                                   const s3::settings& settings, const std::string& workload);

// Throws usage_error naming the option (--dataset for the bucket or prefix, --s3-endpoint,
// --s3-region, --s3-addressing) whose value differs from what the index header's "s3" records.
// The endpoints are compared as a set.
void check_bucket_index(const index_header& header, const std::string& index,
                        const s3::location& where, const s3::settings& settings);

// DIR through its manifest (dlsize datagen's datasets) when req.index is empty, else through
// the index (req.dir is then dir).
dataset_layout open_any_dataset(const std::filesystem::path& dir, index_request req,
                                const std::string& workload);

// What a bench asks for besides --index, for the one rule on what an index cannot do.
struct index_use {
  bool generate = false;   // --generate: would write into the user's folder
  bool client_ram = false; // --client-ram: the cache emulation reads the manifest
  bool stream = false;     // --shard-read stream in a storage-only run (whole files as units)
};
// Throws usage_error naming the option that an indexed dataset does not take, and why.
void check_index_use(const index_use& use);

} // namespace dlsize::dataset
