#pragma once
// Generates a dataset for a workload profile: deterministic from the seed, written in
// parallel, each file complete under its final name or not there at all, the manifest last.
// An interrupted generation leaves its state file, and the same command resumes it: files
// already complete (right size, and a first record header with the dataset's id) are kept,
// partial ones its journal lists are redone; a file it did not write stops it (exit 2) and is
// never replaced or removed (dataset/datagen_journal.hpp).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/defaults.hpp"
#include "core/folder_lock.hpp"
#include "dataset/layout.hpp"
#include "s3/transfer_stats.hpp"

namespace dlsize::dataset {

struct datagen_options {
  std::filesystem::path dir;
  dataset_params params;
  unsigned threads = 0; // 0: one per CPU
  bool progress = true;
  // --stall-timeout: the generation stops, naming the file, when no write, fsync or rename
  // finished this long while one waits (a hung mount); 0: never.
  double stall_timeout_s = core::defaults::stall_timeout_s;
};

struct datagen_result {
  std::uint64_t files_written = 0;
  std::uint64_t files_kept = 0; // complete from an earlier, interrupted run
  std::uint64_t bytes_written = 0;
  double seconds = 0;
  bool already_complete = false;
  bool interrupted = false;
  std::optional<s3::transfer_stats> s3_requests; // a bucket's: requests, retries by cause
};

// The manifest of a dataset (state "generating" or "complete"), as datagen writes it; the state
// file of a generation in progress also carries its generation id.
nlohmann::json manifest_json(const dataset_layout& layout, const char* state,
                             const std::string& generation = "");
// The generation id a state file holds ("" when none).
std::string generation_from_json(const nlohmann::json& state);
// The params of a manifest read from source; throws usage_error "not a dlsize manifest" when it
// has none.
dataset_params params_of_manifest(const nlohmann::json& manifest, const std::string& source);

// A generation into a bucket records the files whose objects are complete, as ranges
// [from, to), in a journal object beside the dataset (schema dlsize.s3-datagen-journal/1).
struct object_journal_document {
  dataset_params params;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> written;
};
std::string object_journal_text(const object_journal_document& d);
// Throws usage_error naming source when the text is not a journal, or a range is not one of
// `files` files.
object_journal_document object_journal_from_text(std::string_view text, const std::string& source,
                                                 std::uint64_t files);

// Throws usage_error for a folder that holds foreign files or another dataset, run_error on
// I/O failure.
datagen_result generate_dataset(const datagen_options& opt);

// The first step of a generation, by the one rank that prepares it: checks that the file system
// has room for the bytes still to write (statvfs f_bavail; all of them in a new folder, those of
// the files not yet complete in an unfinished one), creates the folder and locks it for as long
// as the lock lives. Throws usage_error naming both figures when room is short, or when another
// datagen holds the folder. Where the file system cannot lock, warns and goes on.
core::folder_lock claim_dataset_folder(const datagen_options& opt);

// The phases of a generation, for ranks that share it (cluster::generate_dataset_job runs them
// with agreements between). prepare_dataset_folder (one rank): checks the folder, writes the
// state file, makes the subfolders; true when the dataset is already complete.
bool prepare_dataset_folder(const datagen_options& opt);
// Writes the files f with f % ranks == rank (keeping complete ones). Throws usage_error naming
// a file it did not write found in its way, run_error on the first failure or on a stall (writers
// the kernel holds are named on stderr and left behind); `interrupted` when a stop was asked for.
datagen_result write_dataset_share(const datagen_options& opt, unsigned rank, unsigned ranks);
// The id of the generation whose state file is in dir ("" when none): ranks compare theirs with
// rank 0's to know they share the folder.
std::string generation_of(const std::filesystem::path& dir);
// The last phase (one rank, after every share is written): flushes, writes the manifest,
// removes the state file.
void seal_dataset(const datagen_options& opt);

} // namespace dlsize::dataset
