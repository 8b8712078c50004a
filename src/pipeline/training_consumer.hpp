#pragma once
// The readers' side of a training run: what each sample's bytes do as they arrive. The bytes are
// counted (live progress), handed to a real GPU's feed, and preprocessed; each finished sample
// is reported to the batch board and folded into its accelerator's digest of what it read.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/histogram.hpp"
#include "io/engine.hpp"
#include "pipeline/batch_board.hpp"
#include "pipeline/gpu_feed.hpp"
#include "pipeline/preprocess.hpp"
#include "pipeline/sampler.hpp"

namespace dlsize::pipeline {

// Counts each sample's bytes, runs the preprocessing on them, and reports whole samples to
// the board. Samples belong to this rank's accelerators first .. first + count − 1.
class training_consumer : public io::job_consumer {
public:
  // One reader's counts and preprocessor.
  struct alignas(64) reader_tally {
    std::atomic<std::uint64_t> flowed{0}; // bytes of every request as it completes (live progress)
    histogram sample_latency;
    std::uint64_t failed = 0;
    std::string first_error;
    std::unique_ptr<preprocessor> pre;
  };

  training_consumer(const sampler& s, batch_board& board, gpu_feed& feed, std::uint64_t first,
                    std::uint64_t count, unsigned readers, std::uint64_t preprocess_ns,
                    std::size_t chunk);
  void on_start(unsigned, const io::read_job&) override {}
  void on_data(unsigned reader, const io::read_job& job, std::uint64_t off, const std::byte* data,
               std::size_t bytes) override;
  void on_done(unsigned reader, const io::read_job& job, std::uint64_t bytes,
               std::uint64_t latency_ns, io::job_outcome outcome,
               const std::string& error) override;
  std::vector<reader_tally>& tallies() { return m_tally; }
  // Bytes the reads returned so far, counted as each request completes.
  std::uint64_t bytes() const;
  // What local accelerator a read, as a sum of its samples' hashes (order independent).
  std::uint64_t digest(std::uint64_t a) const { return m_digest[a].load(); }

private:
  const sampler& m_sampler;
  batch_board& m_board;
  gpu_feed& m_feed;
  std::uint64_t m_first;
  std::vector<reader_tally> m_tally;
  std::unique_ptr<std::atomic<std::uint64_t>[]> m_digest;
};

} // namespace dlsize::pipeline
