#pragma once
// Hands the readers the samples of every accelerator's batches, as far as each accelerator's
// prefetch window allows. Each accelerator has its own cursor, so one accelerator with a full
// window (a slow step, a straggler) never holds back another's reads, as independent per-rank
// loaders would not. Which batch next: the one of the accelerator with the earliest next step
// (earliest deadline first, ties broken round-robin), and a batch once begun is finished
// before another begins, so batches complete one after another rather than all at the end.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>

#include "dataset/layout.hpp"
#include "io/engine.hpp"
#include "pipeline/batch_board.hpp"
#include "pipeline/sampler.hpp"

namespace dlsize::pipeline {

//
// A rank reads for its own accelerators only: global accelerators first .. first + count − 1 of
// the sampler, which are accelerators 0 .. count − 1 of its board.
class training_source : public io::job_source {
public:
  // readers: the engine's reader threads (pull's reader is below it).
  training_source(const dataset::dataset_layout& layout, const sampler& s, const batch_board& board,
                  std::uint64_t first, std::uint64_t count, unsigned readers);

  // Lock-free: a compare-and-swap on one accelerator's cursor per sample; a scan over the
  // accelerators once per batch (streamed shards: a lock once per reader and epoch, to hold the
  // epoch's deal).
  io::pull_result pull(unsigned reader, io::read_job& job) override;
  void wait(unsigned reader, std::uint64_t timeout_ns) override;
  // A window moved: wake waiting readers.
  void notify();
  // No more jobs (a stop): pull answers end.
  void close();

private:
  enum class state { job, later, end };
  // The accelerator to take a sample from next, or later/end.
  state pick(std::uint64_t& accelerator) const;

  const dataset::dataset_layout& m_layout;
  const sampler& m_sampler;
  const batch_board& m_board;
  std::uint64_t m_first, m_accels, m_batch, m_per_accel; // jobs per accelerator over the run
  bool m_per_record;
  std::unique_ptr<std::atomic<std::uint64_t>[]> m_cursor; // per accelerator: its next job
  std::atomic<std::uint64_t> m_hint{0}; // the accelerator whose batch is being pulled
  std::atomic<bool> m_closed{false};
  // Per reader, apart from the others': the streamed epoch it holds (sampler::epoch_hold).
  struct alignas(64) reader_hold {
    sampler::epoch_hold hold;
  };
  std::unique_ptr<reader_hold[]> m_holds;
  std::mutex m_m;
  std::condition_variable m_cv;
};

} // namespace dlsize::pipeline
