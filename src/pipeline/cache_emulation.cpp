#include "pipeline/cache_emulation.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include <fmt/format.h>

#include "cluster/agreement.hpp"
#include "core/error.hpp"
#include "core/units.hpp"
#include "dataset/layout.hpp"
#include "io/noatime.hpp"
#include "telemetry/fact_files.hpp"

namespace dlsize::pipeline {
namespace {

// How often the limit follows the process's own memory, and by how much it must have moved:
// often enough that buffers filled in one step do not eat much of the cache.
constexpr auto kFollowPeriod = std::chrono::milliseconds(100);
constexpr std::uint64_t kFollowSlack = 1 << 20;

std::string bytes_text(std::uint64_t b) {
  return units::format_bytes_binary(static_cast<double>(b));
}

// Bytes of the file the page cache holds (mincore over a read-only map).
std::uint64_t resident_bytes(int fd, std::uint64_t size) {
  if (size == 0)
    return 0;
  void* map = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED)
    return 0;
  const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> vec((size + page - 1) / page);
  std::uint64_t pages = 0;
  if (::mincore(map, size, vec.data()) == 0)
    for (const unsigned char v : vec)
      pages += v & 1;
  ::munmap(map, size);
  return std::min(size, pages * page);
}

std::uint64_t process_rss_bytes() {
  const auto status = telemetry::read_fact("/proc/self/status").value_or("");
  for (const auto line : telemetry::lines_of(status))
    if (line.rfind("VmRSS:", 0) == 0)
      return std::stoull(std::string(line.substr(6))) * 1024; // "VmRSS:   1234 kB"
  return 0;
}

} // namespace

std::uint64_t minimum_client_ram(const io::engine_options& io) {
  const std::uint64_t in_flight =
      std::uint64_t{io.readers} * io.queue_depth * std::uint64_t{io.request_size};
  return std::max<std::uint64_t>(32ull << 20, 2 * in_flight);
}

void check_cache_emulation(std::uint64_t client_ram, const io::engine_options& io) {
  if (io.cache != io::cache_mode::buffered)
    throw usage_error("--client-ram: emulates a client's page cache, which --cache direct "
                      "bypasses and --cache uncached drops. valid: --cache buffered");
  const std::uint64_t min = minimum_client_ram(io);
  if (client_ram < min)
    throw usage_error(fmt::format(
        "--client-ram: {} is too small to run: the page cache must hold the reads in flight "
        "(--readers {} × --queue-depth {} × --request-size {}) twice over, and at least 32 MiB. "
        "valid: {} or more",
        bytes_text(client_ram), io.readers, io.queue_depth, bytes_text(io.request_size),
        bytes_text(min)));
}

void check_host_cgroups(const std::vector<std::string>& paths, const cluster::placement& where) {
  for (std::size_t r = 0; r < paths.size(); ++r) {
    const int node = where.rank_nodes.at(r);
    std::string listed;
    bool differs = false;
    for (std::size_t q = 0; q < paths.size(); ++q)
      if (where.rank_nodes.at(q) == node) {
        differs = differs || paths[q] != paths[r];
        listed += fmt::format("{}rank {}: {}", listed.empty() ? "" : "; ", q, paths[q]);
      }
    if (differs)
      throw usage_error(fmt::format(
          "--client-ram: the ranks of host {} are in different memory cgroups ({}), as a "
          "launcher that confines each task puts them; one cgroup per host cannot hold them. "
          "valid: launch each host's ranks in one cgroup (mpiexec; srun without per-task "
          "memory confinement), or one rank per host",
          where.rank_hosts.at(r), listed));
  }
}

eviction_figures evict_dataset_pages(const std::filesystem::path& dataset) {
  const dataset::dataset_layout layout = dataset::open_dataset(dataset);
  eviction_figures e;
  for (std::uint64_t f = 0; f < layout.files(); ++f) {
    const auto path = layout.file_path(f);
    const int fd = DLSIZE_SYSCALL(io::open_noatime(path.c_str(), O_RDONLY | O_CLOEXEC),
                                  "evicting the dataset's pages. file: " + path.string());
    struct stat st {};
    ::fstat(fd, &st);
    const auto size = static_cast<std::uint64_t>(st.st_size);
    e.resident_bytes_before += resident_bytes(fd, size);
    // Dirty pages are not dropped: a dataset just written is written back first.
    ::fdatasync(fd);
    const int err = ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    e.resident_bytes_after += resident_bytes(fd, size);
    ::close(fd);
    if (err)
      throw run_error(fmt::format("posix_fadvise(DONTNEED) failed: {}. file: {}", errno_text(err),
                                  path.string()));
    ++e.files;
    e.bytes += size;
  }
  return e;
}

