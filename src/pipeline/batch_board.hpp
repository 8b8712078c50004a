#pragma once
// The prefetch queues of all accelerators: per accelerator `depth` batch slots, filled by the
// readers in any order and taken by the accelerator in step order. Step t lives in slot
// t % depth; its samples may be read once the accelerator has taken step t − depth, so at most
// `depth` batches are loaded ahead of the one being computed.
//
// Readers touch a slot through atomics only (no lock per sample); the last sample of a batch
// takes the accelerator's lock once to mark the batch ready and wake it.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace dlsize::pipeline {

class batch_board {
public:
  batch_board(std::uint64_t accelerators, std::uint64_t depth, std::uint64_t batch_size);

  std::uint64_t depth() const { return m_depth; }
  // Whether the samples of step t of accelerator a may be read now.
  bool may_load(std::uint64_t a, std::uint64_t t) const {
    return t < m_accel[a].taken.load(std::memory_order_acquire) + m_depth;
  }
  // A reader finished one sample of (a, t): bytes read, and whether it failed.
  void sample_done(std::uint64_t a, std::uint64_t t, std::uint64_t bytes, bool failed,
                   std::uint64_t now);
  // Called by the reader that finished a batch's last sample, before the accelerator can see
  // the batch ready (a real GPU's batch is handed to the device here). failed: samples of it
  // that could not be read.
  using complete_fn = std::function<void(std::uint64_t a, std::uint64_t t, std::uint64_t failed)>;
  void on_complete(complete_fn fn) { m_on_complete = std::move(fn); }

  struct batch {
    bool ready = false; // false: the board was closed first
    std::uint64_t ready_ns = 0;
    std::uint64_t bytes = 0;
    std::uint64_t failed = 0;
  };
  // Blocks until step t of accelerator a is ready or the board is closed.
  batch wait(std::uint64_t a, std::uint64_t t);
  // The accelerator took step t: its slot is reset for step t + depth. Returns after the
  // window moved (callers then wake waiting readers).
  void take(std::uint64_t a, std::uint64_t t);
  // Wakes every waiting accelerator for good.
  void close();

private:
  struct slot {
    std::atomic<std::uint64_t> remaining{0};
    std::atomic<std::uint64_t> bytes{0};
    std::atomic<std::uint64_t> failed{0};
    std::uint64_t ready_step = UINT64_MAX; // guarded by the accelerator's lock
    std::uint64_t ready_ns = 0;
  };
  struct alignas(64) accel {
    std::atomic<std::uint64_t> taken{0};
    std::unique_ptr<slot[]> slots;
    std::mutex m;
    std::condition_variable cv;
  };
  std::uint64_t m_depth, m_batch;
  std::vector<accel> m_accel;
  std::atomic<bool> m_closed{false};
  complete_fn m_on_complete;
};

} // namespace dlsize::pipeline
