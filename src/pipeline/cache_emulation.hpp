#pragma once
// bench --client-ram: the page cache of a client with that much RAM, emulated by running the
// process in a child memory cgroup whose limit is the RAM plus the process's own memory. The
// dataset's pages are evicted first (pages cached outside the child would still hit), and the
// limit follows the process's own memory while it runs, so that the cache keeps the RAM's size
// as buffers fill. docs/metrics.md defines the figures.
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <thread>

#include <nlohmann/json.hpp>

#include "io/engine.hpp"
#include "telemetry/memory_cgroup.hpp"

namespace dlsize::pipeline {

// The smallest --client-ram that runs: the reads in flight twice over (readers × queue depth ×
// request size × 2), and at least 32 MiB.
std::uint64_t minimum_client_ram(const io::engine_options& io);

// Refuses (usage_error naming --client-ram and the figures) what the emulation cannot do:
// other cache modes than buffered (direct and uncached reads bypass or drop the page cache),
// several ranks, a size below minimum_client_ram.
void check_cache_emulation(std::uint64_t client_ram, const io::engine_options& io, int ranks);

// What evicting the dataset's pages did.
struct eviction_figures {
  std::uint64_t files = 0, bytes = 0;
  std::uint64_t resident_bytes_before = 0, resident_bytes_after = 0; // mincore, in pages
};

// posix_fadvise(DONTNEED) on every file of the dataset at `dataset` after writing back dirty
// pages. Throws usage_error for a dataset that cannot be opened, run_error for a failed call.
eviction_figures evict_dataset_pages(const std::filesystem::path& dataset);

class cache_emulation {
public:
  // Joins the child cgroup (made under the process's own memory cgroup, found through
  // /proc/self/cgroup and /proc/self/mountinfo), evicts the dataset's pages and sets the limit.
  // Throws usage_error (exit 2, naming --client-ram and what was tried) where no cgroup can be
  // made.
  cache_emulation(std::uint64_t client_ram, const std::filesystem::path& dataset);
  ~cache_emulation(); // stop(), errors ignored
  cache_emulation(const cache_emulation&) = delete;
  cache_emulation& operator=(const cache_emulation&) = delete;

  // Ends the emulation: the limit stops following, the process moves back and the child is
  // removed. Throws run_error when the child cannot be removed. Idempotent.
  void stop();
  // The report's cache_emulation block (docs/report-schema.md); after stop() for final figures.
  nlohmann::json to_json() const;

private:
  void follow();
  void adjust(); // under m_mutex

  std::uint64_t m_client_ram;
  std::unique_ptr<telemetry::memory_cgroup> m_cgroup;
  eviction_figures m_evicted;
  std::uint64_t m_rss_start = 0, m_own_start = 0, m_own_peak = 0, m_cache_peak = 0;
  std::uint64_t m_limit = 0, m_limit_start = 0, m_limit_peak = 0, m_adjustments = 0;
  std::uint64_t m_failed_adjustments = 0;
  bool m_stopping = false, m_stopped = false;
  mutable std::mutex m_mutex;
  std::condition_variable m_wake;
  std::thread m_follower;
};

} // namespace dlsize::pipeline
