#pragma once
// The folder `dlsize checkpoint --dir` writes: a manifest (dlsize-checkpoint.json) that makes it
// dlsize's and says what every rank wrote, and one subfolder per checkpoint
// (checkpoint-000001/), written as .checkpoint-000001.partial/ and renamed when every rank's
// shards are durable. Only names the manifest lists are ever removed.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dataset/checkpoint_block.hpp"

namespace dlsize::dataset {

inline constexpr const char* kCheckpointManifest = "dlsize-checkpoint.json";

// What the writes put in the blocks and how the shares were sized: the manifest keeps them so
// that a later --writes 0 restore reports what is on the storage, not what its command line says.
struct written_content {
  block_content content; // --dedupe-percent, --compress-percent of the writes
  double scale = 1;      // --scale
  bool subset = false;   // --subset
  bool operator==(const written_content& o) const {
    return content.dedupe_percent == o.content.dedupe_percent &&
           content.compress_percent == o.content.compress_percent && scale == o.scale &&
           subset == o.subset;
  }
};

// What a checkpoint folder holds, as its manifest says.
struct checkpoint_set {
  std::uint64_t run = 0; // the id in every block's header
  std::string workload;
  std::uint32_t request_size = 0; // the block size
  unsigned files_per_rank = 1;
  std::vector<std::uint64_t> rank_bytes;  // one per rank
  std::vector<std::uint64_t> checkpoints; // numbers of the complete ones, oldest first
  written_content written;
  bool written_recorded = true; // false for a manifest of a dlsize that did not record it

  unsigned ranks() const { return static_cast<unsigned>(rank_bytes.size()); }
  std::uint64_t bytes() const; // one checkpoint, every rank
  // Sizes of rank r's files: its bytes split as evenly as bytes allow.
  std::vector<std::uint64_t> file_bytes(unsigned rank) const;
  nlohmann::json to_json() const;
  // Throws usage_error naming source and key for a manifest of another shape.
  static checkpoint_set from_json(const nlohmann::json& j, const std::string& source);
};

std::filesystem::path checkpoint_path(const std::filesystem::path& dir, std::uint64_t k);
std::filesystem::path partial_checkpoint_path(const std::filesystem::path& dir, std::uint64_t k);
std::string shard_name(unsigned rank, unsigned file);

// Before the first write (one rank): dir must be new, empty or missing; it is made. Throws
// usage_error for a foreign or non-empty folder (a dlsize checkpoint folder included: dlsize
// never writes into one; --writes 0 reads it), and when the file system has less room than
// need_bytes (statvfs f_bavail; both figures named, with `coexist` saying what they count).
// Returns whether the folder was made here (and is removed with the last checkpoint).
bool claim_checkpoint_folder(const std::filesystem::path& dir, std::uint64_t need_bytes,
                             const std::string& coexist);
// For --writes 0: the manifest of a dlsize checkpoint folder. Throws usage_error for a folder
// that is missing, foreign (no manifest) or whose manifest does not parse.
checkpoint_set open_checkpoint_folder(const std::filesystem::path& dir);
void write_checkpoint_manifest(const std::filesystem::path& dir, const checkpoint_set& set);
// Removes rank `rank`'s shards of checkpoint k from `folder` (final or partial): only the names
// the set gives, and of those only files whose content shows this run wrote them (no larger
// than the shard, first bytes a block header of this run, rank and file, or a hole); any other
// file is left in place and named on stderr. Returns what was left, each "'PATH' (why)", for the
// report's warnings.
std::vector<std::string> remove_rank_shards(const std::filesystem::path& folder,
                                            const checkpoint_set& set, unsigned rank);
// Removes a checkpoint subfolder once its shards are gone (rmdir: a folder with foreign files
// in it stays, and is named on stderr). Returns the folder's line when it stayed, else nothing.
std::vector<std::string> remove_empty_folder(const std::filesystem::path& folder);

} // namespace dlsize::dataset