cache_emulation::cache_emulation(std::uint64_t client_ram, const std::filesystem::path& dataset,
                                 cluster::communicator& comm)
    : m_client_ram(client_ram), m_owner(comm.where().local_rank == 0),
      m_local_ranks(comm.where().local_ranks) {
  const cluster::placement& w = comm.where();
  const auto loc =
      telemetry::locate_memory_cgroup(telemetry::read_fact("/proc/self/cgroup").value_or(""),
                                      telemetry::read_fact("/proc/self/mountinfo").value_or(""));
  // What a host's ranks must share: the memory cgroup they are in; the owner's pid names the
  // child.
  const auto facts = cluster::agree(comm, [&] {
    return to_json(cgroup_fact{loc.cgroup_path, ::getpid()});
  });
  std::vector<std::string> paths;
  std::string owner_pid;
  for (std::size_t r = 0; r < facts.size(); ++r) {
    const cgroup_fact f = cgroup_fact_from_json(facts[r]);
    paths.push_back(f.cgroup);
    if (w.rank_nodes.at(r) == w.node && w.rank_local.at(r) == 0)
      owner_pid = std::to_string(f.pid);
  }
  const std::string name = fmt::format("dlsize-{}", owner_pid);
  const auto make = [&](telemetry::cgroup_role role) {
    try {
      m_cgroup = std::make_unique<telemetry::memory_cgroup>(loc, name, role);
    } catch (const usage_error& e) {
      throw usage_error(fmt::format("--client-ram: {}", e.what()));
    }
  };
  // The owner makes the child and empties the dataset's pages before any rank reads into it;
  // the others join once it exists.
  cluster::agree(comm, [&] {
    check_host_cgroups(paths, w);
    if (m_owner) {
      make(telemetry::cgroup_role::owner);
      m_rss_start = process_rss_bytes();
      m_evicted = evict_dataset_pages(dataset);
    }
    return nullptr;
  });
  cluster::agree(comm, [&] {
    if (!m_owner) {
      make(telemetry::cgroup_role::member);
      m_rss_start = process_rss_bytes();
    }
    return nullptr;
  });
  if (!m_owner)
    return; // the owner alone sets and follows the limit
  // Memory a process held before it moved stays charged to its old cgroup: what the child is
  // charged is what the limit has to make room for, every member's own memory included.
  const telemetry::memory_charge c = m_cgroup->charge();
  m_own_start = m_own_peak = c.own_bytes();
  m_limit = m_limit_start = m_limit_peak = m_client_ram + m_own_start;
  m_cgroup->set_limit(m_limit);
  m_follower = std::thread([this] { follow(); });
}

cache_emulation::~cache_emulation() {
  try {
    stop();
  } catch (...) { // NOLINT(bugprone-empty-catch): a destructor does not throw; stop() said
  }
}

void cache_emulation::adjust() {
  const telemetry::memory_charge c = m_cgroup->charge();
  m_own_peak = std::max(m_own_peak, c.own_bytes());
  m_cache_peak = std::max(m_cache_peak, c.file_bytes);
  const std::uint64_t want = m_client_ram + c.own_bytes();
  if (want + kFollowSlack > m_limit && want < m_limit + kFollowSlack)
    return;
  try {
    m_cgroup->set_limit(want);
    m_limit = want;
    m_limit_peak = std::max(m_limit_peak, want);
    ++m_adjustments;
  } catch (const run_error&) {
    // Lowering the limit can be refused while the kernel cannot reclaim; the next turn retries.
    ++m_failed_adjustments;
  }
}

void cache_emulation::follow() {
  std::unique_lock lock(m_mutex);
  while (!m_stopping) {
    try {
      adjust();
    } catch (const run_error&) {
      ++m_failed_adjustments;
    }
    m_wake.wait_for(lock, kFollowPeriod, [this] { return m_stopping; });
  }
}

void cache_emulation::stop() {
  {
    std::lock_guard lock(m_mutex);
    if (m_stopped)
      return;
    m_stopping = m_stopped = true;
  }
  m_wake.notify_all();
  if (m_follower.joinable())
    m_follower.join();
  // A last reading: a run shorter than the follower's period would have none of its peak.
  try {
    const telemetry::memory_charge c = m_cgroup->charge();
    std::lock_guard lock(m_mutex);
    m_own_peak = std::max(m_own_peak, c.own_bytes());
    m_cache_peak = std::max(m_cache_peak, c.file_bytes);
  } catch (const run_error&) { // NOLINT(bugprone-empty-catch): the peaks keep what was read
  }
  m_cgroup->release();
}

report::cache_emulation_section cache_emulation::figures() const {
  std::lock_guard lock(m_mutex);
  report::cache_emulation_section s;
  s.client_ram_bytes = m_client_ram;
  report::cache_cgroup_section& g = s.cgroup.emplace();
  g.version = static_cast<std::uint64_t>(m_cgroup->version());
  g.path = m_cgroup->cgroup_path();
  g.dir = m_cgroup->dir().string();
  g.removed = m_stopped;
  g.ranks = static_cast<std::uint64_t>(m_local_ranks);
  s.process_rss_bytes_start = m_rss_start;
  s.footprint_bytes_start = m_own_start;
  s.footprint_bytes_peak = m_own_peak;
  s.limit_bytes_start = m_limit_start;
  s.limit_bytes_peak = m_limit_peak;
  s.limit_adjustments = m_adjustments;
  s.limit_adjustments_refused = m_failed_adjustments;
  s.page_cache_bytes_peak = m_cache_peak;
  report::eviction_section& e = s.evicted.emplace();
  e.files = m_evicted.files;
  e.bytes = m_evicted.bytes;
  e.resident_bytes_before = m_evicted.resident_bytes_before;
  e.resident_bytes_after = m_evicted.resident_bytes_after;
  return s;
}

} // namespace dlsize::pipeline
