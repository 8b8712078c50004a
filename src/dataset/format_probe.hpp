#pragma once
// Recognises a file's format by its content (never by its name alone) and finds the samples a
// training loader would read in it: a file is one sample for JPEG, PNG, NPY and NPZ; a record for
// TFRecord (from the length headers); a row group for Parquet (from the footer); a member for a
// WebDataset tar shard. Every header is read as hostile: sizes and offsets are checked against
// the file, loops are bounded, and a damaged header is a named problem, never a crash.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "dataset/byte_source.hpp"
#include "dataset/tfrecord_frame.hpp"

namespace dlsize::dataset {

struct sample_range {
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
  bool operator==(const sample_range&) const = default;
};

// A member of a zip or npz archive as an index line lists it.
struct archive_member {
  std::string name;
  std::uint64_t bytes = 0;
  bool compressed = false;
  std::optional<std::string> dtype{};                // a stored .npy member's, from its header
  std::optional<std::vector<std::uint64_t>> shape{}; // the same
};

// What a file's header says beyond its samples (an index line's details); each format fills its
// own fields, the others stay none. Its JSON is written in dataset/index_json.cpp.
struct format_details {
  std::optional<std::uint64_t> records{};                 // tfrecord
  std::optional<std::string> dtype{};                     // npy
  std::optional<std::vector<std::uint64_t>> shape{};      // npy
  std::optional<bool> fortran_order{};                    // npy
  std::optional<std::uint64_t> data_offset{};             // npy
  std::optional<std::uint64_t> width{}, height{};         // jpeg, png
  std::optional<std::uint64_t> components{};              // jpeg
  std::optional<std::uint64_t> bit_depth{}, color_type{}; // png
  std::optional<std::uint64_t> rows{}, row_groups{};      // parquet
  std::optional<std::uint64_t> members{};                 // zip, npz, tar
  std::optional<std::vector<archive_member>> listed{};    // zip, npz: the first members
};

struct probe_result {
  std::string format = "other";          // tfrecord npy npz jpeg png parquet tar zip gzip other
  std::vector<sample_range> records;     // empty: the whole file is one sample
  std::optional<format_details> details; // dimensions, dtype, shape, members (none when none)
  std::string skip;                      // not a readable dataset file (a compressed TFRecord): why
  std::string problem; // a damaged header: what; the file then stays one whole sample
};

// Most samples one file may hold (config::kMaxRecordsPerFile); past it, a problem.
inline constexpr std::uint64_t kMaxProbeRecords = 1'000'000;

// An index line's details as JSON (index_json.cpp).
nlohmann::json to_json(const format_details& d);

// The probe for one file; `name` (its file name) only tells a compressed TFRecord from other
// GZIP or ZLIB data. Throws run_error for an I/O error only.
probe_result probe_format(const byte_source& src, std::string_view name);

// The single-format probes, each false when the content is not theirs (r is then untouched).
bool probe_tfrecord(const byte_source& src, probe_result& r);
bool probe_npy(const byte_source& src, probe_result& r);
bool probe_npz(const byte_source& src, probe_result& r);
bool probe_jpeg(const byte_source& src, probe_result& r);
bool probe_png(const byte_source& src, probe_result& r);
bool probe_parquet(const byte_source& src, probe_result& r);
bool probe_tar(const byte_source& src, probe_result& r);

} // namespace dlsize::dataset
