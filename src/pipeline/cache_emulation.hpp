#pragma once
// bench --client-ram: the page cache of a client with that much RAM, emulated by running the
// host's processes (one, or the ranks on it) in a child memory cgroup whose limit is the RAM
// plus their own memory. The dataset's pages are evicted first (pages cached outside the child
// would still hit), and the limit follows their own memory while they run, so that the cache
// keeps the RAM's size as buffers fill. docs/metrics.md defines the figures.
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "cluster/communicator.hpp"
#include "io/engine.hpp"
#include "report/bench_report.hpp"
#include "telemetry/memory_cgroup.hpp"

namespace dlsize::pipeline {

// The smallest --client-ram that runs: the reads in flight twice over (readers × queue depth ×
// request size × 2), and at least 32 MiB.
std::uint64_t minimum_client_ram(const io::engine_options& io);

// Refuses (usage_error naming --client-ram and the figures) what the emulation cannot do:
// other cache modes than buffered (direct and uncached reads bypass or drop the page cache),
// a size below minimum_client_ram.
void check_cache_emulation(std::uint64_t client_ram, const io::engine_options& io);

// Refuses (usage_error naming the host and ranks) ranks of one host in different memory
// cgroups, as a launcher that confines each task puts them: one child per host cannot hold
// them. paths: every rank's memory cgroup (/proc/self/cgroup's form), by rank.
void check_host_cgroups(const std::vector<std::string>& paths, const cluster::placement& where);

// What evicting the dataset's pages did.
struct eviction_figures {
  std::uint64_t files = 0, bytes = 0;
  std::uint64_t resident_bytes_before = 0, resident_bytes_after = 0; // mincore, in pages
};

// posix_fadvise(DONTNEED) on every file of the dataset at `dataset` after writing back dirty
// pages. Throws usage_error for a dataset that cannot be opened, run_error for a failed call.
eviction_figures evict_dataset_pages(const std::filesystem::path& dataset);

// What each rank tells the others before the emulation starts: the memory cgroup it is in (a
// host's ranks must share it) and its pid (the owner's names the child).
struct cgroup_fact {
  std::string cgroup;
  long pid = 0;
};
nlohmann::json to_json(const cgroup_fact& f);
// Throws run_error when j is not what to_json writes.
cgroup_fact cgroup_fact_from_json(const nlohmann::json& j);

// One child cgroup per host, shared by the host's ranks: its local rank 0 (the owner) makes it
// under the ranks' memory cgroup, evicts the dataset's pages and sets the limit; after that the
// others join it. The limit is the RAM plus what every process in it holds of its own.
class cache_emulation {
public:
  // A collective of comm (every rank calls it at the same point): the child is made under the
  // process's own memory cgroup, found through /proc/self/cgroup and /proc/self/mountinfo.
  // Throws usage_error (exit 2, naming --client-ram and what was tried) where no cgroup can be
  // made or joined (with several ranks a cluster::job_error agreed on every rank); the child is
  // removed again then.
  cache_emulation(std::uint64_t client_ram, const std::filesystem::path& dataset,
                  cluster::communicator& comm);
  ~cache_emulation(); // stop(), errors ignored
  cache_emulation(const cache_emulation&) = delete;
  cache_emulation& operator=(const cache_emulation&) = delete;

  // Ends the emulation: the limit stops following, the process moves back and the child is
  // removed by the last process out (the owner waits for its members). Throws run_error when
  // the owner cannot remove the child. Idempotent.
  void stop();
  // The report's cache_emulation block (docs/report-schema.md); after stop() for final figures.
  report::cache_emulation_section figures() const;

private:
  void follow();
  void adjust(); // under m_mutex

  std::uint64_t m_client_ram;
  bool m_owner = true;
  int m_local_ranks = 1; // processes sharing the child
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
