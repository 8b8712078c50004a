#pragma once
// Datasets in an S3 bucket (s3://BUCKET/PREFIX): the same layout and records as on a file
// system, one object per file, named PREFIX/<the file's relative path>. The manifest is the
// object PREFIX/dlsize-dataset.json, written last by datagen as the dataset's "complete" mark.
// Built with the S3 client (DLSIZE_HAVE_S3) only; the CLI refuses s3:// without it.
#include <cstdint>
#include <string>

#include "core/defaults.hpp"
#include "dataset/datagen.hpp"
#include "dataset/layout.hpp"
#include "dataset/verify.hpp"
#include "s3/client.hpp"
#include "s3/location.hpp"

namespace dlsize::dataset {

// The journal of a generation into a bucket: PREFIX/dlsize-datagen-journal.json, the dataset's
// parameters and the files whose objects it wrote, rewritten every few seconds; removed once the
// manifest is written.
inline constexpr const char* kS3JournalName = "dlsize-datagen-journal.json";

// The dataset whose manifest is the object where.key(kManifestName); the layout's root is
// where.url(). Throws usage_error naming the object when it is missing (or the generation is
// unfinished) or its manifest is bad, s3 errors as the client does.
dataset_layout open_dataset(const s3::location& where, const s3::settings& settings);

// The text of a small object (at most max_bytes), or nullopt when there is none. Throws
// usage_error naming the object when it is larger.
std::optional<std::string> get_text_object(s3::client& c, const std::string& bucket,
                                           const std::string& key, std::uint64_t max_bytes);

struct s3_datagen_options {
  s3::location where;
  s3::settings settings;
  dataset_params params;
  unsigned threads = 0;                  // objects in flight; 0: one per CPU
  std::uint64_t part_size = 64ull << 20; // objects above it by multipart upload
  bool progress = true;
  double stall_timeout_s = core::defaults::stall_timeout_s; // as datagen_options'
};

// Writes the dataset's objects (several in flight, one client per thread), then the manifest.
// Resumable: objects its journal lists are kept when whole; a key it does not list is headed
// first, and an object there is kept only when it is this dataset's (its size and first record
// header), else the generation stops naming the key (usage_error, exit 2) and touches nothing
// it did not write. A bucket with this dataset's manifest: already_complete; another dataset's:
// usage_error.
datagen_result generate_s3_dataset(const s3_datagen_options& opt);

// verify_dataset for a dataset in a bucket: every object read by range GETs on `threads`
// threads, each record checked; problems name the object's key.
verify_result verify_s3_dataset(const s3::location& where, const s3::settings& settings,
                                unsigned threads, bool progress,
                                double stall_timeout_s = core::defaults::stall_timeout_s);

} // namespace dlsize::dataset
