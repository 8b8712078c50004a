#pragma once
// One rank's part of one checkpoint: writing its shards (io::write_files from the block pool)
// or reading them back and checking every block (the io engine's reader, cold under O_DIRECT).
// What it measured travels to rank 0 as JSON (rank_phase).
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/defaults.hpp"
#include "core/histogram.hpp"
#include "dataset/checkpoint_block.hpp"
#include "dataset/checkpoint_folder.hpp"
#include "io/engine.hpp"
#include "s3/transfer_stats.hpp"

namespace dlsize::pipeline {

struct phase_io {
  io::cache_mode cache = io::cache_mode::direct;
  unsigned queue_depth = core::defaults::queue_depth;
  std::uint32_t request_size = core::defaults::request_size;
  bool verify = true; // reads: check every block (off: a plain read, as fio's)
  // --stall-timeout: a write, fsync or read that has not finished for this long ends the phase
  // (the rank's result says which, and what the kernel still holds); 0: never.
  double stall_timeout_s = 0;
};

// What one rank's requests to a bucket did in one write or read of a checkpoint.
struct rank_s3_figures {
  s3::transfer_stats requests;
  std::optional<histogram> upload_time; // writes: per object, create to complete
};

// What one rank measured in one write or read of a checkpoint.
struct rank_phase {
  std::uint64_t bytes = 0, requests = 0;
  double seconds = 0, cpu_s = 0;
  double fill_s = 0, completion_wait_s = 0; // writes: data generation against waiting on storage
  double starved_s = 0;    // writes: generation time with no write in flight (storage idle)
  histogram latency;       // per request
  histogram fsync_latency; // writes: per file
  std::uint64_t blocks = 0, mismatches = 0; // reads: blocks checked (0 unverified), failed
  std::vector<std::string> problems;        // reads: the first mismatches, with file and offset
  // interrupted: a stop or a stall ended the phase before its last request; failed: error says
  // why (skipped does not occur).
  io::job_outcome outcome = io::job_outcome::done;
  bool registered_buffers = false;
  std::string engine; // reads: the engine that ran (io_uring, or psync after a fallback)
  // --stall-timeout ended the phase: what waited and for how long ("" when none did).
  std::string stalled;
  // Requests or threads left in the kernel ("a write of FILE at offset O"): this rank's files
  // then stay where they are (removing them may hang too).
  std::vector<std::string> in_kernel;
  // A failure that ended the phase (a write's ENOSPC, a read's EIO, a shard missing): what failed,
  // in the words of the call that failed ("write failed: No space left on device. file: F;
  // offset: O; ..."); "" when none. The figures above are then what came before it.
  std::string error;
  // Objects in a bucket: what the requests did; none for files (and a read of no object).
  std::optional<rank_s3_figures> s3;

  // The message that carries it to rank 0 (pipeline/checkpoint_phase_json.cpp).
  nlohmann::json to_json() const;
  static rank_phase from_json(const nlohmann::json& j);
};

// Writes rank's shards of checkpoint k into folder (a rank with no bytes writes no file). On a
// stop (SIGINT) or a failure, the files it made are removed again; a failure is returned in
// the result (error, outcome failed), not thrown.
rank_phase write_rank_shards(const dataset::checkpoint_set& set, unsigned rank, std::uint64_t k,
                             const std::filesystem::path& folder, const phase_io& io,
                             const dataset::block_pool& pool);

// Reads rank's shards of checkpoint k from folder and checks each block against what
// write_rank_shards put there. A missing shard or a failed read is returned in the result
// (error, outcome failed), not thrown.
rank_phase read_rank_shards(const dataset::checkpoint_set& set, unsigned rank, std::uint64_t k,
                            const std::filesystem::path& folder, const phase_io& io);

// The jobs of a restore: each file in ranges of `part` bytes (whole when part is 0), one job
// each, tagged by their order.
class range_jobs : public io::job_source {
public:
  range_jobs(const io::file_set& files, std::uint64_t part);
  io::pull_result pull(unsigned reader, io::read_job& job) override;

private:
  std::vector<io::read_job> m_jobs;
  std::atomic<std::size_t> m_next{0};
};

// Reads `files` with `engine`, the jobs from `jobs`, and checks every block against what a write
// of (set, rank, k) put there; a block that arrives in pieces is put together first. A stall
// (--stall-timeout) or SIGINT stops the engine. Failures are in the result, not thrown.
rank_phase read_checked(const dataset::checkpoint_set& set, unsigned rank, std::uint64_t k,
                        const io::file_set& files, io::engine& engine, io::job_source& jobs,
                        const phase_io& io);

} // namespace dlsize::pipeline
